/**
 * The help topics `chant-wave help <topic>` prints (exit codes, the spec, the
 * base, approvals and the ledger, the environment), and the hint that points a
 * message at one, so messages cite something a user of the binary has. Pure
 * text; `help_command.ts` prints it, ending with the topic's docs page
 * (`help_pages.ts`).
 * @module
 */

/** The topic names, in the order `chant-wave help` lists them. */
export const HELP_TOPICS = [
  "exit-codes",
  "spec",
  "base",
  "approvals",
  "environment",
] as const;

/** One of {@linkcode HELP_TOPICS}. */
export type HelpTopic = typeof HELP_TOPICS[number];

/** A topic's one-line summary (for the overview) and its text. */
export interface TopicText {
  /** One line for the list of topics. */
  summary: string;
  /** The lines `chant-wave help <topic>` prints. */
  lines: readonly string[];
}

const EXIT_CODES: TopicText = {
  summary: "what each exit code means and what to do next",
  lines: [
    "Every command ends with one of these codes:",
    "",
    "  0    done: applied, or decided (--decide) and free to apply, or nothing to do",
    "  1    a run failed: a plan or apply command exited non-zero, timed out or",
    "       wrote a bad plan file (the message carries its last lines); also an",
    "       internal error (CHANT_WAVE_DEBUG=1 prints its stack), and",
    "       pipeline --check when the files on disk differ from the rendering",
    "  2    invalid input: bad flags, a spec that fails validation, a missing file,",
    "       a base commit the checkout lacks, a missing decision, an unknown wave,",
    "       share or group; the one-line error names what to fix",
    "  3    waiting, and nothing in the wave ran: for an approval that does not",
    '       stand (run the "then approve:" command the job printed), for the wave',
    "       before to apply this commit (the order: run it first, or pass",
    '       --out-of-order "<reason>"), or on a hold (approve, or apply, the gate it',
    "       names); then run the job again",
    "  4    a share or group job refused runs whose plan moved since the wave was",
    "       decided, or an apply refused a target that moved since its plan (a",
    "       sqitch database); the others applied: run the deciding job again and",
    "       approve its new plans",
    "  5    drift only: a run of a wave that applied the revision plans changes",
    "       now, or differs from the rest of its wave; see its table (drift",
    "       --record records the plans for an approval)",
    "  130  interrupted by SIGINT; 143 stopped by SIGTERM: children were stopped",
    "       and nothing was half-written",
    "",
    "With --json, a command that fails before it has a result prints",
    '{ "exitCode": <code>, "error": "<message>" } on stdout.',
  ],
};

const SPEC: TopicText = {
  summary: "the waves file: its fields and defaults",
  lines: [
    "The spec is JSON or JSONC (comments and trailing commas allowed), any file",
    'name. "chant-wave check --spec F" reports every problem at once, each as',
    '<file>:<line>:<col>: <where>: <what>; "chant-wave schema" prints its JSON',
    "Schema for editors.",
    "",
    "Top level:",
    "  name        the rollout's name (a-z, 0-9, - and _); gates are kept under it",
    "  plan        argv template that plans one run and writes the plan file {plan}",
    "  apply       argv template that applies one run whose plan is at {plan}",
    '  tool        { "kind": "opentofu"|"terraform", "dir", "binary"?, "args"? }',
    '              or { "kind": "sqitch", "dir", "target", "binary"?, "client"?,',
    '              "verify"? } in place of plan and apply (sqitch\'s binary,',
    "              client and verify are read at base)",
    '  destructiveOverrides   "ignore" (default) or "honour": whether a',
    '              "-- chant-wave: not destructive" line in a sqitch deploy',
    "              script counts; read at base, per wave or top level",
    "  planWave, applyWave   one command for all the job's runs ({runs}, {plans})",
    "  waves       the waves, in order (below)",
    "  op          fills {op} (default: name)",
    "  gate        gate prefix (default: name): wave k's gate is <gate>-wave-<k>",
    '  base        where the gate policy is read (see "chant-wave help base")',
    '  ledger      where the gate ledger is: "git", "git:REMOTE" or a directory',
    "              (--ledger, $CHANT_WAVE_LEDGER override it; run reads it at base)",
    "  parallel    runs planned or applied at once in one job (default 1)",
    '  onFailure   "continue": after a failed apply, apply the job\'s other runs;',
    '              "stop": start no further apply (they are reported untried).',
    "              Default: stop when a run the job applies has a destructive",
    "              plan, else continue. Either way the job exits 1",
    "  timeout     a plan or apply command running longer is stopped and fails",
    "  heartbeat   a quiet step prints a still-running line this often (default 60s)",
    "  pendingTtl  how long a waiting wave's pending fact stands (default 48h):",
    '              meanwhile re-runs add none, "approve" without --plan approves',
    "              it and status shows it; an approval itself never expires",
    "  branches, runner, pipeline   settings of the generated pipelines",
    "  notify      webhook events (the names of the environment variables)",
    '  approval    "ledger" (default), "forge" (approvals the forge confirms in',
    "              the job, e.g. the merged pull request's review, or sealed ones;",
    '              "pr-review" is read as it) or "sealed" (only approvals signed by',
    "              a key listed in the signers file at base)",
    "  signers     the allowed-signers file (default .chant-wave/allowed_signers)",
    "  approvers   { required (default 1), allowed (patterns), selfApproval }",
    "  hooks       commands { name, run } and holds { name, after: { name, gate,",
    '              applied? } } at "before-plan", "after-plan", "before-apply",',
    '              "after-apply"; holds are also read at the base commit',
    "  soak        wave k applies a revision only once wave k-1 applied it that",
    '              long ago ("2h"); read at base, per wave or top level',
    "  freeze      windows [{ from, to } | { days, hours? }, timezone?, reason?]",
    "              in which a wave applies nothing without an approval given with",
    "              --during-freeze; read at base, a wave's beside the top level's",
    "  canary      apply a wave's first N runs first, the rest once they applied;",
    "              read at base, per wave or top level",
    "",
    "A wave: name, runs (targets, or { target, op }), gate (always, on-destructive",
    "or never; read at the base commit), shares, jobs (groups of runs by pattern),",
    "parallel, onFailure and timeout (override the top level), environment,",
    "variables, runner, idTokens, discover, approval and approvers (override the",
    "top level; read at the base commit), soak, freeze and canary (read at the",
    "base commit), hooks (replace the top level's), rest",
    "(the last wave only: it stands for every further wave).",
    "",
    "Argv templates run without a shell; placeholders {op}, {target}, {wave}, {k},",
    "{plan}, and {runs}, {plans} for planWave and applyWave; hook commands get",
    "{op}, {wave}, {k}, {runs}, and {plans} from after-plan on. An apply that exits",
    "75 asks for the wave to be planned again (at most 10 times).",
    "Durations: 90s, 15m, 2h, 1h30m, or 0 (off).",
  ],
};

const BASE: TopicText = {
  summary: "where the gate policy is read, and why",
  lines: [
    "A change cannot loosen the gate that guards it: each wave's gate policy",
    "(always, on-destructive, never) is read from the spec as it was at the base",
    "commit, looked up by the wave's name. A wave that is new or renamed there,",
    "or a spec missing there, means always. A spec that does not parse there is",
    "read at the newest version before it that parses (if none: always).",
    "",
    "The base is, in order:",
    "  --base REV             as the generated pipelines may pass it",
    '  the spec\'s "base"      as the spec said before the push; it must be an',
    "                         ancestor of HEAD",
    "  the commit before the push, when CI's push event names it",
    "  otherwise (a manual run, a new branch, a force push, outside CI): every",
    "  version of the spec and signers files on the first-parent chain from",
    "  HEAD^1 back to the last decision made under a trusted base (in CI, one",
    "  on the default branch), the",
    "  strictest of each rule winning",
    "With one of the first three, the rules are also read at the newest commit",
    "the ledger records a trusted decision at (when an ancestor of HEAD): a",
    "commit pushed where no job ran ([skip ci]) is still part of the change.",
    "",
    "The spec's path is read in git: a spec that is, or lies under, a symbolic",
    "link or a submodule is exit 2, and a job runs HEAD's committed copy.",
    "",
    "The job's log names the base it used. A checkout that lacks the base commit",
    'is exit 2: fetch the full history (fetch-depth: 0, GIT_DEPTH: "0").',
  ],
};

const APPROVALS: TopicText = {
  summary: "gates, approvals, and the ledger that keeps them",
  lines: [
    "Wave k's gate is <gate>-wave-<k>. When its policy (read at the base commit)",
    "is always, or on-destructive and a plan is destructive, the wave waits",
    '(exit 3) and prints "then approve: chant-wave approve NAME GATE --plan …".',
    "An approval counts for exactly that set of plans (its set digest): a job",
    "whose fresh plans differ refuses it. It counts until a revoke, or until a",
    "decision applies under it.",
    "",
    "The ledger keeps one immutable JSON file per record: pending, approval,",
    "applied and expired (a revoke). --ledger L, else $CHANT_WAVE_LEDGER, else the",
    'spec\'s "ledger" (for run: as it was at base), chooses it:',
    "",
    "  .chant/ledger (default)   a directory, for local runs and single runners",
    "  DIR                       another directory",
    "  git                       the branch chant/ledger, shared through origin",
    "  git:REMOTE                the branch chant/ledger of another remote",
    "",
    "Every job of a generated pipeline runs with the spec's ledger (else --ledger",
    'git): approve with the same, or set "ledger" in the spec so every command',
    "finds it; the commands chant-wave prints carry it.",
    "",
    'On a "ledger" gate an approver is whoever --by names. A "sealed" gate counts',
    "an approval only when approve --sign signed it with a key that the signers",
    'file lists for that approver at the base commit. A "forge" gate counts a',
    "sealed approval, or one whose action (the merged pull request's review) the",
    "forge's API confirms in the job; any other record is reported and ignored.",
    "approvers (read at base too) may require N distinct approvers, only allowed",
    "ones, and none of the change's authors, committers or CI actor; the waiting",
    "job says who counted.",
    "",
    "  chant-wave approve NAME GATE [--plan D]  record an approval (--sign: seal it)",
    "  chant-wave revoke NAME GATE              clear approvals and pending facts",
    "  chant-wave status --spec F               each wave's pending plan, approvals",
    "  chant-wave ledger log [NAME [GATE]]      the records, newest last",
    "  chant-wave resume                        restart the jobs of approved gates",
  ],
};

const ENVIRONMENT: TopicText = {
  summary: "the environment variables chant-wave reads",
  lines: [
    "  CHANT_WAVE_LEDGER    the ledger when --ledger is not given",
    "  CHANT_WAVE_DEBUG=1   a stack trace on internal errors",
    "  NO_COLOR             any non-empty value: no colour (colour is only ever",
    "                       used on a terminal, never with TERM=dumb)",
    "  GITHUB_ACTIONS, GITLAB_CI, FORGEJO_ACTIONS   the CI system: the run id, the",
    "                       approver (GITHUB_ACTOR, GITLAB_USER_LOGIN), the commit",
    "                       before the push, the job summary, and the CI job a",
    "                       waiting wave records for chant-wave resume",
    "  CHANT_WAVE_FORGE_TOKEN, else GITHUB_TOKEN or GH_TOKEN (GitHub, Forgejo), else",
    "  GITLAB_TOKEN         the forge token of resume and review approvals",
    "  GITHUB_API_URL, CI_API_V4_URL, GITHUB_SERVER_URL   where the forge's API is",
    "",
    "Plan and apply commands get CHANT_WAVE_NAME, CHANT_WAVE_K, CHANT_WAVE_TARGET,",
    "CHANT_WAVE_OP, CHANT_WAVE_PLAN and CHANT_WAVE_PHASE.",
  ],
};

const TOPICS: Record<HelpTopic, TopicText> = {
  "exit-codes": EXIT_CODES,
  spec: SPEC,
  base: BASE,
  approvals: APPROVALS,
  environment: ENVIRONMENT,
};

/**
 * The text of a help topic.
 * @param topic The topic.
 * @returns Its summary and lines.
 * @example
 * ```ts
 * topicText("exit-codes").summary; // "what each exit code means and what to do next"
 * ```
 */
export function topicText(topic: HelpTopic): TopicText {
  return TOPICS[topic];
}

/**
 * Whether a word names a help topic.
 * @param word Any word.
 * @returns `true` for one of {@linkcode HELP_TOPICS}.
 * @example
 * ```ts
 * isHelpTopic("approvals"); // true
 * ```
 */
export function isHelpTopic(word: string): word is HelpTopic {
  return (HELP_TOPICS as readonly string[]).includes(word);
}

/**
 * The hint a message ends with to point at a topic.
 * @param topic The topic.
 * @returns `see "chant-wave help <topic>"`.
 * @example
 * ```ts
 * seeHelp("base"); // 'see "chant-wave help base"'
 * ```
 */
export function seeHelp(topic: HelpTopic): string {
  return `see "chant-wave help ${topic}"`;
}
