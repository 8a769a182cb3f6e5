/**
 * The git ledger's mark (SPEC.md §4.12, §14), and what else is read at a
 * tip already fetched (plan sets): the branch tip fetched at the mark and its
 * counter. A record numbered at or past the counter reached the
 * branch after the mark; one numbered below it (numbers are written by whoever
 * pushes, so they prove nothing alone) or without a number counts as before
 * only when the mark's tip holds its file with the same blob. Private to the
 * git ledger.
 * @module
 */

import type { Git } from "../git/git.ts";
import { onlyTightens } from "./arrived_after.ts";
import type { GateReadAt } from "./_git_ledger_read.ts";
import { ShapeError } from "../input/shape_error.ts";
import { formatBytes, MAX_PLANS_FILE_BYTES } from "../limits.ts";
import { blobText, infoNamed, readNamed } from "./_git_ledger_objects.ts";
import { parseCounter, SEQ_PATH } from "./_git_ledger_order.ts";
import {
  parsePlanSet,
  planSetFileName,
  type PlanSetMember,
} from "./plan_set_file.ts";
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

/**
 * Marks a tip: it and its counter.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The tip just fetched (`undefined`: no branch yet).
 * @returns The mark.
 * @throws {GitError} When git fails.
 */
export async function markAt(
  git: Git,
  cwd: string,
  tip: string | undefined,
): Promise<GitMark> {
  const [counter] = tip
    ? await readNamed(git, cwd, [`${tip}:${SEQ_PATH}`])
    : [];
  const next = parseCounter(blobText(counter));
  return {
    store: "git",
    ...(tip ? { tip } : {}),
    ...(next === undefined ? {} : { next }),
  };
}

/**
 * Reads the plan sets of some digests at `tip` in one `cat-file --batch`, each
 * a blob of at most 64 MiB checked to hash to its digest. A set the tip does
 * not hold is none; one that is there and cannot be read is an error.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The tip (`undefined`: no branch yet).
 * @param dir The gate's `sets` folder.
 * @param digests The set digests.
 * @param label How messages name the branch (`chant-wave-ledger`).
 * @returns Digest → members, for each set the tip holds.
 * @throws {GitError} When git fails.
 * @throws {ShapeError} Naming `<label>:<path>` when a set is not a blob of at
 *   most 64 MiB, or not a plan set of its digest.
 */
export async function readSetsAt(
  git: Git,
  cwd: string,
  tip: string | undefined,
  dir: string,
  digests: readonly string[],
  label: string,
): Promise<Map<string, PlanSetMember[]>> {
  const sets = new Map<string, PlanSetMember[]>();
  if (tip === undefined || digests.length === 0) return sets;
  // Found once, then each set in the folder's own (small) tree: a path through
  // the gate's tree for each set would read all of that tree each time.
  const [folder] = await infoNamed(git, cwd, [`${tip}:${dir}`]);
  if (folder === undefined) return sets;
  if (folder.type !== "tree") {
    throw new ShapeError("", "is not a folder", `${label}:${dir}`);
  }
  const blobs = await readNamed(
    git,
    cwd,
    digests.map((digest) => `${folder.oid}:${planSetFileName(digest)}`),
  );
  digests.forEach((digest, i) => {
    const blob = blobs[i];
    if (blob === undefined) return;
    const source = `${label}:${dir}/${planSetFileName(digest)}`;
    if (blob.type !== "blob") throw new ShapeError("", "is not a file", source);
    if (blob.bytes.length > MAX_PLANS_FILE_BYTES) {
      throw new ShapeError(
        "",
        `is larger than ${formatBytes(MAX_PLANS_FILE_BYTES)}`,
        source,
      );
    }
    sets.set(digest, parsePlanSet(blobText(blob)!, digest, source));
  });
  return sets;
}
