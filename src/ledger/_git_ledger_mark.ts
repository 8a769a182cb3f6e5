/**
 * The git ledger's mark (SPEC.md §4.12, §14): the branch tip fetched at the
 * mark and its counter. A record numbered at or past the counter reached the
 * branch after the mark; one numbered below it (numbers are written by whoever
 * pushes, so they prove nothing alone) or without a number counts as before
 * only when the mark's tip holds its file with the same blob. Private to the
 * git ledger.
 * @module
 */

import type { Git } from "../git/git.ts";
import { onlyTightens } from "./arrived_after.ts";
import type { GateReadAt } from "./_git_ledger_read.ts";
import { readNamed } from "./_git_ledger_objects.ts";
import type { LedgerMark } from "./ledger_store.ts";
import type { LedgerRecord } from "./records.ts";

/** A mark of the git ledger. */
export interface GitMark extends LedgerMark {
  /** Always `git`. */
  readonly store: "git";
  /** The tip fetched at the mark; absent when there was no branch yet. */
  readonly tip?: string;
  /** The tip's counter; absent on a branch without numbers. */
  readonly next?: number;
}

/**
 * Which of a gate's loosening records reached the branch after the mark. Only
 * records numbered below the mark's counter (or not numbered) are looked up at
 * the mark's tip, in one `cat-file --batch`; none when the tip has not moved.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param mark The job's mark (another store's mark: every record is late).
 * @param tip The tip read.
 * @param read The gate as read at `tip`.
 * @returns The late records.
 * @throws {GitError} When git fails.
 */
export async function lateRecords(
  git: Git,
  cwd: string,
  mark: LedgerMark,
  tip: string | undefined,
  read: GateReadAt,
): Promise<Set<LedgerRecord>> {
  const late = new Set<LedgerRecord>();
  const at: GitMark = mark.store === "git" ? mark as GitMark : { store: "git" };
  if (at.tip !== undefined && at.tip === tip) return late;
  const toCheck: LedgerRecord[] = [];
  for (const record of read.records) {
    if (onlyTightens(record)) continue;
    const file = read.files.get(record)!;
    const numbered = file.seq !== undefined && at.next !== undefined;
    if (at.tip === undefined || (numbered && file.seq! >= at.next!)) {
      late.add(record);
    } else toCheck.push(record);
  }
  if (toCheck.length === 0) return late;
  const found = await readNamed(
    git,
    cwd,
    toCheck.map((record) => `${at.tip}:${read.files.get(record)!.path}`),
  );
  toCheck.forEach((record, i) => {
    if (found[i]?.oid !== read.files.get(record)!.oid) late.add(record);
  });
  return late;
}
