/**
 * The ledger's records (SPEC.md §5.2, §10, §4.11): `pending`, `approval` and
 * `expired` for the gate; `claim` and `run-outcome` for applying each plan at
 * most once under an approval; `wave-outcome` and `out-of-order` for the order of
 * waves; `recorded-plans` for review approvals (§13); `folded`, the summary of
 * what `ledger compact` moved out of a gate's tip. Their constructors (id and
 * timestamp injected) and their JSON text. Pure; where records are stored is the
 * `LedgerStore`'s business, and reading untrusted text back is `parseRecord`'s.
 * @module
 */

import type { Clock } from "../clock.ts";
import type { BaseRule } from "./base_rule.ts";
import { maskingReplacer } from "../console/visible.ts";
import type { Seal } from "../seal/seal.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import { type RandomBytes, randomHex, webRandomBytes } from "./random_hex.ts";

/** Decision ids (claims, outcomes and decisions name them): a compact time and random hex. */
export const DECISION_ID: RegExp = /^[A-Za-z0-9_.-]{1,64}$/;

/** The most base commits a record or a decision names (SPEC.md §4.4's chain rule). */
export const MAX_BASES = 1000;

/** The record kinds. */
export const RECORD_KINDS = [
  "pending",
  "approval",
  "expired",
  "claim",
  "run-outcome",
  "wave-outcome",
  "out-of-order",
  "waiting",
  "recorded-plans",
  "folded",
] as const;

/** One of {@linkcode RECORD_KINDS}. */
export type RecordKind = typeof RECORD_KINDS[number];

/** The fields every record has. */
export interface RecordBase {
  /** The record format's version. */
  version: 1;
  /** Random, unique: 32 lowercase hex digits when chant-wave writes it. */
  id: string;
  /** The spec's `name`. */
  name: string;
  /** The gate, `<gate>-wave-<k>`. */
  gate: string;
  /** When it was written, ISO 8601 UTC (`2026-11-30T09:15:02.123Z`). */
  timestamp: string;
}

/** A wave waited for an approval of `planDigest`; stands until `expiresAt`. */
export interface PendingRecord extends RecordBase {
  /** Always `pending`. */
  kind: "pending";
  /** The set digest the wave waits for. */
  planDigest: string;
  /** The plans' summaries, for approvers. */
  description: string;
  /** How many members the wave has. */
  members: number;
  /** The base commit the policy was read at (full sha). */
  base: string;
  /**
   * Every commit the rules were read at (full shas, `base` first), when more
   * than one (SPEC.md §4.4's chain rule).
   */
  bases?: string[];
  /** The rule that chose the base (SPEC.md §4.4). */
  baseRule?: BaseRule;
  /** The CI run that waited, when known. */
  runId?: string;
  /**
   * Who started the CI job that waited (SPEC.md §12.1): with `selfApproval:
   * false` their approval does not count.
   */
  actor?: string;
  /** The commit the waiting job ran at (full sha), when known. */
  head?: string;
  /** The spec file, from the repository's top level, when known (`approve` reads the rules there). */
  spec?: string;
  /**
   * The name of the wave that waited, when known: an approval given after it
   * approves that wave, and counts for no other wave a change moves to the
   * same position (`decideGate`).
   */
  wave?: string;
  /**
   * The CI job that waited, to restart once the gate is approved (SPEC.md §13
   * `resume`); recorded in CI only.
   */
  locator?: RunLocator;
  /** When the pending fact stops standing, ISO 8601 UTC. */
  expiresAt: string;
}

/** Someone approved the set digest `planDigest` for the gate. */
export interface ApprovalRecord extends RecordBase {
  /** Always `approval`. */
  kind: "approval";
  /** The set digest approved. */
  planDigest: string;
  /** Who approved. */
  by: string;
  /** Why, free text. */
  note?: string;
  /** A link for context (a run, a review). */
  url?: string;
  /**
   * The forge action that approved (SPEC.md §13.1): the URL of the approve
   * workflow's run (GitHub, Forgejo) or of the manual approve job (GitLab). On
   * a `forge` gate the approval counts only once the forge confirms that run
   * or job; the URL only says which to ask about.
   */
  via?: string;
  /**
   * The approver's signature over the approval (SPEC.md §12): a sealed gate
   * counts the approval only when it verifies against the signers file at base.
   */
  seal?: Seal;
  /**
   * Given with `approve --during-freeze` (SPEC.md §19): it lets its digest
   * through a freeze window (a sealed one signs it).
   */
  duringFreeze?: true;
}

/** Clears a standing gate (`chant-wave revoke`): earlier approvals and pending facts stop counting. */
export interface ExpiredRecord extends RecordBase {
  /** Always `expired`. */
  kind: "expired";
  /** Who revoked (`revoke --by`, else the CI actor, git user.email or `USER`). */
  by?: string;
  /** Why, free text (`revoke --note`). */
  note?: string;
  /**
   * The ids of the approvals it ends (SPEC.md §14): those never count again,
   * whatever their timestamp says.
   */
  approvals?: string[];
  /**
   * The forge actions it ends with them (SPEC.md §13.1): every approve run
   * (`run`) and approve job (`job`) with an id up to this one, the highest
   * its ended approvals and the revoke before it name. A record naming such
   * an action never counts again, however new.
   */
  actionsThrough?: ActionsThrough;
}

/** The highest approve run and job id a revoke ended, as digit strings. */
export interface ActionsThrough {
  /** An approve workflow's run (GitHub run id, Forgejo run number). */
  run?: string;
  /** A GitLab manual approve job. */
  job?: string;
}

/** One plan of one run: what an approval covers (SPEC.md §10). */
export interface PlanPair {
  /** The run's target. */
  target: string;
  /** Its plan's digest. */
  planDigest: string;
}

/** A member of a decision: its plan, and whether the plan changes nothing. */
export interface GateMember extends PlanPair {
  /** An empty plan needs no approval. */
  empty?: boolean;
}

/** A plan claimed under an approval, on its n-th attempt (a failed one is retried). */
export interface ClaimedRun extends PlanPair {
  /** 1 for the first attempt, one more after each failed one. */
  attempt: number;
}

/** A claimed plan's outcome. */
export interface SettledRun extends ClaimedRun {
  /** `ok`: applied; `failed`: the apply failed and may be claimed again. */
  outcome: "ok" | "failed";
}

/**
 * A job claims plans under an approval before applying them; of claims of one
 * plan and attempt, the first in ledger order wins (SPEC.md §10).
 */
export interface ClaimRecord extends RecordBase {
  /** Always `claim`. */
  kind: "claim";
  /** The approval the plans are applied under. */
  approvalId: string;
  /** The decision whose job claims them. */
  decisionId: string;
  /**
   * The job attempt that claims them: random, fresh for every claim a job
   * makes, so two jobs holding one decision record never both win (SPEC.md §10).
   * Absent in claims written before attempts were named.
   */
  attemptId?: string;
  /** The plans claimed. */
  runs: ClaimedRun[];
  /** The CI run, when known. */
  runId?: string;
}

/** What became of claimed plans: applied, or failed (then they may be claimed again). */
export interface RunOutcomeRecord extends RecordBase {
  /** Always `run-outcome`. */
  kind: "run-outcome";
  /** The approval they were applied under. */
  approvalId: string;
  /** The decision whose job applied them. */
  decisionId: string;
  /** The job attempt whose claim won them (see {@linkcode ClaimRecord}). */
  attemptId?: string;
  /** Each plan's outcome. */
  runs: SettledRun[];
  /** The CI run, when known. */
  runId?: string;
}

/** The wave outcomes of SPEC.md §4.11. */
export const WAVE_OUTCOMES = ["applied", "failed", "nothing-to-do"] as const;
/** One of {@linkcode WAVE_OUTCOMES}. */
export type WaveOutcome = typeof WAVE_OUTCOMES[number];

/** A job of a wave, as wave outcomes name it. */
export interface OutcomeJob {
  /**
   * `wave` (whole wave), `share` or `group`; `decide`: the deciding job, which
   * applies a wave's canary runs before its share and group jobs apply the
   * rest (SPEC.md §19), and never completes the wave by itself.
   */
  kind: "wave" | "share" | "group" | "decide";
  /** The share, from 1. */
  share?: number;
  /** The job group's name. */
  group?: string;
}

/** A job finished applying wave `wave` at commit `head` (SPEC.md §4.11). */
export interface WaveOutcomeRecord extends RecordBase {
  /** Always `wave-outcome`. */
  kind: "wave-outcome";
  /** The wave's number. */
  wave: number;
  /** The commit the job ran at (full sha). */
  head: string;
  /** The decision's set digest. */
  digest: string;
  /** The decision applied. */
  decisionId: string;
  /** Which job of the wave. */
  job: OutcomeJob;
  /** How it ended. */
  outcome: WaveOutcome;
  /**
   * The wave's canary runs that failed in this job (SPEC.md §19): they stay
   * the canary at this commit, and one that plans no change on a retry has
   * not passed.
   */
  canaryFailed?: string[];
  /**
   * The rule that chose the job's base (SPEC.md §4.4): a decision made under a
   * trusted one (not `chain`) bounds the chain rule of later jobs.
   */
  baseRule?: BaseRule;
  /** The CI run, when known. */
  runId?: string;
  /**
   * Who started the CI job (SPEC.md §12.1): with `selfApproval: false` their
   * approval of this change does not count.
   */
  actor?: string;
}

/** Someone ran wave `wave` at `head` before the wave before it (`--out-of-order`). */
export interface OutOfOrderRecord extends RecordBase {
  /** Always `out-of-order`. */
  kind: "out-of-order";
  /** The wave's number. */
  wave: number;
  /** The commit it ran at (full sha). */
  head: string;
  /** Who ran it. */
  by: string;
  /** Why, as given. */
  reason: string;
  /** The CI run, when known. */
  runId?: string;
}

/** What a `waiting` job waits for until a time. */
export const WAIT_REASONS = ["soak", "freeze"] as const;

/** One of {@linkcode WAIT_REASONS}. */
export type WaitReason = typeof WAIT_REASONS[number];

/**
 * A job of wave `wave` at `head` stopped (exit 3) until a time: its soak
 * after the wave before (SPEC.md §19), or the end of a freeze window. Only a
 * hint for `resume`, which restarts the job it names once the time has come;
 * the restarted job judges the time again itself, so the record decides
 * nothing.
 */
export interface WaitingRecord extends RecordBase {
  /** Always `waiting`. */
  kind: "waiting";
  /** The wave's number. */
  wave: number;
  /** The commit the job ran at (full sha). */
  head: string;
  /** What it waits for. */
  why: WaitReason;
  /** When it may go, as the job saw it (ISO 8601). */
  until: string;
  /** The CI run, when known. */
  runId?: string;
  /** The CI job to restart then, when it ran in CI. */
  locator?: RunLocator;
}

/**
 * The gate `recorded-plans` records are kept under, beside a spec's wave gates
 * (which always end in `-wave-<k>`, so never collide with it).
 */
export const RECORDED_PLANS_GATE = "recorded-plans";

/** One wave's set digest as planned at a pull request's head. */
export interface RecordedWave {
  /** The wave's number. */
  wave: number;
  /** The wave's name. */
  name: string;
  /** Its gate, `<gate>-wave-<k>`. */
  gate: string;
  /** The set digest its plans had at the head. */
  digest: string;
}

/**
 * The plans of every wave at a pull request's head (`run --record-plans`,
 * SPEC.md §13), kept under the gate {@linkcode RECORDED_PLANS_GATE}: a review of
 * that head approves a wave only while the wave plans the same digest.
 */
export interface RecordedPlansRecord extends RecordBase {
  /** Always `recorded-plans`. */
  kind: "recorded-plans";
  /** The head commit planned (full sha). */
  head: string;
  /** Each wave's digest, in wave order. */
  waves: RecordedWave[];
  /** The CI run, when known. */
  runId?: string;
}

/** How many records `folded` summaries count, by kind (kinds not folded are absent). */
export type FoldedCounts = Partial<Record<RecordKind, number>>;

/**
 * What `chant-wave ledger compact` moved out of a gate's tip, and where it is
 * (docs/ledger.md, "Compacting the ledger"): one per gate, replacing the one before (whose counts it
 * carries on). It decides nothing; `ledger log` reads the folded records back
 * from `archive`.
 */
export interface FoldedRecord extends RecordBase {
  /** Always `folded`. */
  kind: "folded";
  /** The newest revoke of the gate when it was written: everything folded came before it. */
  through: string;
  /** Records folded so far, this summary's and the ones before it. */
  records: number;
  /** The same, by kind. */
  counts: FoldedCounts;
  /** Plan sets folded so far. */
  sets: number;
  /**
   * The ids of the newest folded approvals (at most 1000): a decision record
   * that names one was approved once, and revoked since.
   */
  approvals?: string[];
  /**
   * Where the folded records are: in the git ledger the commit of the branch
   * just before the fold (its tree holds them), in the directory ledger the
   * archive folder, relative to the ledger's root.
   */
  archive: string;
}

/** Any ledger record, discriminated by `kind`. */
export type LedgerRecord =
  | PendingRecord
  | ApprovalRecord
  | ExpiredRecord
  | ClaimRecord
  | RunOutcomeRecord
  | WaveOutcomeRecord
  | OutOfOrderRecord
  | WaitingRecord
  | RecordedPlansRecord
  | FoldedRecord;

/** The injected parts of a new record: its id and the time it is made. */
export interface RecordStamp {
  /** The record's id. */
  id: string;
  /** Milliseconds since the Unix epoch. */
  now: number;
}

/**
 * Stamps a new record: a 128-bit random id and the clock's time.
 * @param clock Tells the time.
 * @param random Where the id's bytes come from.
 * @default random webRandomBytes
 * @returns The stamp to pass to a record constructor.
 */
export function newStamp(
  clock: Pick<Clock, "now">,
  random: RandomBytes = webRandomBytes,
): RecordStamp {
  return { id: randomHex(16, random), now: clock.now() };
}

/** A record's own fields: all but those the constructors fill in. */
export type RecordFields<R extends LedgerRecord> = Omit<
  R,
  "version" | "kind" | "id" | "timestamp"
>;

/** The leading fields, in the order of SPEC.md §5.2: version, kind, id, name, gate. */
function head<K extends RecordKind>(
  kind: K,
  stamp: RecordStamp,
  fields: { name: string; gate: string },
) {
  return {
    version: 1 as const,
    kind,
    id: stamp.id,
    name: fields.name,
    gate: fields.gate,
  };
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Copies the optional string fields that are set, in the given order. */
function optional<T extends object>(
  fields: T,
  keys: readonly (keyof T)[],
): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) {
    if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out;
}

/**
 * Makes a `pending` record that stands for `ttlMs` from the stamp's time.
 * @param fields The record's own fields, without `expiresAt`.
 * @param ttlMs How long it stands, in milliseconds (`pendingTtl`).
 * @param stamp Its id and time.
 * @returns The record, fields in the order of SPEC.md §5.2.
 * @example
 * ```ts
 * pendingRecord({ name: "n", gate: "n-wave-1", planDigest: d, description: "",
 *   members: 2, base: sha }, 3_600_000, { id: "01", now: 0 }).expiresAt;
 * // "1970-01-01T01:00:00.000Z"
 * ```
 */
export function pendingRecord(
  fields: Omit<RecordFields<PendingRecord>, "expiresAt">,
  ttlMs: number,
  stamp: RecordStamp,
): PendingRecord {
  return {
    ...head("pending", stamp, fields),
    planDigest: fields.planDigest,
    description: fields.description,
    members: fields.members,
    base: fields.base,
    ...optional(fields, [
      "bases",
      "baseRule",
      "runId",
      "actor",
      "head",
      "spec",
      "wave",
      "locator",
    ]),
    timestamp: isoTime(stamp.now),
    expiresAt: isoTime(stamp.now + ttlMs),
  };
}

/**
 * Makes an `approval` record.
 * @param fields The record's own fields.
 * @param stamp Its id and time.
 * @returns The record.
 * @example
 * ```ts
 * approvalRecord({ name: "n", gate: "n-wave-1", planDigest: d, by: "ann" },
 *   { id: "01", now: 0 }).timestamp; // "1970-01-01T00:00:00.000Z"
 * ```
 */
export function approvalRecord(
  fields: RecordFields<ApprovalRecord>,
  stamp: RecordStamp,
): ApprovalRecord {
  return {
    ...head("approval", stamp, fields),
    planDigest: fields.planDigest,
    by: fields.by,
    ...optional(fields, ["note", "url", "via", "seal", "duringFreeze"]),
    timestamp: isoTime(stamp.now),
  };
}

/**
 * Makes an `expired` record (`chant-wave revoke`).
 * @param fields The gate, and optionally who revoked, a note and the approvals it ends.
 * @param stamp Its id and time.
 * @returns The record.
 * @example
 * ```ts
 * expiredRecord({ name: "n", gate: "n-wave-1" }, { id: "03", now: 0 }).kind;
 * // "expired"
 * ```
 */
export function expiredRecord(
  fields: RecordFields<ExpiredRecord>,
  stamp: RecordStamp,
): ExpiredRecord {
  return {
    ...head("expired", stamp, fields),
    ...optional(fields, ["by", "note", "approvals", "actionsThrough"]),
    timestamp: isoTime(stamp.now),
  };
}

/** The kinds {@linkcode newRecord} makes. */
type PlainKind = Exclude<RecordKind, "pending">;

/**
 * Makes a record of any kind but `pending` (which has {@linkcode pendingRecord}):
 * version, kind, id, name and gate first, then the given fields that are set, in
 * the order given, then the timestamp.
 * @param kind The kind.
 * @param fields The record's own fields.
 * @param stamp Its id and time.
 * @returns The record.
 * @example
 * ```ts
 * newRecord("claim", { name: "n", gate: "n-wave-1", approvalId: "a1",
 *   decisionId: "d1", runs: [] }, { id: "01", now: 0 }).kind; // "claim"
 * ```
 */
export function newRecord<K extends PlainKind>(
  kind: K,
  fields: RecordFields<Extract<LedgerRecord, { kind: K }>>,
  stamp: RecordStamp,
): Extract<LedgerRecord, { kind: K }> {
  const own = Object.fromEntries(
    Object.entries(fields).filter(([key, value]) =>
      key !== "name" && key !== "gate" && value !== undefined
    ),
  );
  return {
    ...head(kind, stamp, fields),
    ...own,
    timestamp: isoTime(stamp.now),
  } as unknown as Extract<LedgerRecord, { kind: K }>;
}

/**
 * Serialises a record as stored: pretty JSON (two spaces) and a final newline, so
 * records read well and diff well in the git ledger. URLs in its free-text and
 * link fields are masked (`maskingReplacer`, SPEC.md §14); fields that identify
 * something are kept as they are.
 * @param record The record.
 * @returns Its file text.
 * @example
 * ```ts
 * formatRecord(expiredRecord({ name: "n", gate: "g" }, { id: "a", now: 0 }));
 * // '{\n  "version": 1,\n  "id": "a", …\n}\n'
 * ```
 */
export function formatRecord(record: LedgerRecord): string {
  return JSON.stringify(record, maskingReplacer, 2) + "\n";
}
