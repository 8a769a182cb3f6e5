/**
 * Copies of one approval (SPEC.md §10, §12): what makes an approval is what it
 * binds (a seal signs its name, gate, digest, approver and time), not its
 * record's id or file. In `sealed` and `forge` modes the change's code may
 * write the ledger, so it can copy an approval under a new id and file name,
 * and the copy reaches the branch later: after a revoke that ended the
 * original, or after the claim that spent it. A copy is that approval again,
 * so only the first sealed record of one approval (same digest, approver and
 * signed time) is read; the later ones are left out and reported. (Unsealed
 * approvals bind nothing but their record: two writes of one person in one
 * millisecond are two approvals, and count as one person.) Pure; both ledgers
 * call it on what they read.
 * @module
 */

import type { ApprovalRecord } from "./records.ts";
import type { GateRecords } from "./screen_records.ts";

/** What one approval binds, whatever record carries it. */
function bound(record: ApprovalRecord): string {
  return JSON.stringify([record.planDigest, record.by, record.timestamp]);
}

/**
 * Leaves out every sealed approval that repeats an earlier one of the gate
 * (same digest, approver and signed time), reporting each in `problems`.
 * @param read A gate's records in ledger order, as screened.
 * @returns The records without the copies.
 * @example
 * ```ts
 * dropApprovalCopies({ records: [], problems: [] }); // { records: [], problems: [] }
 * ```
 */
export function dropApprovalCopies(read: GateRecords): GateRecords {
  const first = new Map<string, ApprovalRecord>();
  const copies: string[] = [];
  const records = read.records.filter((record) => {
    if (record.kind !== "approval" || record.seal === undefined) return true;
    const key = bound(record);
    const original = first.get(key);
    if (original === undefined) {
      first.set(key, record);
      return true;
    }
    if (original.id === record.id) return true;
    copies.push(
      `approval ${record.id} of gate "${record.gate}" repeats the sealed approval ${original.id} (the same digest, approver and signed time): it is that approval, not another, and does not count again`,
    );
    return false;
  });
  if (copies.length === 0) return read;
  return { ...read, records, problems: [...read.problems, ...copies] };
}
