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

import { onlyTightens } from "../gate/arrived_after.ts";
import type { GateReadAt } from "./_git_ledger_read.ts";
import { ShapeError } from "../input/shape_error.ts";
import { formatBytes, MAX_PLANS_FILE_BYTES } from "../limits.ts";
import { blobText } from "./_git_ledger_objects.ts";
import type { ObjectReader } from "./_git_ledger_verified.ts";
import { parseCounter, SEQ_PATH } from "./_git_ledger_order.ts";
import {
  parsePlanSet,
  planSetFileName,
  type PlanSetMember,
} from "../gate/plan_set_file.ts";
import type { LedgerMark } from "./ledger_store.ts";
import type { LedgerRecord } from "../gate/records.ts";

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
 * the mark's tip, in one `cat-file --batch` (every object on the way checked);
 * none when the tip has not moved.
 * @param objects The clone's checked objects.
 * @param mark The job's mark (another store's mark: every record is late).
 * @param tip The tip read.
 * @param read The gate as read at `tip`.
 * @returns The late records.
 * @throws {GitError} When git fails.
 */
export async function lateRecords(
  objects: ObjectReader,
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
  const found = await objects.at(
    at.tip!,
    toCheck.map((record) => read.files.get(record)!.path),
  );
  toCheck.forEach((record, i) => {
    if (found[i]?.oid !== read.files.get(record)!.oid) late.add(record);
  });
  return late;
}

/**
 * Marks a tip: it and its counter (checked).
 * @param objects The clone's checked objects.
 * @param tip The tip just fetched (`undefined`: no branch yet).
 * @returns The mark.
 * @throws {GitError} When git fails.
 */
export async function markAt(
  objects: ObjectReader,
  tip: string | undefined,
): Promise<GitMark> {
  const [counter] = tip ? await objects.at(tip, [SEQ_PATH]) : [];
  const next = parseCounter(blobText(counter));
  return {
    store: "git",
    ...(tip ? { tip } : {}),
    ...(next === undefined ? {} : { next }),
  };
}

/**
 * Reads the plan sets of some digests at `tip` in one `cat-file --batch`, each
 * a blob of at most 64 MiB checked to hash to its digest (and every object on
 * the way to its name). A set the tip does not hold is none; one that is there
 * and cannot be read is an error.
 * @param objects The clone's checked objects.
 * @param tip The tip (`undefined`: no branch yet).
 * @param dir The gate's `sets` folder.
 * @param digests The set digests.
 * @param label How messages name the branch (`chant-wave-ledger`).
 * @param known The folder's entries by file name, when a listing of the tip
 *   found them (then the folder is not looked up again).
 * @returns Digest → members, for each set the tip holds.
 * @throws {GitError} When git fails.
 * @throws {ShapeError} Naming `<label>:<path>` when `sets` is not a folder, or
 *   a set is not a blob of at most 64 MiB, or not a plan set of its digest.
 */
export async function readSetsAt(
  objects: ObjectReader,
  tip: string | undefined,
  dir: string,
  digests: readonly string[],
  label: string,
  known?: ReadonlyMap<string, string>,
): Promise<Map<string, PlanSetMember[]>> {
  const sets = new Map<string, PlanSetMember[]>();
  if (tip === undefined || digests.length === 0) return sets;
  const ids = known ?? await entriesAt(objects, tip, dir, label);
  const held = digests.filter((digest) => ids.has(planSetFileName(digest)));
  const oids = held.map((d) => ids.get(planSetFileName(d))!);
  const sizes = await objects.sizes(oids);
  held.forEach((digest, i) => {
    const source = `${label}:${dir}/${planSetFileName(digest)}`;
    const size = sizes[i];
    if (size === undefined) {
      throw new ShapeError("", "names an object this clone lacks", source);
    }
    if (size.type !== "blob") {
      throw new ShapeError("", "is not a file", source);
    }
    if (size.size > MAX_PLANS_FILE_BYTES) {
      throw new ShapeError(
        "",
        `is larger than ${formatBytes(MAX_PLANS_FILE_BYTES)}`,
        source,
      );
    }
  });
  const read = await objects.byId(oids);
  held.forEach((digest, i) => {
    const source = `${label}:${dir}/${planSetFileName(digest)}`;
    const blob = read.get(oids[i]);
    if (blob === undefined) {
      throw new ShapeError("", "names an object this clone lacks", source);
    }
    sets.set(digest, parsePlanSet(blobText(blob)!, digest, source));
  });
  return sets;
}

/**
 * The entries of the `sets` folder at `tip` by name (none when there is none).
 * @throws {ShapeError} When `sets` is there and not a folder.
 */
async function entriesAt(
  objects: ObjectReader,
  tip: string,
  dir: string,
  label: string,
): Promise<Map<string, string>> {
  const [folder] = await objects.at(tip, [dir]);
  if (folder === undefined) return new Map();
  if (folder.type !== "tree") {
    throw new ShapeError("", "is not a folder", `${label}:${dir}`);
  }
  return new Map(
    [...objects.entries(folder).values()].map((e) => [e.name, e.oid]),
  );
}
