/**
 * Deciding (SPEC.md §4.5–§4.6, §10): from a wave's planned runs and its policy at
 * base, computes the set digest, decides whether an approval covers the plans, and
 * when the wave must wait records a pending fact with its plan set (and, in CI, the
 * job's run locator for `resume`), first settling the gate when every approval
 * in it was spent (`settle_gate.ts`). A decision's members are the wave's planned
 * runs: target, plan digest, flags, summary and changes. Dry runs record nothing.
 * @module
 */

import { type Segment, styled, styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { setDigest } from "../digest/set_digest.ts";
import { runLocatorFromEnv } from "../forge/run_locator_from_env.ts";
import { sameRunLocator } from "../ci/run_locator.ts";
import { approveCommand, gateName } from "../gate/gate_messages.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import { tallyLine } from "../gate/gate_tally.ts";
import { newStamp, pendingRecord } from "../gate/records.ts";
import { compactTime } from "../gate/record_name.ts";
import { randomHex } from "../gate/random_hex.ts";
import {
  type ApprovalNeed,
  needsApproval,
  type PolicyAtBase,
} from "../gate/policy_at_base.ts";
import { type FreezeHold, freezeReason } from "../gate/freeze_hold.ts";
import { recordWait } from "./record_wait.ts";
import type { BaseRead } from "../base/read_base.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import type { Decision, DecisionMember } from "../gate/decision.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import { type GateRead, readGate } from "../ledger/read_gate.ts";
import {
  changesLine,
  keepChanges,
  statementLines,
} from "../plan/plan_changes.ts";
import { driftNote, groupLabel, groupPlans } from "../plan/plan_groups.ts";
import { plansLiveState } from "../spec/command_types.ts";
import type { RunIo } from "./run_io.ts";
import { settleGate } from "./settle_gate.ts";
import { approveClick, approveLine } from "../summary/approve_link.ts";

/** What a decision is made from. */
export interface DecideInput {
  spec: Spec;
  /** The spec file as the job named it. */
  specFile: string;
  wave: Wave;
  /** The wave's runs, planned. */
  planned: readonly PlannedRun[];
  /** The same as decision members, when the caller made them already. */
  members?: DecisionMember[];
  policy: PolicyAtBase;
  /** Where the policy was read, HEAD, and the spec's path from the top level. */
  base: Pick<BaseRead, "sha" | "shas" | "rule" | "head" | "specPath">;
  /** Judges the gate's approvals under the wave's rules at base. */
  judge: GateJudge;
  /** Record nothing (§4.9). */
  dryRun: boolean;
  /** The `--ledger` argument the printed approve command needs, if any. */
  ledgerArg?: string;
  /**
   * Whether a pending fact it records names no CI job for `resume` to
   * restart (`drift --record`: re-running the drift job applies nothing).
   */
  noResume?: boolean;
  /**
   * The gate as the review stage read it for these plans, when it recorded
   * nothing since: it is decided on that read instead of reading again.
   */
  read?: GateRead;
  /**
   * A freeze window of the wave at base holds now (SPEC.md §19): plans that
   * change anything need an approval given with `--during-freeze`.
   */
  freeze?: FreezeHold;
}

/** A decision, and the gate as read and decided for it. */
export interface WaveDecision {
  /** The decision (not yet written). */
  decision: Decision;
  /**
   * The gate as decided for the plans, when they need an approval: the claim
   * stage claims under it, without reading the gate again.
   */
  gate?: GateDecision;
}

/**
 * Decides the wave: whether an approval is needed and whether one covers its
 * plans; writes the plan set and a pending fact when it must wait (unless an
 * identical unexpired one of the same CI actor and CI job stands, or this is a
 * dry run).
 * Logs the policy, the plans' summaries and, when waiting, the click that
 * approves on the forge it runs on, then the command that approves this
 * digest on a line of its own.
 * @param input The planned wave and its policy.
 * @param io The edges.
 * @returns The decision (not yet written), and the gate when it was read.
 */
export async function decideWave(
  input: DecideInput,
  io: RunIo,
): Promise<WaveDecision> {
  const { spec, wave, planned, policy, base } = input;
  const gate = gateName(spec, wave.k);
  const members = input.members ?? membersOf(planned);
  // The digest hashes a large wave's text in batches: what they leave is
  // freed as they go, and before the lines below.
  const digest = setDigest(members, io.pacer?.built);
  io.pacer?.settle(members.length);
  const log = terminalLog(io.stderr, io.env);
  log(
    `planned ${
      countOf(members.length, "run")
    } of wave ${wave.k} "${wave.name}": ${digest}`,
  );
  const groups = groupPlans(members);
  for (const group of groups) {
    log([
      `  ${groupLabel(group)}: `,
      ...describeMember(group.plan),
      driftNote(group),
    ]);
  }
  for (const group of groups) {
    const label = groupLabel(group);
    const line = changesLine(label, group.plan, LOGGED_CHANGES);
    if (line !== undefined) log(`  ${line}`);
    for (const quoted of statementLines(group.plan)) {
      log(`    ${quoted}`);
    }
  }
  const need = frozenNeed(
    needsApproval(policy.policy, members),
    members,
    input.freeze,
  );
  const decision: Decision = {
    version: 1,
    decisionId: `${compactTime(io.clock.now())}-${randomHex(6)}`,
    wave: wave.k,
    name: spec.name,
    spec: input.specFile,
    gate,
    policy: policy.policy,
    policySource: policy.source,
    policyReason: policy.reason,
    base: base.sha,
    baseRule: base.rule,
    bases: base.shas,
    digest,
    members,
    status: "not-required",
    ...(input.freeze ? { freeze: input.freeze.line } : {}),
    createdAt: new Date(io.clock.now()).toISOString(),
  };
  if (!need.needed) {
    log(`gate ${gate}: no approval needed: ${need.why}`);
    return { decision };
  }
  const { freeze } = input;
  const read = freeze === undefined ? input.read : undefined;
  const gateState = (read ?? await readGate(spec.name, gate, {
    digest,
    members,
    judge: input.judge,
    liveState: plansLiveState(spec.plan),
    wave: wave.name,
    ...(freeze ? { freeze: { reason: freezeReason(freeze) } } : {}),
  }, io)).decision;
  if (gateState.status === "approved") {
    const { approval, approvedBy } = gateState;
    log([
      `gate ${gate}: `,
      styled("approved", "approved"),
      approval.planDigest === digest
        ? ` by ${approvedBy} for ${digest} (${need.why})`
        : ` by ${approvedBy}: the approval of ${approval.planDigest} covers every plan not yet applied (${need.why})`,
    ]);
    return {
      decision: {
        ...decision,
        status: "approved",
        approvedBy,
        approvalId: approval.id,
      },
      gate: gateState,
    };
  }
  const sealed = input.judge.rules.mode === "sealed";
  const approve = approveCommand(spec.name, gate, digest, {
    ...(input.ledgerArg === undefined ? {} : { ledger: input.ledgerArg }),
    sign: sealed,
    duringFreeze: freeze !== undefined,
  });
  log([`gate ${gate}: `, styled("waiting", "waiting:"), ` ${need.why}`]);
  for (const reason of gateState.reasons) log(`  ${reason}`);
  const { runId, actor } = ciContext(io.env);
  const locator = input.noResume ? undefined : runLocatorFromEnv(io.env, {
    workflowFile: `${spec.name}.yml`,
  });
  // A standing fact of another actor does not record this job's (SPEC.md
  // §12.1), nor one naming another CI job: `resume` restarts the job the
  // newest fact names, and skips a run re-run since its fact was recorded.
  const standing = gateState.standing;
  if (
    !input.dryRun &&
    (standing === undefined ||
      (actor !== undefined && standing.actor !== actor) ||
      (locator !== undefined &&
        (standing.locator === undefined ||
          !sameRunLocator(standing.locator, locator))))
  ) {
    // A new rollout starts: what the one before spent folds first.
    await settleGate(io.ledger, spec.name, gate, log);
    await io.ledger.writePlanSet(spec.name, gate, digest, members);
    await io.ledger.write(pendingRecord(
      {
        name: spec.name,
        gate,
        planDigest: digest,
        description: describeMembers(members),
        members: members.length,
        base: base.sha,
        bases: base.shas,
        baseRule: base.rule,
        ...(runId ? { runId } : {}),
        ...(actor ? { actor } : {}),
        head: base.head,
        spec: base.specPath,
        wave: wave.name,
        ...(locator ? { locator } : {}),
      },
      spec.pendingTtlMs,
      newStamp(io.clock),
    ));
  }
  const click = approveClick(
    spec.name,
    wave,
    io.env,
    (gateState.tally?.counted.length ?? 0) + 1,
  );
  const forgeWay = click &&
    approveLine(click, spec.name, wave.k, digest, sealed);
  if (forgeWay) log(forgeWay);
  log(styledLead(`then approve: ${approve}`));
  if (freeze?.until !== undefined) {
    await recordWait(
      spec,
      {
        k: wave.k,
        head: base.head,
        why: "freeze",
        until: freeze.until,
      },
      input,
      io,
    );
  }
  return {
    decision: {
      ...decision,
      status: "waiting",
      approve,
      ...(gateState.tally ? { tally: tallyLine(gateState.tally, digest) } : {}),
    },
    gate: gateState,
  };
}

/**
 * The need for an approval with a freeze holding: plans that change anything
 * need one, whatever the policy says.
 */
function frozenNeed(
  need: ApprovalNeed,
  members: readonly DecisionMember[],
  freeze: FreezeHold | undefined,
): ApprovalNeed {
  if (freeze === undefined || members.every((m) => m.empty === true)) {
    return need;
  }
  return {
    needed: true,
    why: need.needed ? `${need.why}, and ${freeze.line}` : freeze.line,
  };
}

/** The pending fact's description: the first few members' summaries. */
function describeMembers(members: readonly DecisionMember[]): string {
  const shown = members.slice(0, DESCRIBED_MEMBERS).map((m) =>
    `${m.target}: ${m.summary ?? "planned"}`
  );
  const more = members.length - shown.length;
  return shown.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

/** How many changes of each member the log names (`show` names 200). */
const LOGGED_CHANGES = 20;

/** How many members a pending fact's description names. */
const DESCRIBED_MEMBERS = 10;

/** A member's summary and flags, `destructive` styled so it stands out. */
function describeMember(member: DecisionMember): Segment[] {
  const summary = member.summary ?? member.planDigest;
  if (member.destructive) {
    return [
      `${summary} (`,
      styled("destructive", "destructive"),
      member.empty ? ", empty)" : ")",
    ];
  }
  return [member.empty ? `${summary} (empty)` : summary];
}

/**
 * The decision members of planned runs, in the same order.
 * @param planned The planned runs.
 * @returns One member per run; `destructive` and `empty` only when true.
 * @example
 * ```ts
 * membersOf([{ target: "eu", run: { target: "eu", op: "tf" }, planPath: "p",
 *   plan: { planDigest: d, destructive: false, empty: true } }]);
 * // [{ target: "eu", planDigest: d, op: "tf", empty: true }]
 * ```
 */
export function membersOf(planned: readonly PlannedRun[]): DecisionMember[] {
  return planned.map(({ run, plan }) => {
    // Set one by one, in the record's order: spreading the optional fields
    // would make and drop an object each, megabytes for a large wave.
    const member: DecisionMember = {
      target: run.target,
      planDigest: plan.planDigest,
      op: run.op,
    };
    if (plan.destructive) member.destructive = true;
    if (plan.empty) member.empty = true;
    if (plan.summary !== undefined) member.summary = plan.summary;
    if (plan.changes !== undefined) {
      Object.assign(member, keepChanges(plan.changes));
    }
    return member;
  });
}
