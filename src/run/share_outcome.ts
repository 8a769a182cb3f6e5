/**
 * How a share or group job ends (SPEC.md §4.7): exit 1 if an apply failed,
 * else 4 if a run moved, else 0, each failure named on the log with what to do
 * next.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { OK, PLAN_MOVED, RUN_FAILED } from "../exit_codes.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { RunJobInput } from "./job_input.ts";
import { decideCommand } from "./next_steps.ts";
import type { RunIo } from "./run_io.ts";

/**
 * Sets a share or group job's exit code once its passes ended, and says why:
 * 1 when a run failed (naming them), else 4 when a run's plan moved since the
 * decision (naming them, with the command that decides again), else 0.
 * @param result The job's result after its last pass.
 * @param input The job (its wave, for the message and the command).
 * @param io The log.
 * @returns The result with its exit code.
 */
export function shareOutcome(
  result: JobResult,
  input: RunJobInput,
  io: Pick<RunIo, "stderr" | "env">,
): JobResult {
  const log = terminalLog(io.stderr, io.env);
  const k = input.selection.wave.k;
  if (result.failed.length) {
    log(styledLead(
      `error: ${countOf(result.failed.length, "run")} failed: ${
        result.failed.join(", ")
      }`,
    ));
    return { ...result, exitCode: RUN_FAILED };
  }
  if (result.moved.length) {
    log(styledLead(
      `error: refused ${
        countOf(result.moved.length, "run")
      } whose plan moved since wave ${k} was decided: ${
        result.moved.join(", ")
      }`,
    ));
    log(
      `then decide again (it plans the moved runs afresh, and waits for an approval if they need one): ${
        decideCommand(input)
      }`,
    );
    return { ...result, exitCode: PLAN_MOVED };
  }
  return { ...result, exitCode: OK };
}
