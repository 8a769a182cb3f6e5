/**
 * Applying a wave's canary runs first (SPEC.md §19), in a whole-wave or a
 * deciding job: of the runs the claim stage let through, the canary runs
 * apply first (up to `parallel` at once among them), and the job's other runs
 * only once every canary run applied; when one did not (it failed, moved,
 * asked for a new plan, or another job holds its claim), nothing more of the
 * wave applies and the log says so. Which runs are the canary is
 * `gate/canary_runs.ts`'s; running the commands is the apply stage's; a share
 * or group job's check of the canary is `canary_check.ts`'s.
 * @module
 */

import type { Canary } from "../gate/canary_runs.ts";
import type { ApplyOutcome, FailedRun, PlannedRun } from "./run_outcomes.ts";

/** A wave's canary, as the job that applies it sees it. */
export interface CanaryFirst {
  canary: Canary;
  /** The wave, for the log. */
  wave: { k: number; name: string };
  /**
   * Set in a deciding job, which applies the canary runs only: the wave's
   * share and group jobs apply the other runs.
   */
  othersElsewhere?: boolean;
}

/** What applying with a canary did: the apply outcome, and the runs it held back. */
export interface CanaryOutcome extends ApplyOutcome {
  /** The runs not applied because a canary run did not apply (also `untried`). */
  heldBack: string[];
}

/**
 * Applies the canary runs among `runs` first, then the others when every
 * canary run applied; else holds the others back, as untried.
 * @param first The canary and the wave.
 * @param runs The runs to apply (those the claim stage let through).
 * @param refused Runs the claim stage refused: a canary run among them did not apply.
 * @param apply Applies some runs.
 * @param log Takes one line.
 * @returns What applied, failed, moved, asked for a new plan, was untried,
 *   and which runs the canary held back.
 * @throws {unknown} What `apply` throws.
 */
export async function applyCanaryFirst(
  first: CanaryFirst,
  runs: readonly PlannedRun[],
  refused: readonly FailedRun[],
  apply: (runs: readonly PlannedRun[]) => Promise<ApplyOutcome>,
  log: (line: string) => void,
): Promise<CanaryOutcome> {
  const { canary, wave } = first;
  const isCanary = new Set(canary.targets);
  const canaries = runs.filter((run) => isCanary.has(run.target));
  const rest = runs.filter((run) => !isCanary.has(run.target));
  const refusedCanaries = refused.map((run) => run.target)
    .filter((target) => isCanary.has(target));
  const others = first.othersElsewhere ? canary.others : rest.length;
  if (canaries.length === 0 && refusedCanaries.length === 0) {
    // Applied already: under the approval, or in an earlier pass.
    if (others > 0) {
      log(
        `canary: ${canary.targets.join(", ")} applied already; ${
          goOn(others, first)
        } (${canary.rule})`,
      );
    }
    return { ...await apply(rest), heldBack: [] };
  }
  if (canaries.length) {
    log(
      `canary: ${canaries.map((run) => run.target).join(", ")} ${
        canaries.length === 1 ? "applies" : "apply"
      } first (${canary.rule})`,
    );
  }
  const one = canaries.length ? await apply(canaries) : nothing();
  const applied = new Set(one.applied);
  const failed = new Set([
    ...one.failed.map((run) => run.target),
    ...refusedCanaries,
  ]);
  const missed = [
    ...canaries.map((run) => run.target).filter((t) => !applied.has(t)),
    ...refusedCanaries,
  ];
  if (missed.length === 0) {
    log(
      `canary: ${one.applied.join(", ")} applied${
        others > 0 ? `; ${goOn(others, first)}` : ""
      }`,
    );
    if (first.othersElsewhere) return { ...one, heldBack: [] };
    const two = await apply(rest);
    return {
      applied: [...one.applied, ...two.applied],
      failed: [...one.failed, ...two.failed],
      untried: [...one.untried, ...two.untried],
      replan: [...one.replan, ...two.replan],
      moved: [...one.moved, ...two.moved],
      heldBack: [],
    };
  }
  const verb = missed.every((t) => failed.has(t)) ? "failed" : "did not apply";
  const what = others === 1
    ? `the other run of wave ${wave.k} "${wave.name}" is`
    : `the ${others} other runs of wave ${wave.k} "${wave.name}" are`;
  log(
    `canary: ${
      missed.join(", ")
    } ${verb}; ${what} not applied (${canary.rule})`,
  );
  const heldBack = rest.map((run) => run.target);
  return { ...one, untried: [...one.untried, ...heldBack], heldBack };
}

/** Nothing applied. */
function nothing(): ApplyOutcome {
  return { applied: [], failed: [], untried: [], replan: [], moved: [] };
}

/** `the other 4 runs go on`, and where, when that is the wave's other jobs. */
function goOn(others: number, first: CanaryFirst): string {
  const where = first.othersElsewhere ? " in the wave's other jobs" : "";
  return others === 1
    ? `the other run goes on${where}`
    : `the other ${others} runs go on${where}`;
}
