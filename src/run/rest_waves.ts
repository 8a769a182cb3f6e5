/**
 * Rest waves (SPEC.md §11): when the spec's last wave says `rest: true`, a
 * whole-wave job of it whose `planWave` reported `"waves": N` goes on, once wave
 * k < N applied, to wave k+1 — planned, gated and applied on its own. This module
 * decides whether a job goes on, and says so; `run_job.ts` runs the next wave.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { OK } from "../exit_codes.ts";
import { waveAt } from "../spec/types.ts";
import type { RunIo } from "./run_io.ts";
import type { JobResult, RestWaveResult } from "../jobs/job_result.ts";
import type { RunJobInput } from "./select_job.ts";

/**
 * The next wave a whole-wave job of a rest wave goes on to, logged as
 * `wave <k> applied; the plan found <N> waves, so this job goes on to wave <k+1>`.
 * A dry run says what a real run would do and stops.
 * @param input The job that just ran.
 * @param result Its result.
 * @param io The log.
 * @returns The job of wave k+1, or `undefined` when this job stops here.
 */
export function nextRestWave(
  input: RunJobInput,
  result: JobResult,
  io: Pick<RunIo, "stderr">,
): RunJobInput | undefined {
  const { selection: { wave, kind } } = input;
  const found = result.wavesFound;
  if (kind !== "wave" || !wave.rest || found === undefined) return undefined;
  if (result.exitCode !== OK || wave.k >= found) return undefined;
  const log = lineLog(io.stderr);
  if (input.dryRun) {
    log(
      `the plan found ${found} waves; a real run would go on to wave ${
        wave.k + 1
      }`,
    );
    return undefined;
  }
  log(
    `wave ${wave.k} applied; the plan found ${found} waves, so this job goes on to wave ${
      wave.k + 1
    }`,
  );
  const next = waveAt(input.spec, wave.k + 1)!;
  return { ...input, selection: { wave: next, kind: "wave" } };
}

/**
 * The `--json` entry of a further wave.
 * @param result That wave's result.
 * @returns `{ wave, exitCode, digest? }`.
 * @example
 * ```ts
 * restEntry({ wave: 2, exitCode: 3, decision: { digest: d } } as JobResult);
 * // { wave: 2, exitCode: 3, digest: d }
 * ```
 */
export function restEntry(result: JobResult): RestWaveResult {
  return {
    wave: result.wave,
    exitCode: result.exitCode,
    ...(result.decision ? { digest: result.decision.digest } : {}),
  };
}
