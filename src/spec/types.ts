/**
 * The validated, normalised spec (SPEC.md §3) that every other part of chant-wave
 * reads: defaults applied, runs as objects with their `op` resolved, durations in
 * milliseconds. Parsing and validation live in `parse_spec.ts`; this file owns only
 * the shapes and closed vocabularies.
 * Also wave k of a spec, rest waves included (§11): past the spec's own waves,
 * when the last says `rest: true`, that wave again as wave k.
 * @module
 */

export {
  type Command,
  type PerRunCommand,
  type SqitchTool,
  TOFU_KINDS,
  type TofuKind,
  type TofuTool,
  type Tool,
  TOOL_KINDS,
  type ToolCommand,
  type ToolKind,
  type WholeWaveCommand,
} from "./command_types.ts";
import type { Command } from "./command_types.ts";

/** The gate policies of SPEC.md §4.4. */
export const GATE_POLICIES = ["always", "on-destructive", "never"] as const;
/** A gate policy. */
export type GatePolicy = typeof GATE_POLICIES[number];

/**
 * The approval modes of SPEC.md §12: which approvals a gate counts. Strictness,
 * from the least strict: `ledger` (any approval record), `forge` (approvals the
 * forge confirms in the job, and sealed ones), `sealed` (only approvals signed
 * by a key listed at base).
 */
export const APPROVAL_MODES = ["ledger", "forge", "sealed"] as const;
/** An approval mode. */
export type ApprovalMode = typeof APPROVAL_MODES[number];

/**
 * What a spec may write for `approval`: a mode, or `pr-review`, the old name of
 * `forge`, read as it.
 */
export const APPROVAL_MODE_NAMES = [...APPROVAL_MODES, "pr-review"] as const;

/** The signers file a sealed gate reads at base when the spec names none (§12). */
export const DEFAULT_SIGNERS = ".chant-wave/allowed_signers";

/** The approver rules of SPEC.md §12.1, with their defaults filled in. */
export interface ApproverRules {
  /** How many distinct principals must approve (default 1). */
  required: number;
  /** Principal patterns (`*` within a word); absent: anyone may approve. */
  allowed?: string[];
  /** Whether the change's authors, committers and CI actor may approve (default true). */
  selfApproval: boolean;
}

/**
 * The actions a plan rule may name (SPEC.md §13.1, §18): what the adapters
 * report for a change (OpenTofu/Terraform and sqitch).
 */
export const CHANGE_ACTIONS = [
  "create",
  "update",
  "delete",
  "replace",
  "read",
  "forget",
  "move",
  "import",
  "invoke",
  "deploy",
  "revert",
] as const;
/** An action a plan rule names. */
export type ChangeAction = typeof CHANGE_ACTIONS[number];

/** What a rule's `when` (or `when.only`) matches of one change (§18). */
export interface ChangeMatch {
  /** A glob over the change's address (`*` within a segment, `**` across). */
  address?: string;
  /** A glob over the resource type (one segment). */
  type?: string;
  /** The change's action. */
  action?: ChangeAction;
  /** `only` rules: globs every changed attribute path must match. */
  attributes?: string[];
}

/**
 * A rule over what a plan changes (SPEC.md §18), read at base: `when` some
 * change matches, the rule tightens the gate and the approvers; `only`, when
 * every change of every run matches, the gate becomes `never`.
 */
export type PlanRule =
  | {
    /** Tightens when some change matches. */
    kind: "when";
    match: ChangeMatch;
    gate?: GatePolicy;
    approvers?: Partial<ApproverRules>;
  }
  | {
    /** Loosens to `never` when every change of every run matches. */
    kind: "only";
    match: ChangeMatch;
    gate: "never";
  };

/** Whether wave k runs only after wave k-1 applied this revision (§4.11). */
export const ORDERS = ["strict", "none"] as const;
/** `strict` or `none`. */
export type Order = typeof ORDERS[number];

/** What a job does after a failed apply. */
export const ON_FAILURE = ["continue", "stop"] as const;
/** `continue` with the job's other runs, or `stop`. */
export type OnFailure = typeof ON_FAILURE[number];

/**
 * Whether a `-- chant-wave: not destructive` line in a deploy script clears the
 * script's destructive statements (read at base; `ignore` is the stricter).
 */
export const DESTRUCTIVE_OVERRIDES = ["ignore", "honour"] as const;
/** `ignore` (the default) or `honour`. */
export type DestructiveOverrides = typeof DESTRUCTIVE_OVERRIDES[number];

/** The points of a wave where hooks run (SPEC.md §11), in the order they come. */
export const HOOK_POINTS = [
  "before-plan",
  "after-plan",
  "before-apply",
  "after-apply",
] as const;
/** `before-plan`, `after-plan`, `before-apply` or `after-apply`. */
export type HookPoint = typeof HOOK_POINTS[number];

/** A command hook (§11): exit 0 is ok, anything else failed. */
export interface CommandHook {
  /** The hook's name, unique at its point; the step console's label. */
  name: string;
  /** The argv template: `{op}`, `{wave}`, `{k}`, `{runs}`, `{plans}` (after-plan on). */
  run: string[];
}

/** What a hold waits for: another rollout's gate approved, or its wave applied. */
export interface HoldTarget {
  /** The other rollout's `name`. */
  name: string;
  /** Its gate, `<gate>-wave-<k>`. */
  gate: string;
  /** Wait until that wave applied, not only until it is approved. */
  applied: boolean;
}

/** A hold (§11): keeps the wave waiting (exit 3) until its target stands. */
export interface HoldHook {
  /** The hook's name, unique at its point. */
  name: string;
  /** The gate it waits on. */
  after: HoldTarget;
}

/** A hook: a command or a hold. */
export type Hook = CommandHook | HoldHook;

/** A wave's hooks at each point, in order (possibly none). */
export type Hooks = Record<HookPoint, Hook[]>;

/** A runner label (§3.5): a label, several labels, or a runner group. */
export type RunnerLabel = string | string[] | {
  group: string;
  labels?: string[];
};

/** A forge deployment environment. */
export interface Environment {
  /** The environment's name on the forge (`production`). */
  name: string;
  /** The URL the forge links the deployment to. */
  url?: string;
}

/** One target of a wave, with its `op` resolved (the run's, else the spec's). */
export interface Run {
  /** The target (`prod-eu`, `tenant-42`, `live/prod/vpc`), unique in its wave. */
  target: string;
  /** The value of `{op}` for this run. */
  op: string;
}

/** A job group (§3.3). */
export interface JobGroup {
  /** The group's name, part of its jobs' names. */
  name: string;
  /** Patterns: exact targets, `*` within a segment, `**` across segments. */
  runs: string[];
  /** Share jobs of this group; 1 means one group job. */
  shares: number;
  /** The group jobs' runner, over the wave's. */
  runner?: RunnerLabel;
  /** The group jobs' environment, over the wave's. */
  environment?: Environment;
  /** The group jobs' OIDC tokens (name → audience), over the wave's. */
  idTokens?: Record<string, string>;
}

/** The days a weekly freeze window names, Monday first (§19). */
export const WEEKDAYS = [
  "mon",
  "tue",
  "wed",
  "thu",
  "fri",
  "sat",
  "sun",
] as const;

/** A day of a weekly freeze window. */
export type Weekday = typeof WEEKDAYS[number];

/**
 * A freeze window's local date and time, without an offset (§19):
 * `2026-12-24T18:00`, `2026-12-24T18:00:30` or a bare date, `2026-12-24`.
 */
export const LOCAL_TIME_PATTERN: RegExp =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A freeze window (§19), its times local to `timezone`: dated (`from` up to
 * `to`, local date-times `2026-12-24T18:00`) or weekly (on each of `days`, from
 * `hours.from` to `hours.to` minutes after midnight; `to` ≤ `from` goes on into
 * the next day).
 */
export type FreezeWindow =
  & { timezone: string; reason?: string }
  & (
    | { kind: "dated"; from: string; to: string }
    | { kind: "weekly"; days: Weekday[]; hours: { from: number; to: number } }
  );

/** A wave (§3.2), numbered from 1 in spec order. */
export interface Wave {
  /** 1-based position in the spec. */
  k: number;
  /** The wave's name; the policy at base is looked up by it. */
  name: string;
  /** The wave's runs (possibly none with `discover`). */
  runs: Run[];
  /** The working copy's gate; the runner reads the policy at base instead (§4.4). */
  gate: GatePolicy;
  /** Share jobs; 1 means one whole-wave job (or job groups). */
  shares: number;
  /** The job groups that split the runs, instead of `shares`. */
  jobs?: JobGroup[];
  /** Runs planned or applied at once in one job. */
  parallel: number;
  /**
   * After a failed apply: go on with the job's other runs, or stop; the wave's,
   * else the top level's. Absent when neither sets it: a job then stops when a
   * run it applies has a destructive plan, else goes on (§19).
   */
  onFailure?: OnFailure;
  /** Milliseconds; 0 means no timeout. */
  timeoutMs: number;
  /** The forge's deployment environment of the wave's applying jobs. */
  environment?: Environment;
  /** Environment variables of the wave's jobs. */
  variables?: Record<string, string>;
  /** The wave's jobs' runner, over the spec's. */
  runner?: RunnerLabel;
  /** OIDC tokens of the wave's jobs: name → audience. */
  idTokens?: Record<string, string>;
  /** Whether `planWave` chooses the runs (§4.10). */
  discover: boolean;
  /** Which approvals its gate counts: the wave's, else the top level's (§12; read at base). */
  approval: ApprovalMode;
  /** Its approver rules: each field the wave's, else the top level's (§12.1; read at base). */
  approvers: ApproverRules;
  /** Whether deploy scripts' not-destructive marks count: the wave's, else the top level's (read at base). */
  destructiveOverrides: DestructiveOverrides;
  /** Rules over what the plans change (§18; read at base), in spec order. */
  rules: PlanRule[];
  /** Milliseconds the wave before must have applied a revision first: the wave's, else the top level's; 0 none (§19; read at base). */
  soakMs: number;
  /** Its freeze windows, then the top level's (§19; read at base). */
  freeze: FreezeWindow[];
  /** Runs applied first: the wave's, else the top level's (§19; read at base). */
  canary?: number;
  /** The last wave only: it stands for every further wave (§11). */
  rest: boolean;
  /** Its hooks: the wave's own, else the spec's (§11), as written in this spec. */
  hooks: Hooks;
}

/** A setup step of a generated pipeline job (§3.6). */
export type SetupStep =
  | { run: string }
  | { uses: string; with?: Record<string, string | number | boolean> };

/** How generated jobs get the binary and what they run first (§3.6). */
export interface Pipeline {
  /** The container image of every job. */
  image?: string;
  /** Steps every job runs before chant-wave. */
  setup: SetupStep[];
  /** Environment variables of every job. */
  variables: Record<string, string>;
  /** The shell line that puts `chant-wave` on PATH. */
  install?: string;
}

/** Webhook settings (§8): the values NAME environment variables. */
export interface Notify {
  /** The variable holding the webhook URL. */
  webhook: string;
  /** The variable holding the signing key. */
  key?: string;
}

/** The scheduled `resume` job (§13). */
export interface Resume {
  /** A 5-field cron schedule (UTC). */
  schedule: string;
}

/** What the rendered pipeline does on pull and merge requests (§18). */
export interface PullRequests {
  /** Whether the plan job is rendered (default true). */
  comment: boolean;
}

/** The scheduled `drift` job (§19). */
export interface Drift {
  /** A 5-field cron schedule (UTC). */
  schedule: string;
  /** Whether it records drifted waves' plans as pending facts (`--record`). */
  record: boolean;
}

/** A whole, valid spec (§3.1). */
export interface Spec {
  /** The rollout's name; gates are recorded under it. */
  name: string;
  /** The default value of `{op}`. */
  op: string;
  /** The gate prefix: wave k's gate is `<gate>-wave-<k>`. */
  gate: string;
  /** The base rev when the spec sets one (read before the push, §4.4). */
  base?: string;
  /**
   * Where the gate ledger is (`git`, `git:<remote>`, a directory), as `--ledger`
   * takes it; the flag and `CHANT_WAVE_LEDGER` override it, and `run` reads it
   * at base (§5.1).
   */
  ledger?: string;
  /** How runs are planned: `planWave`, else `plan`, else the `tool`. */
  plan: Command;
  /** How runs are applied: `applyWave`, else `apply`, else the `tool`. */
  apply: Command;
  /** Runs planned or applied at once in one job. */
  parallel: number;
  /** After a failed apply: go on, or stop; absent when the spec does not say (§19). */
  onFailure?: OnFailure;
  /** Milliseconds; 0 means no timeout. */
  timeoutMs: number;
  /** Milliseconds; 0 turns the heartbeat off. */
  heartbeatMs: number;
  /** How long a pending gate stands, in milliseconds. */
  pendingTtlMs: number;
  /** The branches whose pushes start the pipeline. */
  branches: string[];
  /** Whether waves must run in order (§4.11); the runner reads it at base. */
  order: Order;
  /** The jobs' runner. */
  runner?: RunnerLabel;
  /** Webhook notifications. */
  notify?: Notify;
  /** How generated jobs get the binary. */
  pipeline?: Pipeline;
  /** Which approvals gates count unless a wave says otherwise (§12; read at base). */
  approval: ApprovalMode;
  /** The allowed-signers file, relative to the repository's top level (§12; read at base). */
  signers: string;
  /** The approver rules unless a wave says otherwise (§12.1; read at base). */
  approvers: ApproverRules;
  /** Whether not-destructive marks count unless a wave says otherwise (read at base). */
  destructiveOverrides: DestructiveOverrides;
  /** The top level's soak in milliseconds, 0 none (§19; read at base for a wave no base wave governs). */
  soakMs: number;
  /** The top level's freeze windows (§19; read at base likewise). */
  freeze: FreezeWindow[];
  /** The top level's canary (§19; read at base likewise). */
  canary?: number;
  /** The scheduled job that restarts approved gates' jobs. */
  resume?: Resume;
  /** As written; absent: the plan job is rendered (§18). */
  pullRequests?: PullRequests;
  /** The scheduled job that plans every wave again and reports drift. */
  drift?: Drift;
  /**
   * The top-level hooks (§11), as written: each wave's `hooks` already hold
   * them unless it sets its own; read at base for a wave no base wave governs.
   */
  hooks: Hooks;
  /** The waves, in order. */
  waves: Wave[];
}

/**
 * The wave numbered `k`: one of the spec's, or its rest wave again as wave k.
 * @param spec The spec.
 * @param k The wave's number, from 1.
 * @returns The wave, or `undefined` when the spec has no wave k.
 * @example
 * ```ts
 * // waves: dev, then tenants with rest: true
 * waveAt(spec, 5); // { ...tenants, k: 5 }
 * waveAt(spec, 0); // undefined
 * ```
 */
export function waveAt(spec: Pick<Spec, "waves">, k: number): Wave | undefined {
  if (!Number.isSafeInteger(k) || k < 1) return undefined;
  if (k <= spec.waves.length) return spec.waves[k - 1];
  const last = spec.waves[spec.waves.length - 1];
  return last?.rest ? { ...last, k } : undefined;
}
