/**
 * A share or group job's check of its wave's canary (SPEC.md §19), before it
 * plans or applies anything: the deciding job applies the canary runs (the
 * first N runs of the wave in spec order whose decided plan is not empty, N
 * read at the bases the job reads the rules at, never the working copy's), so
 * no other run of the wave applies until the ledger shows every one of them
 * applied under this decision. When one failed (its newest outcome), the job
 * applies nothing (exit 1); when one has not applied yet, it waits (exit 3),
 * naming it and the job that applies it. The canary runs of its own slice
 * applied already, so it leaves them out. Reads the gate's records as the
 * job read them before any command of the change ran (or reads the gate
 * then); writes nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { type ExitCode, RUN_FAILED, WAITING } from "../exit_codes.ts";
import {
  canaryStanding,
  otherWavesTargets,
  outsideLine,
  waveCanary,
} from "../gate/canary_runs.ts";
import type { Decision } from "../gate/decision.ts";
import type { LedgerRecord } from "../gate/records.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import type { SkippedRun } from "../jobs/job_result.ts";
import type { Run } from "../spec/types.ts";
import type { JobBase } from "./job_base.ts";
import type { RunIo } from "./run_io.ts";
import { decideCommand } from "./say_what_waits.ts";
import type { RunJobInput } from "./select_job.ts";
import type { VerifiedDecision } from "./verify_decision.ts";

/** What a share or group job may apply after the canary check. */
export type CanaryCheck =
  /** Go on with `slice`; its canary runs, applied already, are `skipped`. */
  | { slice: Run[]; skipped: SkippedRun[] }
  /** Apply nothing: a canary run failed (1), or has not applied yet (3). */
  | { exitCode: ExitCode };

/** The reason a share job gives for a canary run of its slice it leaves out. */
export const CANARY_APPLIED = "applied first, as the canary";

/**
 * Checks the wave's canary under the job's decision.
 * @param job The job, its decision as checked, its base and its slice.
 * @param io The ledger (read when the job's base did not read the gate), the log.
 * @returns The slice to go on with, or the exit code to end with.
 */
export async function checkCanary(
  job: {
    input: RunJobInput;
    decision: Decision;
    verified: Pick<VerifiedDecision, "bases" | "gate">;
    base: Pick<JobBase, "gateRecords" | "head">;
    slice: readonly Run[];
  },
  io: Pick<RunIo, "ledger" | "asOf" | "stderr">,
): Promise<CanaryCheck> {
  const { input, decision, slice } = job;
  const { wave } = input.selection;
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const canary = waveCanary(
    timingAtBase(job.verified.bases, { k: wave.k, name: wave.name, targets }),
    wave.runs.map((run) => run.target),
    decision.members,
    otherWavesTargets(input.spec.waves, wave.k),
  );
  if (canary === undefined) return { slice: [...slice], skipped: [] };
  const log = lineLog(io.stderr);
  if (canary.outside) {
    log(outsideLine(canary));
    return { exitCode: WAITING };
  }
  const decided = new Map(decision.members.map((m) => [m.target, m]));
  const standing = canaryStanding(await gateRecords(job, io), {
    wave: wave.k,
    decisionId: decision.decisionId,
    digest: decision.digest,
    head: job.base.head,
    ...(decision.approvalId ? { approvalId: decision.approvalId } : {}),
    canaries: canary.targets.map((target) => ({
      target,
      planDigest: decided.get(target)!.planDigest,
    })),
  });
  const mine = `${countOf(slice.length, "run")} of this job`;
  if (standing.kind === "failed") {
    log(
      `canary: ${standing.failed.join(", ")} failed; the ${mine} ${
        slice.length === 1 ? "is" : "are"
      } not applied (${canary.rule})`,
    );
    log(
      `then fix what failed and run the deciding job again (it applies the canary first): ${
        decideCommand(input)
      }`,
    );
    return { exitCode: RUN_FAILED };
  }
  if (standing.kind === "waiting") {
    const { waiting, claimed } = standing;
    log(
      `canary: waiting for ${waiting.join(", ")} to apply first; the ${mine} ${
        slice.length === 1 ? "waits" : "wait"
      } (${canary.rule})`,
    );
    log(
      claimed.length
        ? `${
          claimed.join(", ")
        }: claimed by a job with no outcome yet; once it applied, run this job again`
        : `the deciding job applies the canary once the wave stands approved; run it, then this job again: ${
          decideCommand(input)
        }`,
    );
    return { exitCode: WAITING };
  }
  const isCanary = new Set(canary.targets);
  const skipped = slice.filter((run) => isCanary.has(run.target))
    .map(({ target }) => ({ target, reason: CANARY_APPLIED }));
  log(`canary: ${canary.targets.join(", ")} applied; this job goes on`);
  return {
    slice: slice.filter((run) => !isCanary.has(run.target)),
    skipped,
  };
}

/**
 * The gate's records as the job read them before any command of the change
 * ran: its check of a gated decision's, else those its base read, else read
 * now (nothing of the change has run yet).
 */
async function gateRecords(
  job: {
    decision: Decision;
    verified: Pick<VerifiedDecision, "gate">;
    base: Pick<JobBase, "gateRecords">;
  },
  io: Pick<RunIo, "ledger" | "asOf" | "stderr">,
): Promise<readonly LedgerRecord[]> {
  const { decision } = job;
  const known = job.verified.gate?.records ??
    job.base.gateRecords.get(decision.gate)?.records;
  if (known) return known;
  const read = await io.ledger.readGate(decision.name, decision.gate, {
    asOf: io.asOf,
  });
  for (const problem of read.problems) {
    lineLog(io.stderr)(`warning: ledger: ${problem}`);
  }
  return read.records;
}
