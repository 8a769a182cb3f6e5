/**
 * How an applying job ends (SPEC.md §4.7, §4.11): the wave outcome it records
 * (`applied`, `failed` or `nothing-to-do`, for the commit it ran at, so the
 * next wave can tell that this one is complete for that revision; dry runs and
 * jobs that wait record nothing), and a share or group job's exit code (1 if an
 * apply failed, else 4 if a run moved, else 0), each failure named on the log
 * with what to do next (fix and run the job again; an approval still covers
 * a run that failed).
 * @module
 */

import { OK, PLAN_MOVED, RUN_FAILED, WAITING } from "../exit_codes.ts";
import {
  newRecord,
  newStamp,
  type OutcomeJob,
  type WaveOutcome,
} from "../gate/records.ts";
import type { BaseRule } from "../gate/base_rule.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { Decision } from "../gate/decision.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { RunIo } from "./run_io.ts";
import { styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { decideCommand } from "./say_what_waits.ts";
import { shellLine } from "../shell_words.ts";
import type { RunJobInput } from "./select_job.ts";

/**
 * The outcome a finished job records: `failed` when a run failed or moved,
 * `applied` when it applied something, else `nothing-to-do`.
 */
function waveOutcomeOf(
  result: Pick<JobResult, "exitCode" | "applied" | "failed" | "moved">,
): WaveOutcome {
  if (result.exitCode !== 0 || result.failed.length || result.moved.length) {
    return "failed";
  }
  return result.applied.length ? "applied" : "nothing-to-do";
}

/**
 * Records the job's wave outcome in the wave's gate.
 * @param decision The decision the job applied.
 * @param at The commit the job ran at (full sha) and the rule that chose its
 *   base, which the chain rule of later jobs reads.
 * @param result The job's result.
 * @param io The edges.
 */
export async function recordWaveOutcome(
  decision: Decision,
  at: { head: string; rule: BaseRule },
  result: JobResult,
  io: RunIo,
): Promise<void> {
  if (result.exitCode === WAITING) return;
  const job = outcomeJobOf(result.job);
  const { runId, actor } = ciContext(io.env);
  await io.ledger.write(newRecord("wave-outcome", {
    name: decision.name,
    gate: decision.gate,
    wave: decision.wave,
    head: at.head,
    digest: decision.digest,
    decisionId: decision.decisionId,
    job,
    outcome: waveOutcomeOf(result),
    ...(result.canaryFailed?.length
      ? { canaryFailed: result.canaryFailed }
      : {}),
    baseRule: at.rule,
    ...(runId ? { runId } : {}),
    ...(actor ? { actor } : {}),
  }, newStamp(io.clock)));
}

/**
 * Names a job as its wave outcome does: its share and group; a whole-wave job
 * as `wave`, a deciding job (which applies only a wave's canary runs) as
 * `decide`.
 * @param job The job, as its result names it.
 * @returns The job, as wave outcomes name it.
 * @example
 * ```ts
 * outcomeJobOf({ kind: "group", group: "eu" }); // { kind: "group", group: "eu" }
 * ```
 */
export function outcomeJobOf(job: JobResult["job"]): OutcomeJob {
  const { kind, share, group } = job;
  return kind === "share"
    ? { kind: "share", ...(share ? { share } : {}) }
    : kind === "group"
    ? {
      kind: "group",
      ...(group ? { group } : {}),
      ...(share ? { share } : {}),
    }
    : { kind };
}

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
    for (const line of failedNextSteps(input, result)) log(line);
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

/**
 * The next step after a failed apply (SPEC.md §10): fix what failed and run
 * the same job again (a deciding job's is a canary run's, §19); under an
 * approval, it still covers the failed runs while
 * their plans stay the same, and a run that applied under it never applies
 * again, so no new approval is needed.
 * @param input The job (its spec file, wave, share, group, `--base`, ledger).
 * @param result The job's result: the runs that failed, and its decision.
 * @returns One line, or two under an approval.
 * @example
 * ```ts
 * failedNextSteps(input, { failed: ["us-07"], decision: { status: "approved" } } as JobResult);
 * // ["then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 3 --group us",
 * //  "the approval still covers us-07 while its plan stays the same; what applied does not apply again"]
 * ```
 */
export function failedNextSteps(
  input: Pick<RunJobInput, "specFile" | "baseFlag" | "ledgerArg"> & {
    selection:
      & Pick<RunJobInput["selection"], "share" | "group">
      & Partial<Pick<RunJobInput["selection"], "kind">>
      & { wave: { k: number } };
  },
  result: Pick<JobResult, "failed" | "decision">,
): string[] {
  const { selection } = input;
  const words = [
    "chant-wave",
    "run",
    "--spec",
    input.specFile,
    "--wave",
    String(selection.wave.k),
  ];
  if (selection.kind === "decide") words.push("--decide");
  if (selection.group) words.push("--group", selection.group.name);
  if (selection.share !== undefined) {
    words.push("--share", String(selection.share));
  }
  if (input.baseFlag !== undefined) words.push("--base", input.baseFlag);
  if (input.ledgerArg !== undefined) words.push("--ledger", input.ledgerArg);
  const lines = [
    `then fix what failed and run this job again (in CI, retry it): ${
      shellLine(words)
    }`,
  ];
  if (result.decision?.status === "approved") {
    const one = result.failed.length === 1;
    lines.push(
      `the approval still covers ${
        one ? result.failed[0] : "the failed runs"
      } while ${
        one ? "its plan stays" : "their plans stay"
      } the same; what applied does not apply again`,
    );
  }
  return lines;
}
