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
import type { Git } from "../git/git.ts";
import { formatBytes, MAX_RECORD_BYTES } from "../limits.ts";
import { blobText, infoNamed, readNamed } from "./_git_ledger_objects.ts";
import {
  BYTES_FILE,
  folderBytes,
  ORDER_DIR,
  parseCounter,
  parseOrderName,
  SAFE_NAME,
  SEQ_PATH,
} from "./_git_ledger_order.ts";
import { blobsAt } from "./_git_ledger_tree.ts";
import { isRecordFileName } from "./record_name.ts";

/** A record file of the gate, with its place in the order. */
export interface Listed {
  /** `gates/<name>/<gate>/<file>`. */
  path: string;
  /** Its blob; absent when listed by name only (read it by path). */
  oid?: string;
  /** Its sequence number, when it has one. */
  seq?: number;
  /** Its place: the number, the commit on a branch without numbers, or last. */
  at: number;
}

/** A gate as listed. */
export interface GateListing {
  /** Its record files, oldest first. */
  files: Listed[];
  /** The tip's counter, when it has one. */
  next?: number;
  /** The counter's blob, when the listing found it but did not read it. */
  counter?: string;
  /** The gate's plan sets by file name, with their blobs (a whole listing's). */
  sets?: Map<string, string>;
  /** Whether older files were left out (a decision's listing). */
  partial: boolean;
}

/** How to list. */
export interface ListOptions {
  /** How problems name the branch. */
  label: string;
  /** Only the newest buckets, back to one holding a file named like a revoke. */
  live?: boolean;
  /** The order of a branch written before numbers. */
  legacy: (tip: string, dir: string) => Promise<Map<string, number>>;
}

/** Whether a record file's name says it is a revoke (`…-expired-….json`). */
export function namedExpired(path: string): boolean {
  return posix.basename(path).includes("-expired-");
}

/** Lists names in a tree (`ls-tree -z --name-only`, `-r` when asked). */
async function namesIn(
  git: Git,
  cwd: string,
  tree: string,
  recursive = false,
): Promise<string[]> {
  const args = ["ls-tree", "-z", "--name-only", ...(recursive ? ["-r"] : [])];
  const out = await git.run([...args, tree], { cwd });
  return out.split("\0").filter((name) => name !== "");
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

/** An entry of a tree object; its id is read only when asked for. */
interface TreeEntry {
  mode: string;
  name: string;
  /** The object id, in hex. */
  oid(): string;
}

/** A tree object's entries. */
function treeEntries(bytes: Uint8Array): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (let at = 0; at < bytes.length;) {
    const space = bytes.indexOf(0x20, at);
    const nul = bytes.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) break;
    const id = bytes.subarray(nul + 1, nul + 21);
    entries.push({
      mode: decoder.decode(bytes.subarray(at, space)),
      name: decoder.decode(bytes.subarray(space + 1, nul)),
      oid: () =>
        Array.from(id, (b) => b.toString(16).padStart(2, "0")).join(""),
    });
    at = nul + 21;
  }
  return entries;
}

const decoder = new TextDecoder();

/**
 * A decision's listing by sequence entries when every record file of the gate
 * is numbered (its tree's size is what `order/bytes` says), else `undefined`:
 * the newest buckets' entries from the newest one named like a revoke on,
 * their blobs found in the gate's tree object (read once, not looked up per
 * name).
 */
async function listNumbered(
  git: Git,
  cwd: string,
  tip: string,
  dir: string,
  label: string,
  problems: string[],
): Promise<GateListing | undefined> {
  const [counter, tree] = await readNamed(git, cwd, [
    `${tip}:${SEQ_PATH}`,
    `${tip}:${dir.slice(0, -1)}`,
  ]);
  const next = parseCounter(blobText(counter));
  if (next === undefined || tree?.type !== "tree") return undefined;
  const entries = treeEntries(tree.bytes);
  // Paths below the gate are looked up from its subtrees' ids: a path through
  // the gate's own tree (thousands of entries) costs a read of all of it.
  const order = entries.find((entry) =>
    entry.name === ORDER_DIR && entry.mode === "40000"
  )?.oid();
  if (order === undefined) return undefined;
  const [bytes] = await readNamed(git, cwd, [`${order}:${BYTES_FILE}`]);
  const numbered = parseCounter(blobText(bytes));
  if (numbered === undefined) return undefined;
  const folders = entries.filter((entry) => entry.mode === "40000")
    .reduce((sum, entry) => sum + folderBytes(entry.name), 0);
  if (tree.bytes.length !== numbered + folders) return undefined;
  const buckets = (await namesIn(git, cwd, order))
    .filter((name) => /^\d{9}$/.test(name)).sort();
  const names: string[] = [];
  let i = buckets.length - 1;
  for (; i >= 0; i--) {
    names.unshift(...await namesIn(git, cwd, `${order}:${buckets[i]}`));
    if (names.some(namedExpired)) break;
  }
  let files = numberedFiles(dir, names);
  const cut = files.findLastIndex((file) => namedExpired(file.path));
  if (cut > 0) files = files.slice(cut);
  if (files.length > BY_NAME_AT_MOST) return undefined;
  await locate(git, cwd, entries, dir, files, label, problems);
  return { files, next, partial: i > 0 || cut > 0 };
}

/**
 * Lists a gate at `tip`: by its sequence entries when it can (see the module),
 * else the whole gate in one `ls-tree`, refused files (links, submodules, too
 * large) reported as problems.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The tip.
 * @param dir `gates/<name>/<gate>/`.
 * @param options How problems name the branch, whether for a decision, and the
 *   order of a branch without numbers.
 * @param problems Receives the refused files.
 * @returns The files in branch order.
 * @throws {GitError} When git fails.
 */
export async function listGate(
  git: Git,
  cwd: string,
  tip: string,
  dir: string,
  options: ListOptions,
  problems: string[],
): Promise<GateListing> {
  const fast = options.live
    ? await listNumbered(git, cwd, tip, dir, options.label, problems)
    : undefined;
  return fast ?? await listWhole(git, cwd, tip, dir, options, problems);
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
  git: Git,
  cwd: string,
  entries: readonly TreeEntry[],
  dir: string,
  files: Listed[],
  label: string,
  problems: string[],
): Promise<void> {
  const byName = new Map(
    files.map((file) => [file.path.slice(dir.length), file]),
  );
  const found = new Map<Listed, { mode: string; oid: string }>();
  for (const entry of entries) {
    const file = byName.get(entry.name);
    if (file) found.set(file, { mode: entry.mode, oid: entry.oid() });
  }
  const located = files.filter((file) => found.has(file));
  const sizes = await infoNamed(
    git,
    cwd,
    located.map((file) => found.get(file)!.oid),
  );
  const kept = located.filter((file, i) => {
    const { mode, oid } = found.get(file)!;
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

/** Lists the whole gate with sizes and modes, and its sequence entries. */
export async function listWhole(
  git: Git,
  cwd: string,
  tip: string,
  dir: string,
  options: ListOptions,
  problems: string[],
): Promise<GateListing> {
  const listed = await blobsAt(git, cwd, tip, [SEQ_PATH, dir], true);
  const numbers = new Map<string, number>();
  let counter: string | undefined;
  const files: Listed[] = [];
  const sets = new Map<string, string>();
  for (const blob of listed) {
    const rest = blob.path.slice(dir.length);
    if (blob.path === SEQ_PATH) counter = blob.oid;
    else if (rest.startsWith("sets/")) sets.set(rest.slice(5), blob.oid);
    else if (rest.startsWith(`${ORDER_DIR}/`)) {
      const entry = parseOrderName(posix.basename(rest));
      const path = entry && `${dir}${entry.file}`;
      if (path && !(numbers.get(path)! <= entry!.seq)) {
        numbers.set(path, entry!.seq);
      }
    } else if (!rest.includes("/") && isRecordFileName(rest)) {
      const refused = refusal(blob.mode, blob.size);
      if (refused) problems.push(`${options.label}:${blob.path}: ${refused}`);
      else files.push({ path: blob.path, oid: blob.oid, at: Infinity });
    }
  }
  const legacy = counter === undefined && files.length > 0
    ? await options.legacy(tip, dir)
    : undefined;
  for (const file of files) {
    const seq = numbers.get(file.path);
    if (seq !== undefined) file.seq = seq;
    file.at = (legacy ? legacy.get(file.path) : seq) ?? Infinity;
  }
  files.sort((a, b) =>
    a.at - b.at || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  return { files, ...(counter ? { counter } : {}), sets, partial: false };
}
