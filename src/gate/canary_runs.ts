/**
 * A wave's canary (SPEC.md §19), pure: which runs apply before the others (the
 * first N runs of the wave in spec order whose decided plan is not empty, N
 * read at base by `timing_at_base.ts`), and, for a share or group job, where
 * those runs stand under a decision in the gate's records: applied, failed,
 * or not yet. Applying them first, and what a job does about a canary that
 * failed or has not applied, are the run stages'.
 * @module
 */

import { claimLedger } from "./claims.ts";
import type { LedgerRecord, PlanPair } from "./records.ts";
import type { TimingAtBase } from "./timing_at_base.ts";

/** The canary of a wave under one decision. */
export interface Canary {
  /** The canary runs, in spec order. */
  targets: string[];
  /** How many other runs of the wave have a plan that is not empty. */
  others: number;
  /** The rule, as the log names it: `canary 1, read at 1a2b3c4d5e6f, wave 3 "prod"`. */
  rule: string;
  /**
   * Canary runs at base that the change put in another of its waves: the
   * wave waits until the change is merged.
   */
  outside?: string[];
}

/**
 * The canary runs of a wave: its first `canary` runs whose plan is not empty,
 * in the order of the base wave whose canary it is (`timing.order`), so a
 * change that reorders its runs or puts a new one first cannot choose its own
 * canary; runs that base wave does not hold come after, in the change's spec
 * order, and a run no spec lists (a discovering wave's) after those, in the
 * order of `plans`. A base canary run the change moved into another of its
 * waves is `outside`: this wave cannot apply it first, so it must wait.
 * @param timing The canary count read at base, where it was read, and the
 *   base wave's runs in order.
 * @param order The wave's targets in the change's spec order.
 * @param plans The decided plans (a decision's members).
 * @param elsewhere The targets the change's other waves hold.
 * @returns The canary, or `undefined` when no base sets a count or no plan
 *   is to apply.
 * @example
 * ```ts
 * waveCanary({ canary: 1, canaryFrom: 'at 1a2b3c4d5e6f, wave 3 "prod"' }, ["eu-2", "eu-1"],
 *   [{ target: "eu-1", empty: false }, { target: "eu-2", empty: true }, { target: "us-1" }]);
 * // { targets: ["eu-1"], others: 1, rule: 'canary 1, read at 1a2b3c4d5e6f, wave 3 "prod"' }
 * ```
 */
export function waveCanary(
  timing: Pick<TimingAtBase, "canary" | "canaryFrom"> & { order?: string[] },
  order: readonly string[],
  plans: readonly { target: string; empty?: boolean }[],
  elsewhere: ReadonlySet<string> = new Set(),
): Canary | undefined {
  const n = timing.canary;
  if (n === undefined) return undefined;
  const rule = `canary ${n}, read ${timing.canaryFrom ?? "at base"}`;
  const planned = new Map(plans.map((plan) => [plan.target, plan]));
  const outside: string[] = [];
  let picked = 0;
  for (const target of timing.order ?? []) {
    if (picked + outside.length >= n) break;
    const plan = planned.get(target);
    if (plan === undefined) {
      if (elsewhere.has(target)) outside.push(target);
    } else if (plan.empty !== true) picked++;
  }
  const position = new Map<string, number>();
  for (const target of [...timing.order ?? [], ...order]) {
    if (!position.has(target)) position.set(target, position.size);
  }
  const at = (target: string) => position.get(target) ?? position.size;
  const toApply = plans
    .map((plan, i) => ({ target: plan.target, empty: plan.empty, i }))
    .filter((plan) => plan.empty !== true)
    .sort((a, b) => at(a.target) - at(b.target) || a.i - b.i);
  if (toApply.length === 0 && outside.length === 0) return undefined;
  const targets = toApply.slice(0, n - outside.length).map((plan) =>
    plan.target
  );
  return {
    targets,
    others: toApply.length - targets.length,
    rule,
    ...(outside.length > 0 ? { outside } : {}),
  };
}

/**
 * The targets the change's other waves hold (for {@linkcode waveCanary}'s
 * `elsewhere`).
 * @param waves The change's waves.
 * @param k The wave's number.
 * @returns Their targets.
 * @example
 * ```ts
 * otherWavesTargets(spec.waves, 2); // Set { "dev", "late-1" }
 * ```
 */
export function otherWavesTargets(
  waves: readonly { k: number; runs: readonly { target: string }[] }[],
  k: number,
): Set<string> {
  return new Set(
    waves.filter((wave) => wave.k !== k).flatMap((wave) =>
      wave.runs.map((run) => run.target)
    ),
  );
}

/**
 * The line a wave whose base canary the change moved elsewhere waits with.
 * @param canary The canary, with `outside`.
 * @returns `canary: p1 is in another wave of this change (canary 1, read at
 *   …); it runs first once the change is merged`.
 */
export function outsideLine(canary: Canary): string {
  const outside = canary.outside ?? [];
  return `canary: ${outside.join(", ")} ${
    outside.length === 1 ? "is" : "are"
  } in another wave of this change (${canary.rule}); this wave runs once the change is merged`;
}

/**
 * The canary runs that failed at a commit and have not applied there since:
 * those the newest whole-wave or deciding outcome of the wave at `head` names
 * as failed (`canaryFailed`).
 * @param records The gate's records, oldest first.
 * @param wave The wave's number.
 * @param head The commit (full sha).
 * @returns The targets; none when the newest such outcome applied.
 * @example
 * ```ts
 * canaryFailedAt([], 3, head); // []
 * ```
 */
export function canaryFailedAt(
  records: readonly LedgerRecord[],
  wave: number,
  head: string,
): string[] {
  const newest = records.findLast((r) =>
    r.kind === "wave-outcome" && r.wave === wave && r.head === head &&
    (r.job.kind === "wave" || r.job.kind === "decide")
  );
  return newest?.kind === "wave-outcome" && newest.outcome === "failed"
    ? newest.canaryFailed ?? []
    : [];
}

/**
 * Of canary runs that failed at this commit, those a retry cannot pass: their
 * plan is empty now (or gone), so no apply of theirs will succeed here; an
 * empty plan is no pass (SPEC.md §19).
 * @param failed The canary runs that failed at this commit.
 * @param plans The decided plans now.
 * @returns The targets that have not passed and cannot now.
 * @example
 * ```ts
 * stillFailed(["p1"], [{ target: "p1", empty: true }]); // ["p1"]
 * ```
 */
export function stillFailed(
  failed: readonly string[],
  plans: readonly { target: string; empty?: boolean }[],
): string[] {
  const planned = new Map(plans.map((plan) => [plan.target, plan]));
  return failed.filter((target) => {
    const plan = planned.get(target);
    return plan === undefined || plan.empty === true;
  });
}

/** Where a wave's canary runs stand under a decision. */
export type CanaryStanding =
  /** Every canary run applied: the wave's other runs may apply. */
  | { kind: "applied" }
  /** Some canary run's newest outcome is a failure: nothing more of the wave applies. */
  | { kind: "failed"; failed: string[] }
  /**
   * Some canary run has no outcome yet: `waiting` lists them, `claimed` those
   * among them a job claimed (applying now, or its job died).
   */
  | { kind: "waiting"; waiting: string[]; claimed: string[] };

/** What {@linkcode canaryStanding} asks about. */
export interface CanaryQuery {
  /** The wave's number. */
  wave: number;
  /** The decision whose canary it is. */
  decisionId: string;
  /** Its set digest. */
  digest: string;
  /** The commit the job runs at (full sha). */
  head: string;
  /** The approval the decision applies under, when it needs one. */
  approvalId?: string;
  /** The canary runs' decided plans. */
  canaries: readonly PlanPair[];
}

/**
 * Where the canary runs stand. Under an approval each run's plan stands as
 * its claims and outcomes say (SPEC.md §10: applied, failed on its newest
 * attempt, claimed with no outcome, never claimed); a decision that needs no
 * approval claims nothing, so the wave outcome its deciding job recorded
 * after applying them (for this decision, digest and commit) says it for all
 * of them.
 * @param records The gate's records, oldest first (ledger order).
 * @param query The wave, the decision, its approval and the canary plans.
 * @returns Applied, failed (which), or waiting (for which).
 * @example
 * ```ts
 * canaryStanding([], { wave: 3, decisionId: "d1", digest, head, canaries: [{ target: "eu-1", planDigest: d }] });
 * // { kind: "waiting", waiting: ["eu-1"], claimed: [] }
 * ```
 */
export function canaryStanding(
  records: readonly LedgerRecord[],
  query: CanaryQuery,
): CanaryStanding {
  const targets = query.canaries.map((plan) => plan.target);
  if (query.approvalId === undefined) {
    const outcome = records.findLast((r) =>
      r.kind === "wave-outcome" && r.wave === query.wave &&
      r.job.kind === "decide" && r.decisionId === query.decisionId &&
      r.digest === query.digest && r.head === query.head
    );
    if (outcome?.kind !== "wave-outcome") {
      return { kind: "waiting", waiting: targets, claimed: [] };
    }
    return outcome.outcome === "failed"
      ? { kind: "failed", failed: targets }
      : { kind: "applied" };
  }
  const claims = claimLedger(records, query.approvalId);
  const failed: string[] = [];
  const waiting: string[] = [];
  const claimed: string[] = [];
  for (const plan of query.canaries) {
    const standing = claims.standing(plan);
    if (standing.kind === "failed") failed.push(plan.target);
    else if (standing.kind !== "applied") {
      waiting.push(plan.target);
      if (standing.kind === "unsettled") claimed.push(plan.target);
    }
  }
  if (failed.length) return { kind: "failed", failed };
  if (waiting.length) return { kind: "waiting", waiting, claimed };
  return { kind: "applied" };
}
