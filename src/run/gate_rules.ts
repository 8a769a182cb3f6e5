/**
 * The stage that reads a wave's approval rules at base (SPEC.md §12, §12.1) and
 * judges a gate's approvals under them: the mode, signers file and approver
 * rules of the governing base waves, logged once
 * (`approval of wave <k> "<name>": sealed by <path> (read at …)`,
 * `approvers of wave <k> "<name>": 2 distinct approvers, … (read at …)`), the
 * signers files read at base and the change's authors and committers read from
 * git on first use, each approval's seal verified in-process, and on a `forge`
 * gate each unsigned approval confirmed through the forge by the job's
 * confirmer. The working copy's spec and signers file change nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { type ChangePeople, changePeople } from "../git/change_people.ts";
import { countingApprovals } from "../ledger/decide_gate.ts";
import type { GateRules } from "../ledger/gate_tally.ts";
import type { LedgerRecord } from "../ledger/records.ts";
import {
  approvalAtBase,
  type ApprovalRules,
  describeApprovers,
  describeMode,
  strictestRules,
} from "../policy/approval_at_base.ts";
import type { BaseSpec } from "../policy/base_spec.ts";
import { judgeApprovals } from "../policy/judge_approvals.ts";
import { readSignersAt, type SignersAtBase } from "../policy/read_signers.ts";
import type { ApprovalConfirmer } from "../review/confirm_approvals.ts";
import type { Wave } from "../spec/types.ts";
import type { RunIo } from "./run_io.ts";

/** A wave's approval rules at base, and the judge of its gate's approvals. */
export interface GateJudge {
  /** The rules read at base (the strictest over every base given). */
  readonly rules: ApprovalRules;
  /**
   * Judges the counting approvals of a gate's records under the rules. The first
   * call logs the rules and reads the signers files and the change's history.
   * @param records The gate's records, oldest first.
   * @param digest The decision's set digest (its waiting jobs' CI actors are
   *   the change's own).
   * @returns The rules for `decideGate`.
   * @throws {GitError} When git fails reading the base or the change.
   */
  judge(records: readonly LedgerRecord[], digest: string): Promise<GateRules>;
}

/** The commits the rules are read at, and where the change ends. */
export interface RulesContext {
  /** The repository's top level. */
  top: string;
  /** HEAD's full sha: the change is `base..HEAD` for each base. */
  head: string;
}

/**
 * Reads a wave's approval rules at one or more bases (the strictest wins) for
 * every target it holds, and returns the judge of its gate. Nothing is read or
 * logged until the gate is first judged, so a wave that needs no approval
 * prints no rule.
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave.
 * @param targets Every target the wave holds in this job (declared and planned).
 * @param context The repository and HEAD.
 * @param io The edges.
 * @param confirmer Confirms a forge gate's unsigned approvals through the
 *   forge in this job; without one (outside CI jobs) none of them counts.
 * @returns The judge.
 */
export function gateRules(
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: Pick<Wave, "k" | "name">,
  targets: Iterable<string>,
  context: RulesContext,
  io: Pick<RunIo, "git" | "stderr" | "clock">,
  confirmer?: ApprovalConfirmer,
): GateJudge {
  const ref = { k: wave.k, name: wave.name, targets: [...new Set(targets)] };
  const rules = strictestRules(bases.map((base) => approvalAtBase(base, ref)));
  let read:
    | Promise<{ signers: SignersAtBase[]; people: ChangePeople }>
    | undefined;
  const readOnce = () =>
    read ??= readWhatRulesNeed(rules, bases, wave, context, io);
  return {
    rules,
    async judge(records, digest) {
      const { signers, people } = await readOnce();
      const approvals = countingApprovals(records);
      const confirmed = rules.mode === "forge" && confirmer
        ? await confirmer.confirm(
          approvals.filter((approval) => approval.seal === undefined),
          digest,
        )
        : undefined;
      return await judgeApprovals(approvals, {
        rules,
        signers,
        people,
        actors: waitingActors(records, digest, approvals),
        now: io.clock.now(),
        ...(confirmed ? { confirmed } : {}),
      });
    },
  };
}

/** Logs the rules, then reads the signers files and the change's people. */
async function readWhatRulesNeed(
  rules: ApprovalRules,
  bases: readonly { sha: string }[],
  wave: Pick<Wave, "k" | "name">,
  context: RulesContext,
  io: Pick<RunIo, "git" | "stderr">,
): Promise<{ signers: SignersAtBase[]; people: ChangePeople }> {
  const log = lineLog(io.stderr);
  const of = `of wave ${wave.k} "${wave.name}"`;
  log(`approval ${of}: ${describeMode(rules)} (${rules.reason})`);
  log(`approvers ${of}: ${describeApprovers(rules)} (${rules.reason})`);
  const signers: SignersAtBase[] = [];
  for (const ref of rules.signers) {
    const file = await readSignersAt(io.git, context.top, ref);
    const where = `${ref.path} at ${ref.sha.slice(0, 12)}`;
    if (file.status === "missing") {
      // A forge gate without a signers file simply counts no seal.
      if (rules.mode === "sealed") log(`warning: ${file.why}`);
    } else {
      for (const problem of file.file.problems) {
        log(
          `warning: ${where}: line ${problem.line} left out: ${problem.message}`,
        );
      }
    }
    signers.push(file);
  }
  if (rules.selfApproval) {
    return { signers, people: { status: "known", people: [] } };
  }
  const people: ChangePeople = { status: "known", people: [] };
  for (const base of new Set(bases.map((b) => b.sha))) {
    const found = await changePeople(io.git, context.top, {
      base,
      head: context.head,
    });
    if (found.status === "too-long") return { signers, people: found };
    people.people.push(...found.people);
  }
  return { signers, people };
}

/**
 * The CI actors of the jobs that waited for these plans: those recorded on any
 * pending fact of the decision's digest or of a digest an approval names.
 */
function waitingActors(
  records: readonly LedgerRecord[],
  digest: string,
  approvals: readonly { planDigest: string }[],
): string[] {
  const digests = new Set([digest, ...approvals.map((a) => a.planDigest)]);
  const actors = new Set<string>();
  for (const record of records) {
    if (
      record.kind === "pending" && record.actor !== undefined &&
      digests.has(record.planDigest)
    ) actors.add(record.actor);
  }
  return [...actors];
}
