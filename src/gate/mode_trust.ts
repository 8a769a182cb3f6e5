/**
 * What an approval mode can withstand, in the words of SPEC.md §4.12: a change
 * to files can never loosen a gate in any mode, but a change to code that runs
 * in the job can write the ledger, so only `sealed` and `forge` approvals hold
 * then. `status` and `check` say it beside each gated wave. Pure.
 * @module
 */

import type { ApprovalMode } from "../spec/types.ts";

/**
 * Says what a gate's mode counts, and whether code the change runs in a job can
 * approve it.
 * @param mode The approval mode.
 * @returns One phrase.
 * @example
 * ```ts
 * describeTrust("sealed");
 * // "only signatures by keys listed at base count: code the change runs in a job cannot make one"
 * ```
 */
export function describeTrust(mode: ApprovalMode): string {
  switch (mode) {
    case "sealed":
      return "only signatures by keys listed at base count: code the change runs in a job cannot make one";
    case "forge":
      return "only approvals the forge confirms, or sealed ones, count: code the change runs in a job cannot make one";
    default:
      return "any approval in the ledger counts, and its approver is whoever --by names: code the change runs in a job can write one, so use sealed or forge for production waves";
  }
}
