/**
 * The decide stage of a whole-wave or deciding job (SPEC.md §4.4–§4.6, §11): the
 * policy at base for every target the wave holds, the gate decision, the hooks
 * share and group jobs will run, and the decision record (written atomically;
 * not by a dry run). The hooks report then says whether the decision stands
 * approved.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { decideWave } from "./decide_wave.ts";
import type { Decision } from "./decision.ts";
import { wavePolicy } from "./job_base.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import type { RunIo } from "./run_io.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import type { WaveJob } from "./wave_job.ts";

/**
 * Decides the wave and writes its decision record.
 * @param job The wave job.
 * @param planned The wave's planned runs.
 * @param targets Every target it holds (declared and planned).
 * @returns The decision, with the wave's hooks when it has any.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function decideStage(
  job: WaveJob,
  planned: readonly PlannedRun[],
  targets: readonly string[],
): Promise<Decision> {
  const { input, wave, base, io } = job;
  const policy = wavePolicy([base], wave, targets, io);
  const decided = await decideWave(
    { ...input, wave, planned, policy, base },
    io,
  );
  throwIfInterrupted(io);
  const hooks = job.hooks.hooks();
  const decision: Decision = Object.values(hooks).some((list) => list.length)
    ? { ...decided, hooks }
    : decided;
  if (!input.dryRun) await writeDecision(decision, io);
  await job.report.approved(decision.status === "approved");
  return decision;
}

/** Writes the decision record atomically. */
async function writeDecision(decision: Decision, io: RunIo): Promise<void> {
  const path = resolve(
    io.cwd,
    decisionRecordPath(decision.name, decision.wave),
  );
  await writeFileAtomic(path, JSON.stringify(decision, null, 2) + "\n");
}
