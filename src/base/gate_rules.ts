/**
 * Reads a wave's approval rules at base (SPEC.md §12, §12.1) and judges a
 * gate's approvals under them: the mode, signers file and approver
 * rules of the governing base waves, logged once
 * (`approval of wave <k> "<name>": sealed by <path> (read at …)`, or
 * `(read as the policy above)` after the policy line of the same reads;
 * `approvers of wave <k> "<name>": 2 distinct approvers, … (read as the
 * approval above)`), the
 * signers files read at base and the change's commits, authors and committers
 * read from git on first use, the CI actors of the jobs that ran the change
 * (this job's own, and those its pending facts and wave outcomes record), each
 * approval's seal verified in-process, and on a `forge` gate each unsigned
 * approval confirmed through the forge by the job's confirmer. The working
 * copy's spec and signers file change nothing.
 * @module
 */

import type { ReadAhead } from "./read_ahead.ts";
import { lineLog } from "../console/line_log.ts";
import { changePeople } from "./change_people.ts";
import { countingApprovals, revokeFloor } from "../gate/revoke_floor.ts";
import type { GateRules } from "../gate/gate_tally.ts";
import type { LedgerRecord } from "../gate/records.ts";
import {
  approvalAtBase,
  type ApprovalRules,
  describeApprovers,
  describeMode,
  strictestRules,
} from "../gate/approval_at_base.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import {
  type ChangePeople,
  judgeApprovals,
  type SignersAtBase,
} from "../gate/judge_approvals.ts";
import { readSignersAt } from "./read_signers.ts";
import type { ApprovalConfirmer } from "../gate/confirm_approvals.ts";
import type { Wave } from "../spec/types.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { Clock } from "../clock.ts";
import type { Writer } from "../console/writer.ts";
import type { Git } from "../git/git.ts";

/** What judging a gate's approvals reads: git, the log and the clock. */
export interface GateRulesIo {
  git: Git;
  /** Where the rules are logged when first judged. */
  stderr: Writer;
  clock: Clock;
}

/** A wave's approval rules at base, and the judge of its gate's approvals. */
export interface GateJudge {
  /** The rules read at base (the strictest over every base given). */
  readonly rules: ApprovalRules;
  /**
   * Judges the counting approvals of a gate's records under the rules. The first
   * call logs the rules and reads the signers files and the change's history.
   * @param records The gate's records, oldest first.
   * @param digest The decision's set digest (the CI actors of the jobs that
   *   waited for it are the change's own).
   * @returns The rules for `decideGate`.
   * @throws {GitError} When git fails reading the base or the change.
   */
  judge(records: readonly LedgerRecord[], digest: string): Promise<GateRules>;
}

/** The commits the rules are read at, where the change ends, and who runs it. */
export interface RulesContext {
  /** The repository's top level. */
  top: string;
  /** HEAD's full sha: the change is `base..HEAD` for each base. */
  head: string;
  /**
   * The CI actor of this job when it runs the change (a forge login): with
   * `selfApproval: false` their approval does not count. Absent outside a job.
   */
  actor?: string;
  /** The job's reads of git made before its first command, when it has them. */
  reads?: ReadAhead;
  /**
   * The job logged the wave's policy line, read at the same bases for the same
   * targets: the rules lines then refer to it rather than say it again.
   */
  policySaid?: boolean;
  /**
   * The approver rules to judge under, when the job decided them already: the
   * rules at base tightened by the rules over the plan's changes (SPEC.md §18,
   * `gate/plan_rules.ts`). Absent: the rules at base.
   */
  rules?: ApprovalRules;
}

/**
 * The rules context of a job that runs the change: its top level and HEAD,
 * and its CI actor (`GITHUB_ACTOR`, `GITLAB_USER_LOGIN`) as the forge says.
 * @param base The job's top level and HEAD.
 * @param env The job's environment.
 * @returns The context, with the actor when the job runs in CI.
 * @example
 * ```ts
 * jobRulesContext({ top, head }, { GITHUB_ACTIONS: "true", GITHUB_ACTOR: "dana" }).actor; // "dana"
 * ```
 */
export function jobRulesContext(
  base: Pick<RulesContext, "top" | "head" | "reads">,
  env: Record<string, string | undefined>,
): RulesContext {
  const { actor } = ciContext(env);
  return {
    top: base.top,
    head: base.head,
    ...(actor ? { actor } : {}),
    ...(base.reads ? { reads: base.reads } : {}),
  };
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
  io: GateRulesIo,
  confirmer?: ApprovalConfirmer,
): GateJudge {
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const rules = context.rules ??
    strictestRules(bases.map((base) => approvalAtBase(base, ref)));
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
          // Every revoke read ends its actions, not only the newest.
          revokeFloor(records).actions,
        )
        : undefined;
      return await judgeApprovals(approvals, {
        rules,
        signers,
        people,
        actors: changeActors(records, {
          digests: new Set([digest, ...approvals.map((a) => a.planDigest)]),
          commits: new Set([
            context.head,
            ...(people.status === "known" ? people.commits : []),
          ]),
          ...(context.actor ? { actor: context.actor } : {}),
        }),
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
  io: Pick<GateRulesIo, "git" | "stderr">,
): Promise<{ signers: SignersAtBase[]; people: ChangePeople }> {
  const log = lineLog(io.stderr);
  const of = `of wave ${wave.k} "${wave.name}"`;
  // Where the governing waves were found, the policy line named them: the
  // rules were read there too. Said once, then referred to.
  const asPolicy = context.policySaid === true &&
    rules.reads?.every((read) => read.lead === "read at ") === true;
  log(
    `approval ${of}: ${describeMode(rules)} (${
      asPolicy ? "read as the policy above" : rules.reason
    })`,
  );
  log(
    `approvers ${of}: ${describeApprovers(rules)} (read as the approval above)`,
  );
  const signers: SignersAtBase[] = [];
  for (const ref of rules.signers) {
    const file = context.reads
      ? await context.reads.signersAt(ref)
      : await readSignersAt(io.git, context.top, ref);
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
  const people: ChangePeople = { status: "known", people: [], commits: [] };
  if (rules.selfApproval) return { signers, people };
  for (const base of new Set(bases.map((b) => b.sha))) {
    const found = context.reads
      ? await context.reads.peopleSince(base)
      : await changePeople(io.git, context.top, { base, head: context.head });
    if (found.status === "too-long") return { signers, people: found };
    people.people.push(...found.people);
    people.commits.push(...found.commits);
  }
  return { signers, people };
}

/**
 * The CI actors of the jobs that ran this change (SPEC.md §12.1): this job's
 * own, and those recorded on the gate's pending facts and wave outcomes of a
 * commit of the change (or of a digest this decision or an approval names),
 * from the gate's newest revoke on: what a job's decision reads, so `status`
 * says what the job would decide.
 */
function changeActors(
  records: readonly LedgerRecord[],
  change: { digests: Set<string>; commits: Set<string>; actor?: string },
): string[] {
  const actors = new Set(change.actor ? [change.actor] : []);
  const live = records.findLastIndex((record) => record.kind === "expired");
  for (const record of records.slice(live + 1)) {
    const ofChange = record.kind === "pending"
      ? change.digests.has(record.planDigest) ||
        (record.head !== undefined && change.commits.has(record.head))
      : record.kind === "wave-outcome" && change.commits.has(record.head);
    if (ofChange && "actor" in record && record.actor !== undefined) {
      actors.add(record.actor);
    }
  }
  return [...actors];
}
