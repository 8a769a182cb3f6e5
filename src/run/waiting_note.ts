/**
 * What a waiting job's summary says beside the approve command (SPEC.md §12,
 * §12.1, §14): the approval rules at base in words and the tally of who
 * counted. Pure.
 * @module
 */

import {
  type ApprovalRules,
  describeApprovers,
  describeMode,
} from "../gate/approval_at_base.ts";
import type { WaitingNote } from "../jobs/job_result.ts";

/**
 * The note of a waiting job.
 * @param rules The approval rules at base.
 * @param tally The tally line, when some approval covers the plans.
 * @param approve The command that approves them, when one would.
 * @returns The note.
 * @example
 * ```ts
 * waitingNote(rules, undefined, "chant-wave approve tf tf-wave-1 --plan …").rules;
 * // "ledger, 1 approver, anyone, self-approval allowed (read at …)"
 * ```
 */
export function waitingNote(
  rules: ApprovalRules,
  tally: string | undefined,
  approve: string | undefined,
): WaitingNote {
  return {
    ...(approve === undefined ? {} : { approve }),
    rules: `${describeMode(rules)}, ${
      describeApprovers(rules)
    } (${rules.reason})`,
    ...(tally === undefined ? {} : { tally }),
  };
}
