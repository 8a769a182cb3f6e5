/**
 * Listing a gate of the git ledger at a tip, in branch order, as cheaply as its
 * tree allows: while the gate's `order/bytes` accounts for its tree's size
 * (every record file numbered), only the names of its sequence entries are
 * listed (for a decision, only the newest buckets, back to a revoke) and the
 * records are read by name; otherwise the whole gate is listed with sizes and
 * modes. Private to the git ledger.
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

/**
 * Lists by sequence entries when every record file of the gate is numbered
 * (its tree's size is what `order/bytes` says), else `undefined`.
 */
async function listNumbered(
  git: Git,
  cwd: string,
  tip: string,
  dir: string,
  live: boolean,
): Promise<GateListing | undefined> {
  const order = `${tip}:${dir}${ORDER_DIR}`;
  const [[tree, sets, orderDir], [counter, bytes]] = await Promise.all([
    infoNamed(git, cwd, [`${tip}:${dir}`, `${tip}:${dir}sets`, order]),
    readNamed(git, cwd, [`${tip}:${SEQ_PATH}`, `${order}/${BYTES_FILE}`]),
  ]);
  const next = parseCounter(blobText(counter));
  const numbered = parseCounter(blobText(bytes));
  if (next === undefined || numbered === undefined || tree === undefined) {
    return undefined;
  }
  const expected = numbered + (orderDir ? folderBytes(ORDER_DIR) : 0) +
    (sets?.type === "tree" ? folderBytes("sets") : 0);
  if (tree.size !== expected) return undefined;
  if (!live) {
    const entries = await namesIn(git, cwd, order, true);
    return { files: numberedFiles(dir, entries), next, partial: false };
  }
  const buckets = (await namesIn(git, cwd, order))
    .filter((name) => /^\d{9}$/.test(name)).sort();
  const entries: string[] = [];
  let i = buckets.length - 1;
  for (; i >= 0; i--) {
    const names = await namesIn(git, cwd, `${order}/${buckets[i]}`);
    entries.push(...names);
    if (names.some(namedExpired)) break;
  }
  return { files: numberedFiles(dir, entries), next, partial: i > 0 };
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
  const fast = await listNumbered(git, cwd, tip, dir, options.live === true);
  if (fast) return fast;
  return await listWhole(git, cwd, tip, dir, options, problems);
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
  for (const blob of listed) {
    const rest = blob.path.slice(dir.length);
    if (blob.path === SEQ_PATH) counter = blob.oid;
    else if (rest.startsWith(`${ORDER_DIR}/`)) {
      const entry = parseOrderName(posix.basename(rest));
      const path = entry && `${dir}${entry.file}`;
      if (path && !(numbers.get(path)! <= entry!.seq)) {
        numbers.set(path, entry!.seq);
      }
    } else if (!rest.includes("/") && isRecordFileName(rest)) {
      const refused = blob.mode !== "100644" && blob.mode !== "100755"
        ? "is not a regular file (a link or a submodule); it does not count"
        : blob.size > MAX_RECORD_BYTES
        ? `is larger than ${formatBytes(MAX_RECORD_BYTES)}; it does not count`
        : undefined;
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
  const next = counter === undefined
    ? undefined
    : parseCounter(blobText((await readNamed(git, cwd, [counter]))[0]));
  return { files, ...(next === undefined ? {} : { next }), partial: false };
}
