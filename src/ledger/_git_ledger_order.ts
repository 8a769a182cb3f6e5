/**
 * The git ledger's arrival order without its history (SPEC.md §5.3): every
 * write takes the next sequence numbers from a counter kept at the top of the
 * tree (`seq`, the next number in decimal), advanced by the same
 * compare-and-swap as the write, and names each new record's number beside it:
 * an empty blob at `gates/<name>/<gate>/order/<number, 12 digits>-<file>`. So a
 * reader orders a gate by listing one tree, a decision only the newest
 * buckets of it (`order/<bucket>/`, a thousand numbers each), reading the
 * records by name, while `order/bytes` (the numbered files' share of the gate
 * tree's size) matches: a file written without a number changes the size, and
 * then the whole gate is listed. A branch written before numbers
 * (no `seq`) is numbered once, in the order its records reached it (the
 * first-parent commit that added each file), by the first write that finds it
 * so. Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import type { Git } from "../git/git.ts";

/** The counter's path at the top of the tree. */
export const SEQ_PATH = "seq";
/** The folder of a gate's sequence entries. */
export const ORDER_DIR = "order";

/** A gate's numbered record files' share of its tree's size, beside the buckets. */
export const BYTES_FILE = "bytes";
/** Numbers per bucket folder of `order/`. */
export const BUCKET = 1000;

const DIGITS = 12;
const ENTRY = /^(\d{12})-(.+)$/;
/** The names chant-wave gives records: safe on a `cat-file` line. */
export const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * The bucket folder of a number: `order/<number / 1000, 9 digits>`.
 * @param seq A sequence number.
 * @returns The folder's name.
 */
export function bucketOf(seq: number): string {
  return String(Math.floor(seq / BUCKET)).padStart(9, "0");
}

/**
 * The path of a record's sequence entry.
 * @param recordPath The record's path, `gates/<name>/<gate>/<file>`.
 * @param seq Its sequence number.
 * @returns `gates/<name>/<gate>/order/<bucket>/<seq>-<file>`.
 */
export function orderPath(recordPath: string, seq: number): string {
  const dir = posix.dirname(recordPath);
  const number = String(seq).padStart(DIGITS, "0");
  return `${dir}/${ORDER_DIR}/${bucketOf(seq)}/${number}-${
    posix.basename(recordPath)
  }`;
}

/**
 * What a regular file's entry adds to its folder's tree object: mode `100644`,
 * a space, the name, a NUL and the 20-byte id.
 * @param name The file's name (ASCII).
 * @returns Bytes.
 */
export function entryBytes(name: string): number {
  return 6 + 1 + name.length + 1 + 20;
}

/** What a folder's entry (`40000 <name>`) adds to its parent's tree object. */
export function folderBytes(name: string): number {
  return 5 + 1 + name.length + 1 + 20;
}

/**
 * Reads a sequence entry's name.
 * @param name The entry's file name, `<seq>-<file>`.
 * @returns The number and the record's file name, or `undefined`.
 */
export function parseOrderName(
  name: string,
): { seq: number; file: string } | undefined {
  const match = ENTRY.exec(name);
  return match ? { seq: Number(match[1]), file: match[2] } : undefined;
}

/**
 * Reads the counter's text.
 * @param text The blob's text, or `undefined` when there is none.
 * @returns The next number, or `undefined` when absent or not a number.
 */
export function parseCounter(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}\n?$/.test(text)) return undefined;
  return Number(text.trim());
}

/**
 * Maps each file added under `dir` in the first-parent history of `tip` to the
 * position of the commit that added it (0 = the oldest): the order of a branch
 * written before sequence numbers. Needs the branch's whole history.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The branch tip.
 * @param dir A folder, `gates/` or `gates/<name>/<gate>/`.
 * @returns Path → position.
 * @throws {GitError} When git fails.
 */
export async function legacyOrder(
  git: Git,
  cwd: string,
  tip: string,
  dir: string,
): Promise<Map<string, number>> {
  const stdout = await git.run([
    "--literal-pathspecs",
    "-c",
    "core.quotePath=false",
    "log",
    "--first-parent",
    "--reverse",
    "--root",
    "--no-renames",
    "--diff-filter=A",
    "--name-only",
    "--format=commit %H",
    tip,
    "--",
    dir,
  ], { cwd });
  const order = new Map<string, number>();
  let commit = -1;
  for (const line of stdout.split("\n")) {
    if (line.startsWith("commit ")) commit++;
    else if (line !== "" && !order.has(line)) order.set(line, commit);
  }
  return order;
}
