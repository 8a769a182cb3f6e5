/**
 * Whether a hold stands (SPEC.md §11), pure: from the other gate's records, the
 * newest pending fact there (after its newest revoke, expired or not: a hold on a
 * gate approved days ago still stands), whether a counting approval covers that
 * pending fact's plans, and, for `applied`, whether that gate's wave is complete
 * after it (SPEC.md §4.11: every applying job of the wave recorded `applied` or
 * `nothing-to-do` at the pending fact's head, `order/wave_completion.ts`'s
 * `completeSince`). Reading the ledger and the held wave's shape is
 * `read_hold.ts`'s job.
 * @module
 */

import type { LedgerRecord, PendingRecord } from "../gate/records.ts";
import type { HoldTarget } from "../spec/types.ts";

/** How a hold stands: `ok`, or `held` and why. */
export interface HoldStanding {
  outcome: "ok" | "held";
  /** One phrase: what the hold found. */
  why: string;
}

/** What was found at the other gate. */
export interface HoldFacts {
  /** The gate's newest pending fact, if any. */
  pending?: PendingRecord;
  /** Whether a counting approval covers the pending fact's plans, and by whom. */
  approvedBy?: string;
  /** Whether that gate's wave is complete after the pending fact. */
  applied: boolean;
  /** The jobs of that wave still to apply, in words, when some did. */
  missing?: string;
}

/**
 * The newest pending fact of a gate after its newest `expired` record (a revoke
 * ends the pending facts before it), whether or not its time to stand ran out.
 * @param records The gate's records, oldest first.
 * @returns The pending fact, or `undefined`.
 * @example
 * ```ts
 * newestPendingFact([]); // undefined
 * ```
 */
export function newestPendingFact(
  records: readonly LedgerRecord[],
): PendingRecord | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record.kind === "expired") return undefined;
    if (record.kind === "pending") return record;
  }
  return undefined;
}

/**
 * Decides a hold: `ok` once the gate's newest pending fact has a counting
 * approval (and, with `applied`, once its wave applied after it); a gate that
 * never waited has nothing to approve, so only an `applied` hold can pass it.
 * @param target The hold's rollout, gate and `applied`.
 * @param facts What was found at the gate.
 * @returns The outcome and why.
 * @example
 * ```ts
 * holdStanding({ name: "infra", gate: "infra-wave-2", applied: false }, { applied: false });
 * // { outcome: "held", why: "no plans wait at infra-wave-2 yet" }
 * ```
 */
export function holdStanding(
  target: HoldTarget,
  facts: HoldFacts,
): HoldStanding {
  const { gate } = target;
  if (target.applied) {
    if (facts.applied) {
      return { outcome: "ok", why: `that wave applied at ${gate}` };
    }
    if (facts.pending === undefined || facts.approvedBy !== undefined) {
      return {
        outcome: "held",
        why: facts.pending
          ? `approved by ${facts.approvedBy}, but that wave has not applied since${
            facts.missing ? ` (${facts.missing} not yet)` : ""
          }`
          : `that wave has not applied at ${gate}${
            facts.missing ? ` (${facts.missing} not yet)` : ""
          }`,
      };
    }
  }
  if (facts.pending === undefined) {
    return { outcome: "held", why: `no plans wait at ${gate} yet` };
  }
  if (facts.approvedBy === undefined) {
    return {
      outcome: "held",
      why: `the plans ${facts.pending.planDigest} wait for an approval`,
    };
  }
  return {
    outcome: "ok",
    why: `approved by ${facts.approvedBy} for ${facts.pending.planDigest}`,
  };
}
