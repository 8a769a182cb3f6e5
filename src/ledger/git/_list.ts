/**
 * Listing a gate of the git ledger at a tip, in branch order, as cheaply as its
 * tree allows: while the gate's `order/bytes` accounts for its tree's size
 * (every record file numbered), a decision lists only the names in the
 * newest buckets of its sequence entries (back to a revoke) and finds those
 * records' blobs in one `ls-tree` limited to them; otherwise the whole gate is
 * listed with sizes and modes. Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import { formatBytes, MAX_RECORD_BYTES } from "../../limits.ts";
import { blobText, type ObjectReader, type TreeEntry } from "./_objects.ts";
import {
  BYTES_FILE,
  folderBytes,
  ORDER_DIR,
  parseCounter,
  parseOrderName,
  SAFE_NAME,
  SEQ_PATH,
} from "./_order.ts";
import { isRecordFileName, namedAs } from "../../gate/record_name.ts";
import type { RecordKind } from "../../gate/records.ts";

/** A record file of the gate, with its place in the order. */
export interface Listed {
  /** `gates/<name>/<gate>/<file>`. */
  path: string;
  /** Its blob; absent when listed by name only (read it by path). */
  oid?: string;
  /** Its sequence number, when it has one. */
  seq?: number;
  /** Its place: its number, or last (`Infinity`) without one. */
  at: number;
}

/** A gate as listed. */
export interface GateListing {
  /** Its record files, oldest first. */
  files: Listed[];
  /** The tip's counter, when it has one. */
  next?: number;
  /** The gate's plan sets by file name, with their blobs (a whole listing's). */
  sets?: Map<string, string>;
  /** Whether older files were left out (a decision's listing). */
  partial: boolean;
  /** A decision's listing: the revokes before the newest, read besides. */
  revokes?: Listed[];
}

/** The width of a record file name's time (`compactTime`). */
export const TIME_WIDTH = 20;

/** How to list. */
export interface ListOptions {
  /** How problems name the branch. */
  label: string;
  /** Only the newest buckets, back to one holding a file named like a revoke. */
  live?: boolean;
  /** A whole listing's: only the files named as one of these kinds. */
  kinds?: readonly RecordKind[];
}

/** Whether a record file's name says it is a revoke (`…-expired-….json`). */
export function namedExpired(path: string): boolean {
  return posix.basename(path).includes("-expired-");
}

/** The entries of a tree by id, checked (none when it is not a tree). */
async function treeById(
  objects: ObjectReader,
  oid: string,
): Promise<ReadonlyMap<string, TreeEntry>> {
  const tree = (await objects.byId([oid])).get(oid);
  return tree?.type === "tree" ? objects.entries(tree) : new Map();
}

/** The numbered files named by sequence entries `<bucket>/<seq>-<file>`. */
function numberedFiles(dir: string, entries: readonly string[]): Listed[] {
  const files = new Map<string, Listed>();
  for (const entry of entries) {
    const parsed = parseOrderName(posix.basename(entry));
    if (!parsed || !SAFE_NAME.test(parsed.file)) continue;
    if (!isRecordFileName(parsed.file)) continue;
    const path = `${dir}${parsed.file}`;
    const known = files.get(path);
    if (known === undefined || parsed.seq < known.at) {
      files.set(path, { path, seq: parsed.seq, at: parsed.seq });
    }
  }
  return [...files.values()].sort((a, b) => a.at - b.at);
}

/**
 * A decision's listing by sequence entries when every record file of the gate
 * is numbered (its tree's size is what `order/bytes` says), else `undefined`:
 * the newest buckets' entries from the newest one named like a revoke on,
 * their blobs found in the gate's tree object (read once, not looked up per
 * name).
 */
async function listNumbered(
  objects: ObjectReader,
  tip: string,
  dir: string,
  label: string,
  problems: string[],
): Promise<GateListing | undefined> {
  const [counter, tree] = await objects.at(tip, [SEQ_PATH, dir]);
  const next = parseCounter(blobText(counter));
  if (next === undefined || tree?.type !== "tree") return undefined;
  const entries = objects.entries(tree);
  const order = entries.get(ORDER_DIR);
  if (order?.mode !== "40000") return undefined;
  const orderTree = await treeById(objects, order.oid);
  const bytesEntry = orderTree.get(BYTES_FILE);
  const numbered = bytesEntry && parseCounter(
    blobText((await objects.byId([bytesEntry.oid])).get(bytesEntry.oid)),
  );
  if (numbered === undefined) return undefined;
  const folders = [...entries.values()].filter((entry) =>
    entry.mode === "40000"
  )
    .reduce((sum, entry) => sum + folderBytes(entry.name), 0);
  if (tree.bytes.length !== numbered + folders) return undefined;
  const buckets = [...orderTree.values()]
    .filter((e) => e.mode === "40000" && /^\d{9}$/.test(e.name))
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const names: string[] = [];
  let i = buckets.length - 1;
  for (; i >= 0; i--) {
    names.unshift(...(await treeById(objects, buckets[i].oid)).keys());
    if (names.some(namedExpired)) break;
  }
  let files = numberedFiles(dir, names);
  const cut = files.findLastIndex((file) => namedExpired(file.path));
  if (cut > 0) files = files.slice(cut);
  if (files.length > BY_NAME_AT_MOST) return undefined;
  const revokes = cut >= 0
    ? beforeTheCut(files[0].path, leftOut(dir, entries, files))
    : [];
  if (revokes === undefined) return undefined;
  await locate(objects, entries, dir, files, label, problems);
  await locate(objects, entries, dir, revokes, label, problems);
  return {
    files,
    next,
    partial: i > 0 || cut > 0,
    ...(revokes.length ? { revokes } : {}),
  };
}

/**
 * What a decision reads of the gate from before its newest revoke (`cut`, a
 * path): every earlier revoke (each one's floor counts, `revoke_floor.ts`), or
 * `undefined` when a record file there is named as written after the newest
 * revoke (a revoke written back-dated, or by a clock behind): then the whole
 * gate is read, since what the cut would leave out may still bear.
 * @param cut The newest revoke's path.
 * @param earlier The gate's other record files from before it.
 * @returns The earlier revokes, or `undefined`: read them all.
 */
export function beforeTheCut(
  cut: string,
  earlier: Iterable<Listed>,
): Listed[] | undefined {
  const since = posix.basename(cut).slice(0, TIME_WIDTH);
  const revokes: Listed[] = [];
  for (const file of earlier) {
    const name = posix.basename(file.path);
    // A compaction's summary is dated when it ran, and only tells.
    const summary = name.includes("-folded-");
    if (!summary && name.slice(0, TIME_WIDTH) > since) return undefined;
    if (namedExpired(file.path)) revokes.push(file);
  }
  return revokes;
}

/** The gate's record files that a partial listing (`files`) left out. */
function* leftOut(
  dir: string,
  entries: ReadonlyMap<string, TreeEntry>,
  files: readonly Listed[],
): Generator<Listed> {
  const read = new Set(files.map((file) => file.path));
  for (const entry of entries.values()) {
    const path = `${dir}${entry.name}`;
    if (entry.mode === "40000" || read.has(path)) continue;
    if (isRecordFileName(entry.name)) yield { path, at: -Infinity };
  }
}

/**
 * Lists a gate at `tip`: by its sequence entries when it can (see the module),
 * else the whole gate in one `ls-tree`, refused files (links, submodules, too
 * large) reported as problems.
 * @param objects The clone's checked objects.
 * @param tip The tip.
 * @param dir `gates/<name>/<gate>/`.
 * @param options How problems name the branch, whether for a decision, and the
 *   order of a branch without numbers.
 * @param problems Receives the refused files.
 * @returns The files in branch order.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its name.
 */
export async function listGate(
  objects: ObjectReader,
  tip: string,
  dir: string,
  options: ListOptions,
  problems: string[],
): Promise<GateListing> {
  const fast = options.live
    ? await listNumbered(objects, tip, dir, options.label, problems)
    : undefined;
  return fast ?? await listWhole(objects, tip, dir, options, problems);
}

/**
 * The most record files a decision looks up by name; past it (no revoke for
 * thousands of records) the gate is listed whole.
 */
const BY_NAME_AT_MOST = 2000;

/**
 * Finds the blobs of files listed by name among the gate tree's entries, and
 * their sizes in one `cat-file --batch-check`; a refused or missing one is
 * dropped, refused ones reported.
 */
async function locate(
  objects: ObjectReader,
  entries: ReadonlyMap<string, TreeEntry>,
  dir: string,
  files: Listed[],
  label: string,
  problems: string[],
): Promise<void> {
  const located = files.filter((file) =>
    entries.has(file.path.slice(dir.length))
  );
  const entryOf = (file: Listed) => entries.get(file.path.slice(dir.length))!;
  const sizes = await objects.sizes(located.map((file) => entryOf(file).oid));
  const kept = located.filter((file, i) => {
    const { mode, oid } = entryOf(file);
    const refused = refusal(mode, sizes[i]?.size ?? 0);
    if (refused) problems.push(`${label}:${file.path}: ${refused}`);
    file.oid = oid;
    return refused === undefined && sizes[i]?.type === "blob";
  });
  files.splice(0, files.length, ...kept);
}

/** Why a listed record file does not count, if it does not. */
function refusal(mode: string, size: number): string | undefined {
  return mode !== "100644" && mode !== "100755"
    ? "is not a regular file (a link or a submodule); it does not count"
    : size > MAX_RECORD_BYTES
    ? `is larger than ${formatBytes(MAX_RECORD_BYTES)}; it does not count`
    : undefined;
}

/**
 * Lists the whole gate with sizes and modes, and its sequence entries, from
 * the checked trees of the gate, its `order` buckets and its `sets`.
 * @param objects The clone's checked objects.
 * @param tip The tip.
 * @param dir `gates/<name>/<gate>/`.
 * @param options How problems name the branch; a branch without numbers.
 * @param problems Receives the refused files.
 * @returns The files in branch order.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its name.
 */
export async function listWhole(
  objects: ObjectReader,
  tip: string,
  dir: string,
  options: ListOptions,
  problems: string[],
): Promise<GateListing> {
  const { kinds } = options;
  const [counter, tree] = await objects.at(tip, [SEQ_PATH, dir]);
  const entries = tree?.type === "tree"
    ? objects.entries(tree)
    : new Map<string, TreeEntry>();
  const sub = (name: string) => {
    const entry = entries.get(name);
    return entry?.mode === "40000" ? treeById(objects, entry.oid) : new Map();
  };
  const [order, setsTree] = await Promise.all([sub(ORDER_DIR), sub("sets")]);
  const buckets = [...order.values()].filter((e) => e.mode === "40000");
  const bucketTrees = await objects.byId(buckets.map((e) => e.oid));
  const numbers = new Map<string, number>();
  for (const bucket of buckets) {
    const object = bucketTrees.get(bucket.oid);
    if (object?.type !== "tree") continue;
    for (const name of objects.entries(object).keys()) {
      const entry = parseOrderName(name);
      if (kinds && entry && !namedAs(entry.file, kinds)) continue;
      const path = entry && `${dir}${entry.file}`;
      if (path && !(numbers.get(path)! <= entry!.seq)) {
        numbers.set(path, entry!.seq);
      }
    }
  }
  // Every entry of `sets`, whatever its mode: readSetsAt refuses one that is
  // not a plan set. A `sets` that is not a folder is left to it to report.
  const setsEntry = entries.get("sets");
  const sets = setsEntry && setsEntry.mode !== "40000"
    ? undefined
    : new Map([...setsTree.values()].map((e) => [e.name, e.oid]));
  const records = [...entries.values()].filter((entry) =>
    isRecordFileName(entry.name) && entry.mode !== "40000" &&
    (kinds === undefined || namedAs(entry.name, kinds))
  );
  const sizes = await objects.sizes(records.map((entry) => entry.oid));
  const files: Listed[] = [];
  records.forEach((entry, i) => {
    const path = `${dir}${entry.name}`;
    const refused = sizes[i]?.type === "blob"
      ? refusal(entry.mode, sizes[i]!.size)
      : "is not a regular file (a link or a submodule); it does not count";
    if (refused) problems.push(`${options.label}:${path}: ${refused}`);
    else files.push({ path, oid: entry.oid, at: Infinity });
  });
  for (const file of files) {
    const seq = numbers.get(file.path);
    if (seq !== undefined) file.seq = seq;
    file.at = seq ?? Infinity;
  }
  files.sort((a, b) =>
    a.at - b.at || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const next = parseCounter(blobText(counter));
  return {
    files,
    ...(next === undefined ? {} : { next }),
    ...(sets ? { sets } : {}),
    partial: false,
  };
}
