/**
 * A share or group job trusts no artifact (SPEC.md §4.4, last paragraph): the
 * decision record arrives from the deciding job as a CI artifact, so before a
 * share job applies anything it re-derives what the record claims. The members
 * must hash to the record's digest, the record's base must be a strict ancestor
 * of HEAD (every other base it names must at least be a commit here), the
 * policy is read again at those bases and at the job's own (the strictest
 * wins), and when that policy needs an approval, the record must name
 * one that the ledger holds, and the ledger itself must approve its plans under
 * the approver rules read at those bases: the tally is counted and every seal
 * verified again, never taken from the record (approvals revoked since are not
 * a forgery: the job then waits). Any mismatch is exit 2. That read of the gate
 * (on the records the chain rule read for the job's base, when it read them)
 * is the job's one read before it claims: the gate it decides is passed on to
 * the claim stage, not read again.
 * The record is read first as any input that travelled: a regular file under
 * `.chant/waves` reached without symbolic links, at most 64 MiB, of the right
 * form and for this spec and wave. Its hooks are checked too (§11): the
 * recorded commands must be exactly the working copy's, so an artifact can
 * neither bring a command from outside the repository nor drop one, and every
 * hold the job derives itself (the working copy's, and those of the base waves
 * that govern the wave) must be in it, since holds are policy.
 * @module
 */

import { rulesStage } from "./rules_stage.ts";
import { lineLog } from "../console/line_log.ts";
import { setDigest } from "../digest/set_digest.ts";
import { InputError } from "../errors.ts";
import { isStrictAncestor } from "../git/git_plumbing.ts";
import {
  type ApprovalNeed,
  needsApproval,
  type PolicyAtBase,
  wavePolicy,
  wavePolicyLines,
} from "../gate/policy_at_base.ts";
import type { Hooks, Wave } from "../spec/types.ts";
import { decideGate, type GateDecision } from "../gate/decide_gate.ts";
import type { LedgerRecord } from "../gate/records.ts";
import { jobGateJudge } from "./wave_job.ts";
import { gateName } from "../gate/gate_messages.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import { type GateRead, loadPlanSets, readGate } from "../ledger/read_gate.ts";
import { type Decision, parseDecision } from "../gate/decision.ts";
import { type JobBase, withNamedBases } from "./job_base.ts";
import type { RunIo } from "./run_io.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { MAX_DECISION_BYTES } from "../limits.ts";
import { ShapeError } from "../input/shape_error.ts";

/**
 * Reads and parses the decision record of `wave`.
 * @param name The spec's `name`.
 * @param wave The wave.
 * @param cwd The working directory.
 * @returns The decision and its path (relative, as printed).
 * @throws {InputError} Exit 2 when it is missing ("run the deciding job first"),
 *   reached through a link, not a regular file, too large, malformed, or for
 *   another spec or wave.
 */
export async function readDecision(
  name: string,
  wave: Wave,
  cwd: string,
): Promise<{ decision: Decision; path: string }> {
  const path = decisionRecordPath(name, wave.k);
  refuseLinks(cwd, path.split("/").slice(0, -1), ".chant/waves");
  let text: string;
  try {
    text = await readBounded(resolve(cwd, path), {
      maxBytes: MAX_DECISION_BYTES,
    });
  } catch (error) {
    if (error instanceof BoundedReadError) {
      throw new InputError(`cannot read the decision ${error.message}`);
    }
    throw new InputError(
      `no decision for wave ${wave.k} "${wave.name}" at "${path}": run the deciding job first`,
    );
  }
  let decision: Decision;
  try {
    decision = parseDecision(text);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new InputError(
      `cannot read the decision "${path}": ${
        error.field ? "" : "it "
      }${error.message}`,
    );
  }
  if (decision.name !== name || decision.wave !== wave.k) {
    throw new InputError(
      `the decision "${path}" is for wave ${decision.wave} of "${decision.name}", not wave ${wave.k} of "${name}"`,
    );
  }
  return { decision, path };
}
import { recordedHooksProblem } from "../hooks/check_recorded_hooks.ts";
import { holdsAtBase, withHolds } from "../hooks/wave_holds.ts";
import { waveCommands } from "../hooks/commands_at_base.ts";
import type { Command } from "../spec/command_types.ts";
import { parseHooks } from "../spec/parse_hooks.ts";

/** What a share job may do under a decision it checked. */
export interface VerifiedDecision {
  /** The bases the rules were read at: the job's own and the record's. */
  bases: PolicyBase[];
  /** The policy re-read at base. */
  policy: PolicyAtBase;
  /** Whether the decided members need an approval under it. */
  need: ApprovalNeed;
  /** Judges the gate's approvals under the rules read at the same bases. */
  judge: GateJudge;
  /**
   * The gate as read and decided for the decision, when it needs an approval:
   * its records (every one, as of now) and whether it stands approved (it may
   * not, when an approval was revoked since; the claim stage then waits).
   */
  gate?: GateRead;
}

/** What is checked: the record, where it was read, and the job. */
export interface VerifyInput {
  decision: Decision;
  /** The record's path, for messages. */
  path: string;
  /** The spec's `name` and `gate` prefix (the working copy's). */
  spec: { name: string; gate: string };
  wave: Wave;
  /** The job's own base, and the gates' records read to find it. */
  base: JobBase;
  /**
   * Whether a forge gate's approvals may be confirmed through the forge (not
   * in a dry run).
   * @default {true}
   */
  ask?: boolean;
}

function mismatch(path: string, what: string, detail?: string): InputError {
  return new InputError(
    `the decision record ${path} does not match ${what}; run the deciding job again`,
    detail ? [detail] : [],
  );
}

/**
 * Checks a decision record against the spec at base and the ledger.
 * @param input The record, its path, the spec's name and gate, the wave and the base.
 * @param io The edges (git, the ledger, the log).
 * @returns The bases, the policy, whether an approval is needed, the judge,
 *   and the gate as read when one is.
 * @throws {InputError} Exit 2 when the record does not match its members, the
 *   history, the policy at base or the ledger.
 */
export async function verifyDecision(
  input: VerifyInput,
  io: RunIo,
): Promise<VerifiedDecision> {
  const { decision, path, base, wave } = input;
  const gate = gateName(input.spec, wave.k);
  const bases = await checkRecord(input, gate, io);
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const atBase = wavePolicy(bases, wave, targets);
  for (const line of wavePolicyLines(atBase, wave)) lineLog(io.stderr)(line);
  const { policy, approvers } = rulesStage(
    bases,
    wave,
    targets,
    atBase,
    decision.members,
    io.stderr,
  );
  const need = needsApproval(policy.policy, decision.members);
  const { judge } = jobGateJudge({
    name: input.spec.name,
    gate,
    wave,
    bases,
    targets,
    base,
    ask: input.ask ?? true,
    policySaid: true,
    rules: approvers,
  }, io);
  if (!need.needed) return { bases, policy, need, judge };
  if (decision.status !== "approved") {
    throw mismatch(
      path,
      `the policy at ${base.sha.slice(0, 12)}`,
      `it says "${decision.status}", but ${need.why}`,
    );
  }
  const read = await checkLedger(input, gate, judge, io);
  return { bases, policy, need, judge, gate: read };
}

/**
 * Checks what the record says of itself: its gate, that its members hash to
 * its digest, that its base is a strict ancestor of HEAD and every base it
 * names a commit of this checkout.
 * @returns The bases to read the rules at: the job's own and the record's.
 */
async function checkRecord(
  input: VerifyInput,
  gate: string,
  io: RunIo,
): Promise<PolicyBase[]> {
  const { decision, path, base } = input;
  if (decision.gate !== gate) {
    throw mismatch(path, `the gate "${gate}"`);
  }
  let digest: string;
  try {
    digest = setDigest(decision.members);
  } catch (error) {
    throw mismatch(path, "its members", (error as Error).message);
  }
  if (digest !== decision.digest) {
    throw mismatch(path, "its members", `they hash to ${digest}`);
  }
  const recordBase = await io.git.resolveCommit(decision.base, base.top);
  if (
    recordBase === undefined ||
    !await isStrictAncestor(io.git, base.top, recordBase, base.head)
  ) {
    throw mismatch(
      path,
      `the history`,
      `its base ${decision.base.slice(0, 12)} is not an ancestor of HEAD`,
    );
  }
  const named = await withNamedBases(
    base,
    [recordBase, ...(decision.bases ?? [])],
    io,
  );
  if ("missing" in named) {
    throw mismatch(
      path,
      `the history`,
      `its base ${named.missing.slice(0, 12)} is not in this checkout`,
    );
  }
  return named.bases;
}

/**
 * Reads the gate, the job's one read of it before it claims, and checks that
 * the ledger holds the approval the record names and approves its plans (or
 * did before a revoke).
 * @returns The gate as read.
 */
async function checkLedger(
  input: VerifyInput,
  gate: string,
  judge: GateJudge,
  io: RunIo,
): Promise<GateRead> {
  const { decision, path, base } = input;
  // The gate's records as the chain rule read them for this job, if it did:
  // every one, before any command of the change ran, as this check needs.
  const recorded = base.gateRecords.get(gate);
  const query = {
    digest: decision.digest,
    members: decision.members,
    judge,
    whole: true,
    wave: input.wave.name,
    ...(recorded ? { records: recorded } : {}),
  };
  const read = await readGate(input.spec.name, gate, query, io);
  const { records, decision: gateNow } = read;
  const approval = records.find((record) =>
    record.kind === "approval" && record.id === decision.approvalId
  );
  // An approval a revoke ended may be folded away (`ledger compact`): its
  // summary names it, and the job goes on to find the gate revoked.
  const folded = records.some((record) =>
    record.kind === "folded" &&
    record.approvals?.includes(decision.approvalId ?? "")
  );
  if (folded) return read;
  if (!approval) {
    throw mismatch(
      path,
      "the ledger",
      `${io.ledger.describe()} holds no approval ${
        decision.approvalId ?? "(none named)"
      }`,
    );
  }
  if (
    gateNow.status === "waiting" &&
    (await ignoringRevokes(records, { ...query, gate }, input, io)).status ===
      "waiting"
  ) {
    throw mismatch(
      path,
      "the ledger",
      `the ledger does not approve its plans: ${gateNow.reasons[0]}`,
    );
  }
  return read;
}

/**
 * Decides the gate as if nothing had been revoked: a decision the ledger
 * approved before a revoke is no forgery (its job then waits).
 */
async function ignoringRevokes(
  records: readonly LedgerRecord[],
  query: {
    gate: string;
    digest: string;
    members: Decision["members"];
    judge: GateJudge;
  },
  input: VerifyInput,
  io: RunIo,
): Promise<GateDecision> {
  const unrevoked = records.filter((record) => record.kind !== "expired");
  const sets = await loadPlanSets(
    io.ledger,
    input.spec.name,
    query.gate,
    unrevoked,
  );
  return decideGate(unrevoked, sets, {
    gate: query.gate,
    digest: query.digest,
    members: query.members,
    now: io.clock.now(),
    rules: await query.judge.judge(unrevoked, query.digest),
  });
}

/**
 * Checks a decision record's hooks and returns them.
 * @param input The record (already checked by `verifyDecision`), its path, the
 *   wave, and the bases the job reads the rules at (its own and the record's).
 * @returns The hooks the job runs: the record's.
 * @throws {InputError} Exit 2 when the record's hooks fall short.
 */
export function verifyHooks(input: {
  decision: Decision;
  path: string;
  wave: Wave;
  plan: Command;
  bases: readonly PolicyBase[];
}): Hooks {
  const { decision, path, wave, bases } = input;
  const recorded = decision.hooks ?? parseHooks();
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const own = waveCommands(input.plan, wave.hooks, bases, ref).hooks;
  const expected = withHolds(own, holdsAtBase(bases, ref)).hooks;
  const problem = recordedHooksProblem(recorded, expected);
  if (problem === undefined) return recorded;
  const shas = bases.map((b) => b.sha.slice(0, 12)).join(" and ");
  throw new InputError(
    `the decision record ${path} does not match the spec's hooks and the holds at ${shas}; run the deciding job again`,
    [problem],
  );
}
