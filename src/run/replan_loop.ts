/**
 * Replans (SPEC.md §11): an apply command that exits 75 asks for the wave to be
 * planned again, so a job runs its wave in passes (hooks, plan, hooks, decide,
 * hooks, claim, apply) until no apply asks for another, at most 10 replans; the
 * 11th request fails the job. This module keeps the count and what earlier
 * passes applied, and says after each pass whether the job plans again or how
 * it ends; the job runs the passes. A plan applied in an earlier pass of the
 * job is not applied again; the §10 coverage rules hold in every pass, so a
 * plan the approval does not cover waits.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { ExitCode } from "../exit_codes.ts";
import type { DecisionMember } from "../gate/decision.ts";
import type { JobResult, SkippedRun } from "../jobs/job_result.ts";
import type { ApplyOutcome, PlannedRun } from "./run_outcomes.ts";

/** How many times a job plans a wave again at most. */
export const MAX_REPLANS = 10;

/** How a pass ended: the job stops there, or its apply stage ran. */
export type PassEnd =
  | { end: "stop"; result: JobResult }
  | {
    end: "applied";
    result: JobResult;
    /** Targets whose apply asked for a new plan. */
    replan: string[];
    /** The pass's plans, for the after-apply hooks' `{plans}`. */
    members: DecisionMember[];
  };

/** One pass of a job over its wave. */
export interface Pass {
  /** Its number, from 1. */
  n: number;
  /** Plans applied in earlier passes of the job: target → plan digest. */
  appliedInJob: ReadonlyMap<string, string>;
  /** The targets earlier passes applied, in order. */
  earlier: readonly string[];
}

/**
 * The first pass of a job.
 * @returns Pass 1, nothing applied yet.
 */
export function firstPass(): Pass {
  return { n: 1, appliedInJob: new Map(), earlier: [] };
}

/**
 * What follows a pass: the next pass (logged as `wave <k> "<name>": plan
 * <n>`) when an apply asked for a new plan, else the end of the job. The end
 * lists every run applied in any pass, earlier ones first; when an apply
 * asked for an 11th new plan, or asked while other runs failed, those runs
 * count as failed (and the log says why the wave is not planned again).
 * @param pass The pass that just ran.
 * @param end How it ended.
 * @param wave The wave, for the log.
 * @param stderr The log.
 * @returns `{ next }`, the pass to run; or `{ end }`, how the job's passes end.
 */
export function afterPass(
  pass: Pass,
  end: PassEnd,
  wave: { k: number; name: string },
  stderr: Writer,
): { next: Pass } | { end: PassEnd } {
  const result = withEarlier(end.result, pass.earlier);
  if (end.end === "stop" || end.replan.length === 0) {
    return { end: { ...end, result } };
  }
  const log = lineLog(stderr);
  const n = pass.n;
  const stop = result.failed.length
    ? "other runs failed, so the wave is not planned again"
    : n > MAX_REPLANS
    ? `a job plans a wave again at most ${MAX_REPLANS} times`
    : undefined;
  if (stop !== undefined) {
    log(
      `error: wave ${wave.k} "${wave.name}": ${
        end.replan.join(", ")
      } asked for plan ${n + 1}, but ${stop}`,
    );
    const failed = [...result.failed, ...end.replan];
    return { end: { ...end, result: { ...result, failed }, replan: [] } };
  }
  const digests = new Map(end.members.map((m) => [m.target, m.planDigest]));
  const appliedInJob = new Map(pass.appliedInJob);
  for (const target of end.result.applied) {
    appliedInJob.set(target, digests.get(target)!);
  }
  log(`wave ${wave.k} "${wave.name}": plan ${n + 1}`);
  return { next: { n: n + 1, appliedInJob, earlier: result.applied } };
}

/**
 * Runs a job's passes until no apply asks for a new plan, or the replans run
 * out: each pass starts the hooks' report afresh, and {@linkcode afterPass}
 * says whether another follows.
 * @param job The hooks, the wave and the log.
 * @param onePass Runs one pass.
 * @returns How the job's passes end.
 */
export async function runPasses(
  job: {
    hooks: { startPass(): Promise<void> };
    wave: { k: number; name: string };
    io: { stderr: Writer };
  },
  onePass: (pass: Pass) => Promise<PassEnd>,
): Promise<PassEnd> {
  for (let pass = firstPass();;) {
    await job.hooks.startPass();
    const next = afterPass(pass, await onePass(pass), job.wave, job.io.stderr);
    if ("end" in next) return next.end;
    pass = next.next;
  }
}

/**
 * The end of a pass that stops the job there.
 * @param result The job's result so far.
 * @param exitCode Another exit code, when given.
 * @returns The pass's end.
 */
export function stopWith(result: JobResult, exitCode?: ExitCode): PassEnd {
  return {
    end: "stop",
    result: exitCode === undefined ? result : { ...result, exitCode },
  };
}

/** A pass's result with the runs earlier passes applied put first. */
function withEarlier(
  result: JobResult,
  earlier: readonly string[],
): JobResult {
  if (earlier.length === 0) return result;
  const now = new Set(result.applied);
  const applied = [
    ...earlier.filter((target) => !now.has(target)),
    ...result.applied,
  ];
  const done = new Set(applied);
  const skipped = result.skipped.filter((s) => !done.has(s.target));
  return { ...result, applied, skipped };
}

/** What a pass applies of its planned runs, and what it skips. */
export interface PassRuns {
  /** The plans not applied in an earlier pass, in plan order. */
  fresh: PlannedRun[];
  /** The non-empty ones among them: they are claimed and applied. */
  runs: PlannedRun[];
  /** Plans an earlier pass applied (`already applied`). */
  earlier: SkippedRun[];
  /** Empty plans: `already applied` when an earlier job applied them (SPEC.md §10), else `no changes`. */
  empty: SkippedRun[];
}

/**
 * Sorts a pass's planned runs: those an earlier pass applied (same plan),
 * the empty ones, and the rest, to apply.
 * @param pass The pass (what earlier passes applied).
 * @param planned The runs to apply (planned; in share jobs, unmoved).
 * @param alreadyApplied The targets whose empty plan an earlier job applied.
 * @returns The runs to apply and the two kinds of skipped runs, in plan order.
 * @example
 * ```ts
 * passRuns(firstPass(), [], new Set()); // { fresh: [], runs: [], earlier: [], empty: [] }
 * ```
 */
export function passRuns(
  pass: Pick<Pass, "appliedInJob">,
  planned: readonly PlannedRun[],
  alreadyApplied: ReadonlySet<string>,
): PassRuns {
  const sorted: PassRuns = { fresh: [], runs: [], earlier: [], empty: [] };
  for (const run of planned) {
    const { target, plan } = run;
    if (pass.appliedInJob.get(target) === plan.planDigest) {
      sorted.earlier.push({ target, reason: "already applied" });
      continue;
    }
    sorted.fresh.push(run);
    if (plan.empty) {
      const reason = alreadyApplied.has(target)
        ? "already applied"
        : "no changes";
      sorted.empty.push({ target, reason });
    } else sorted.runs.push(run);
  }
  return sorted;
}

/**
 * A pass's end once its apply stage ran: logs the runs an earlier pass applied
 * (`skipped: <target>: already applied`) and those whose apply asks for a new
 * plan, and adds what applied, failed, moved, was skipped and left untried to
 * the job's result.
 * @param result The job's result so far.
 * @param applied What the apply stage did (its skipped runs included).
 * @param pass What the pass skipped as applied earlier, and its plans.
 * @param stderr The log.
 * @returns The pass's end, with the runs that ask for a new plan.
 */
export function passApplied(
  result: JobResult,
  applied: ApplyOutcome & { skipped: SkippedRun[] },
  pass: { earlier: readonly SkippedRun[]; members: DecisionMember[] },
  stderr: Writer,
): PassEnd {
  const log = lineLog(stderr);
  for (const { target, reason } of pass.earlier) {
    log(`skipped: ${target}: ${reason}`);
  }
  for (const target of applied.replan) {
    log(`${target}: its apply asks for a new plan (exit 75)`);
  }
  return {
    end: "applied",
    result: {
      ...result,
      applied: applied.applied,
      failed: [...result.failed, ...applied.failed.map((f) => f.target)],
      moved: [...result.moved, ...applied.moved.map((m) => m.target)],
      failures: [
        ...result.failures ?? [],
        ...applied.failed.map(({ target, message }) => ({ target, message })),
      ],
      untried: applied.untried,
      skipped: [...pass.earlier, ...applied.skipped],
    },
    replan: applied.replan,
    members: pass.members,
  };
}
