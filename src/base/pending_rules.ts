/**
 * The question `status`, `show`, `approve` and `resume` ask of a waiting gate
 * (SPEC.md §5.3, §12, §12.1), answered as the waiting job would: the approval
 * rules it met, read again outside it (the spec its pending fact names, at
 * every base the fact records, the strictest winning; the signers files there;
 * the change up to the head it records, each commit fetched from the remote
 * when this checkout lacks it), and the gate decided for its plans under them.
 * Specs are read in git; a link or submodule on the spec path reads as a spec
 * that does not parse, and a spec that does not parse is read, as the job
 * read it, at the newest version before it that parses. An edge over git and the ledger;
 * judging is `gateRules`'s, deciding `decideGate`'s.
 * @module
 */

import type { Clock } from "../clock.ts";
import {
  type BaseSpec,
  baseSpecOf,
  type ParseSpecFn,
} from "../gate/base_spec.ts";
import type { ApprovalRules } from "../gate/approval_at_base.ts";
import { type RuleMember, rulesVerdictAtBase } from "../gate/plan_rules.ts";
import type { ApprovalConfirmer } from "../gate/confirm_approvals.ts";
import {
  decideGate,
  type GateDecision,
  type PlanSets,
} from "../gate/decide_gate.ts";
import type { GateRules } from "../gate/gate_tally.ts";
import type { LedgerRecord, PendingRecord, PlanPair } from "../gate/records.ts";
import type { Git } from "../git/git.ts";
import { fetchCommits } from "../git/git_transport.ts";
import { readTreeFile } from "../git/tree_file.ts";
import { shellLine } from "../shell_words.ts";
import { type GateJudge, gateRules } from "./gate_rules.ts";
import { newestValidVersion } from "./valid_version.ts";
import { InputError } from "../errors.ts";

/** The edges the rules are read through. */
export interface PendingRulesIo {
  git: Git;
  cwd: string;
  clock: Clock;
  /** The ledger the pending fact's plan set is read from. */
  ledger: {
    readPlanSet(
      name: string,
      gate: string,
      digest: string,
    ): Promise<PlanPair[] | undefined>;
  };
  /** Loads the spec parser (`parseSpec`) when a spec is read. */
  specParser(): Promise<ParseSpecFn>;
  /**
   * The remote a commit this checkout lacks is fetched from.
   * @default {"origin"}
   */
  remote?: string;
}

/** The rules of a pending fact, or why they could not be read here. */
export type PendingRules =
  | {
    status: "read";
    /** The judge of the gate's approvals (it logs nothing). */
    judge: GateJudge;
    /** The base commit (full sha). */
    base: string;
    /** The plans the pending fact waits for (empty without a plan set). */
    set: PlanPair[];
    /** The rules over the plans' changes that tightened the approvers (§18). */
    decided: string[];
  }
  | { status: "unread"; why: string };

/**
 * Reads the rules a pending fact's job was judged by.
 * @param pending The pending fact (it must name its spec and head).
 * @param io Git, the working directory, the clock, the ledger, the parser.
 * @param confirmer Confirms a forge gate's unsigned approvals (the approve
 *   command's own, provisionally); without one none of them counts, as nobody
 *   asked the forge here.
 * @returns The judge, base and plan set; or `unread` with the reason (no git
 *   repository here, a commit missing, no spec or head named).
 * @throws {GitError} When git fails unexpectedly.
 */
export async function pendingRules(
  pending: PendingRecord,
  io: PendingRulesIo,
  confirmer?: ApprovalConfirmer,
): Promise<PendingRules> {
  const unread = (why: string): PendingRules => ({ status: "unread", why });
  const path = pending.spec;
  if (path === undefined) return unread("the pending fact names no spec");
  if (pending.head === undefined) {
    return unread("the pending fact names no head");
  }
  const top = await io.git.topLevel(io.cwd);
  if (top === undefined) {
    return unread(`"${io.cwd}" is not in a git repository`);
  }
  const bases = pending.bases ?? [pending.base];
  const found = await waitingCommits(
    [
      { sha: pending.head, what: "the waiting job's HEAD" },
      ...bases.map((sha) => ({ sha, what: "the base commit" })),
    ],
    io.git,
    top,
    io.remote ?? DEFAULT_FETCH_REMOTE,
  );
  if ("why" in found) return unread(found.why);
  const [head, ...shas] = found.shas;
  const parse = await io.specParser();
  const specAt = async (sha: string): Promise<BaseSpec> => {
    const file = await readTreeFile(io.git, top, sha, path);
    if (file.status === "link" || file.status === "submodule") {
      return {
        status: "unparsable",
        problem: `"${file.at}" is a ${
          file.status === "link" ? "symbolic link" : "submodule"
        } at ${sha.slice(0, 12)}`,
      };
    }
    return baseSpecOf(
      file.status === "file" ? file.text : undefined,
      path,
      parse,
    );
  };
  const k = Number(/-wave-([1-9][0-9]*)$/.exec(pending.gate)?.[1] ?? 0);
  const atHead = await specAt(head);
  const wave = atHead.status === "parsed"
    ? atHead.spec.waves.find((w) => w.k === k)
    : undefined;
  const set = await io.ledger.readPlanSet(
    pending.name,
    pending.gate,
    pending.planDigest,
  ) ?? [];
  const targets = [...(wave?.runs ?? []), ...set].map((run) => run.target);
  const specs = [];
  for (const sha of shas) {
    const at = await readableVersion(sha, specAt, { git: io.git, top, path });
    if ("why" in at) return unread(at.why);
    specs.push(at);
  }
  const ref = wave ?? { k, name: "" };
  // The rules over the plans' changes (§18), judged on the plan set's: a
  // rule that matched tightened the approvers the job counted.
  const verdict = rulesVerdictAtBase(
    specs,
    ref,
    targets,
    "always",
    set as readonly RuleMember[],
  );
  const judge = gateRules(
    specs,
    ref,
    targets,
    { top, head, rules: verdict.approvers },
    { git: io.git, clock: io.clock, stderr: { write() {} } },
    confirmer,
  );
  const decided = verdict.decided.map((rule) => rule.description);
  return { status: "read", judge, base: shas[0], set, decided };
}

/**
 * The spec a base's rules are read from, as the job read them: at the base,
 * or, where it does not parse, at the newest version before it that parses
 * (or has no spec).
 */
async function readableVersion(
  sha: string,
  specAt: (sha: string) => Promise<BaseSpec>,
  at: { git: Git; top: string; path: string },
): Promise<{ sha: string; spec: BaseSpec } | { why: string }> {
  const spec = await specAt(sha);
  if (spec.status !== "unparsable") return { sha, spec };
  let found;
  try {
    found = await newestValidVersion(at.git, at.top, sha, at.path, specAt);
  } catch (error) {
    if (error instanceof InputError) return { why: error.message };
    throw error;
  }
  if (found.status === "none") return { sha, spec };
  return { sha: found.sha, spec: await specAt(found.sha) };
}

/** A pending fact's plans decided under the rules its job met. */
export interface PendingDecision {
  /** Always `read`. */
  status: "read";
  /** The base commit (full sha). */
  base: string;
  /** The rules at base. */
  rules: ApprovalRules;
  /** Each approval judged under them. */
  judged: GateRules;
  /** The plans the pending fact waits for (empty without a plan set). */
  set: PlanPair[];
  /** The gate decided for those plans (with `sets` and the pending fact's own). */
  decision: GateDecision;
  /** The rules over the plans' changes that tightened the approvers (§18). */
  decided: string[];
}

/** A pending fact's plans decided, or why the rules could not be read here. */
export type PendingAnswer = PendingDecision | { status: "unread"; why: string };

/**
 * Decides a pending fact's plans as its waiting job would (see the module).
 * @param pending The pending fact.
 * @param records The gate's records, oldest first.
 * @param sets The plan sets the caller read (the pending fact's is added
 *   when it has one).
 * @param io Git, the working directory, the clock, the ledger, the parser.
 * @param confirmer Confirms a forge gate's unsigned approvals, if anyone asks.
 * @returns The rules, verdicts and decision; or `unread` with the reason.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function decidePending(
  pending: PendingRecord,
  records: readonly LedgerRecord[],
  sets: PlanSets,
  io: PendingRulesIo,
  confirmer?: ApprovalConfirmer,
): Promise<PendingAnswer> {
  const read = await pendingRules(pending, io, confirmer);
  if (read.status === "unread") return read;
  const judged = await read.judge.judge(records, pending.planDigest);
  const withSet = new Map(sets);
  if (read.set.length > 0) withSet.set(pending.planDigest, read.set);
  const decision = decideGate(
    records,
    withSet,
    {
      gate: pending.gate,
      digest: pending.planDigest,
      members: read.set,
      now: io.clock.now(),
      rules: judged,
    },
  );
  return {
    status: "read",
    base: read.base,
    rules: read.judge.rules,
    judged,
    set: read.set,
    decision,
    decided: read.decided,
  };
}

/** The remote a missing commit is fetched from when none is named. */
export const DEFAULT_FETCH_REMOTE = "origin";

/** A full commit sha, the only thing ever passed to `git fetch`. */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Finds the waiting job's HEAD and bases in this checkout, fetching those it
 * lacks from `remote` first, so `approve`, `show` and `status` never judge at
 * another commit than the job.
 * @param named The head and the bases, each with what it is to the job.
 * @param git The git seam.
 * @param top The work tree's top level.
 * @param remote The remote to fetch from.
 * @returns The full shas in order, or why a commit is missing (and the
 *   command that fetches it).
 * @throws {GitError} When git fails unexpectedly.
 */
async function waitingCommits(
  named: readonly Commit[],
  git: Git,
  top: string,
  remote: string,
): Promise<{ shas: string[] } | { why: string }> {
  const lacking = await lackingOf(named, git, top);
  if (lacking.length > 0) {
    const why = await fetchLacking(lacking, git, top, remote);
    if (why !== undefined) return { why };
  }
  const shas = [];
  for (const { sha } of named) shas.push((await git.resolveCommit(sha, top))!);
  return { shas };
}

/** A commit the pending fact names, and what it is to the waiting job. */
interface Commit {
  sha: string;
  what: string;
}

/** The commits this checkout does not have. */
async function lackingOf(
  commits: readonly Commit[],
  git: Git,
  top: string,
): Promise<Commit[]> {
  const lacking = [];
  for (const commit of commits) {
    if (await git.resolveCommit(commit.sha, top) === undefined) {
      lacking.push(commit);
    }
  }
  return lacking;
}

/** Fetches the lacking commits; the reason when some are still missing. */
async function fetchLacking(
  lacking: readonly Commit[],
  git: Git,
  top: string,
  remote: string,
): Promise<string | undefined> {
  const first = lacking[0];
  const missing = `${first.what} ${
    first.sha.slice(0, 12)
  } is not in this checkout`;
  // What the ledger says is checked before git sees it as an argument.
  if (!lacking.every((c) => FULL_SHA.test(c.sha))) return missing;
  const shas = lacking.map((c) => c.sha);
  const command = shellLine(["git", "fetch", remote, ...shas]);
  const remotes = (await git.run(["remote"], { cwd: top })).split("\n");
  if (!remotes.includes(remote)) {
    return `${missing}, which has no remote "${remote}" to fetch it from; fetch it (${command}) and run this again`;
  }
  const fetched = await fetchCommits(git, top, remote, shas);
  const still = await lackingOf(lacking, git, top);
  if (still.length === 0) return undefined;
  return `${still[0].what} ${
    still[0].sha.slice(0, 12)
  } is not in this checkout, and fetching it from "${remote}" failed${
    fetched.ok ? "" : ` (${fetched.detail})`
  }; fetch it (${command}) and run this again`;
}
