/**
 * Where the ledger records decisions made under a trusted base (SPEC.md §4.4's
 * chain rule): the commits jobs ran at (a pending fact's or a wave outcome's
 * `head`) whose base was named by `--base`, the spec's base read before the
 * push, or the forge's push event. Such a commit reached the branch by a push
 * the forge vouched for, so the chain rule walks back no further. A decision
 * made under the chain rule itself never bounds a later chain: a change whose
 * own commit ran a job (a manual run on a feature branch) cannot shorten what
 * governs its next commit. Pure.
 * @module
 */

import { isTrustedRule } from "./base_rule.ts";
import type { LedgerRecord } from "./records.ts";

/**
 * Collects the commits at which decisions were recorded under a trusted base.
 * Records that name no head or no rule (written before rules were recorded) do
 * not count.
 * @param records A gate's records (any order).
 * @returns The head commits (full shas).
 * @example
 * ```ts
 * trustedDecisionHeads([]).size; // 0
 * ```
 */
export function trustedDecisionHeads(
  records: readonly LedgerRecord[],
): Set<string> {
  const heads = new Set<string>();
  for (const record of records) {
    if (
      (record.kind === "pending" || record.kind === "wave-outcome") &&
      record.head !== undefined && isTrustedRule(record.baseRule)
    ) heads.add(record.head);
  }
  return heads;
}
