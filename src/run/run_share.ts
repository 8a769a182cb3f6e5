/**
 * Share and group jobs (SPEC.md §4.7): read the wave's decision, check the order
 * of waves, check the decision against the spec at base and the ledger (it
 * travelled as an artifact), take this job's slice, re-plan it, refuse every run
 * whose plan moved since the decision, claim and apply the rest, and record the
 * wave outcome.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { OK, PLAN_MOVED, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { approveCommand } from "../ledger/gate_messages.ts";
import { sliceShare } from "../jobs/slice_shares.ts";
import type { Run } from "../spec/types.ts";
import type { Decision, DecisionMember } from "./decision.ts";
import type { RunJobInput } from "./job_input.ts";
import { readJobBase } from "./job_base.ts";
import { dryRunLine, type JobResult, logFailures } from "./job_result.ts";
import { type PlannedRun, planRuns } from "./plan_runs.ts";
import { readDecision } from "./read_decision.ts";
import type { RunIo } from "./run_io.ts";
import { groupRuns } from "./select_job.ts";
import { applyStage, countOf, previewApply } from "./apply_stage.ts";
import { readGate } from "./read_gate.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import { checkOrder } from "./order_stage.ts";
import { recordWaveOutcome } from "./record_outcome.ts";
import { verifyDecision } from "./verify_decision.ts";
import { gateRules } from "./gate_rules.ts";
import type { BaseRead } from "../policy/read_base.ts";
import { decideCommand } from "./next_steps.ts";

/**
 * Runs a share or group job.
 * @param input The job and its settings.
 * @param planRoot `.chant`, or a temporary directory for dry runs.
 * @param io The edges.
 * @returns The result: 0 applied, 1 a run failed, 3 waiting, 4 a run moved.
 * @throws {InputError} When the decision is missing, unreadable or does not match
 *   the spec at base or the ledger (exit 2).
 */
export async function runShare(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { spec, selection: { wave, kind, share, group }, settings } = input;
  const log = lineLog(io.stderr);
  const { decision, path } = await readDecision(spec.name, wave, io.cwd);
  const job = {
    kind,
    ...(share === undefined ? {} : { share }),
    ...(group ? { group: group.name } : {}),
  };
  const result: JobResult = {
    exitCode: OK,
    wave: wave.k,
    job,
    decision,
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
  };
  const base = await readJobBase(input, io);
  if (await checkOrder(input, base, io) === "wait") {
    return { ...result, exitCode: WAITING };
  }
  if (decision.status === "waiting") {
    await sayWhatWaits(decision, input, base, io);
    return { ...result, exitCode: WAITING };
  }
  const { need, judge } = await verifyDecision(
    { decision, path, spec, wave, base },
    io,
  );
  const candidates: Run[] = wave.discover
    ? decision.members.map(({ target, op }) => ({ target, op }))
    : wave.runs;
  const pool = group ? groupRuns(group, candidates) : candidates;
  const slice = sliceShare(
    pool,
    group ? group.shares : wave.shares,
    share ?? 1,
  );
  log(
    `slice: ${
      slice.length ? slice.map((run) => run.target).join(", ") : "(no runs)"
    }`,
  );
  if (slice.length === 0) {
    log("nothing to apply: this job's slice is empty");
    if (!input.dryRun) await recordWaveOutcome(decision, base.head, result, io);
    return result;
  }
  const jobTag = group
    ? `group-${group.name}${share ? `-share-${share}` : ""}`
    : `share-${share}`;
  const context = { root: planRoot, jobTag, settings };
  const { planned, failed } = await planRuns(spec, wave, slice, {
    ...context,
    discover: false,
  }, io);
  throwIfInterrupted(io);
  logFailures(failed, io.stderr);
  const { unmoved, moved } = compareWithDecision(planned, decision, log);
  const outcome = { ...result, failed: failed.map((f) => f.target), moved };
  if (input.dryRun) {
    const preview = await previewApply({
      spec,
      wave,
      decision,
      gated: need.needed,
      planned: unmoved,
      judge,
    }, io);
    for (const { target, reason } of preview.skipped) {
      log(`would skip: ${target}: ${reason}`);
    }
    log(dryRunLine(decision, preview.apply));
    return finish({ ...outcome, skipped: preview.skipped }, input, log);
  }
  const applied = await applyStage({
    spec,
    wave,
    decision,
    gated: need.needed,
    planned: unmoved,
    judge,
    context,
  }, io);
  if (applied === "waiting") return { ...outcome, exitCode: WAITING };
  outcome.failed.push(...applied.failed.map((f) => f.target));
  const done = finish(
    {
      ...outcome,
      applied: applied.applied,
      untried: applied.untried,
      skipped: applied.skipped,
    },
    input,
    log,
  );
  await recordWaveOutcome(decision, base.head, done, io);
  return done;
}

/**
 * Says why a share job of a waiting decision waits: the approve command, or, when
 * an approval now covers the decided plans, that the deciding job must run again
 * to record it.
 */
async function sayWhatWaits(
  decision: Decision,
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): Promise<void> {
  const { spec, selection: { wave } } = input;
  const log = lineLog(io.stderr);
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const gate = await readGate(spec.name, decision.gate, {
    digest: decision.digest,
    members: decision.members,
    judge: gateRules([base], wave, targets, base, io),
  }, io);
  if (gate.decision.status === "approved") {
    log(
      `wave ${wave.k} "${wave.name}": the approval by ${gate.decision.approvedBy} stands, but this decision was made before it`,
    );
    log(`then decide again: ${decideCommand(input)}, then run this job again`);
    return;
  }
  log(
    `wave ${wave.k} "${wave.name}" waits for an approval of ${decision.digest}`,
  );
  log(
    `then approve: ${
      approveCommand(spec.name, decision.gate, decision.digest, input.ledgerArg)
    }`,
  );
}

/** Sets the exit code (1 a run failed, else 4 a run moved, else 0) and says why. */
function finish(
  result: JobResult,
  input: RunJobInput,
  log: (line: string) => void,
): JobResult {
  const k = input.selection.wave.k;
  if (result.failed.length) {
    log(
      `error: ${countOf(result.failed.length, "run")} failed: ${
        result.failed.join(", ")
      }`,
    );
    return { ...result, exitCode: RUN_FAILED };
  }
  if (result.moved.length) {
    log(
      `error: refused ${
        countOf(result.moved.length, "run")
      } whose plan moved since wave ${k} was decided: ${
        result.moved.join(", ")
      }`,
    );
    log(
      `then decide again (it plans the moved runs afresh, and waits for an approval if they need one): ${
        decideCommand(input)
      }`,
    );
    return { ...result, exitCode: PLAN_MOVED };
  }
  return { ...result, exitCode: OK };
}

/** The plan's digest and flags, as a refusal names them. */
function describePlan(
  plan: Pick<DecisionMember, "planDigest" | "destructive" | "empty">,
): string {
  const flags = [
    plan.destructive ? "destructive" : "",
    plan.empty ? "empty" : "",
  ].filter(Boolean);
  return flags.length
    ? `${plan.planDigest} (${flags.join(", ")})`
    : plan.planDigest;
}

/**
 * Splits the re-planned runs into those whose plan is the decided one (same
 * digest, same destructive and empty flags) and those whose plan moved.
 */
function compareWithDecision(
  planned: readonly PlannedRun[],
  decision: Decision,
  log: (line: string) => void,
): { unmoved: PlannedRun[]; moved: string[] } {
  const decided = new Map(
    decision.members.map((member) => [member.target, member]),
  );
  const unmoved: PlannedRun[] = [];
  const moved: string[] = [];
  for (const run of planned) {
    const before = decided.get(run.target);
    const now = run.plan;
    if (
      before?.planDigest === now.planDigest &&
      (before.destructive ?? false) === now.destructive &&
      (before.empty ?? false) === now.empty
    ) {
      unmoved.push(run);
      continue;
    }
    moved.push(run.target);
    log(
      `refused: ${run.target}: its plan moved since wave ${decision.wave} was decided; ` +
        `decided ${
          before
            ? describePlan(before)
            : "nothing (the decision lacks this run)"
        }, planned now ${describePlan(now)}`,
    );
  }
  return { unmoved, moved };
}
