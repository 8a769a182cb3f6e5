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
 * then the whole gate is listed. Each commit that publishes records carries
 * their numbers' entries and the advanced counter, so the push's
 * compare-and-swap that publishes the records publishes their numbers.
 * Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import { blobText, readNamed } from "./_objects.ts";
import type { Git } from "../../git/git.ts";
import { isRecordFileName } from "../../gate/record_name.ts";

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

/** The bucket folder of a number: `order/<number / 1000, 9 digits>`. */
function bucketOf(seq: number): string {
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

/** A file the commit writes besides the records: a number's entry, the counter. */
export interface ExtraFile {
  /** Its path. */
  path: string;
  /** Its text. */
  text: string;
}

/** Whether a path is a record file of a gate (`gates/<name>/<gate>/<file>`). */
function isRecordPath(path: string): boolean {
  return path.split("/").length === 4 && path.startsWith("gates/") &&
    isRecordFileName(posix.basename(path));
}

/**
 * The numbers' entries and the counter for a commit adding `paths` on `base`:
 * each path `base` lacks that is a record file gets the next number. One
 * `cat-file --batch` reads the counter and which paths `base` has.
 * @param ctx The ledger.
 * @param base The tip the commit goes on (`undefined`: a new branch).
 * @param paths The paths the commit adds.
 * @returns The extra files to write (none when nothing is numbered).
 * @throws {GitError} When git fails.
 */
export async function numberFiles(
  ctx: { git: Git; cwd: string },
  base: string | undefined,
  paths: readonly string[],
): Promise<ExtraFile[]> {
  const gates = [
    ...new Set(paths.filter(isRecordPath).map((path) => posix.dirname(path))),
  ];
  const found = base === undefined ? [] : await readNamed(ctx.git, ctx.cwd, [
    `${base}:${SEQ_PATH}`,
    ...paths.map((path) => `${base}:${path}`),
  ]);
  let next = parseCounter(blobText(found[0])) ?? 0;
  const numbered: string[] = [];
  paths.forEach((path, i) => {
    if (found[i + 1] === undefined && isRecordPath(path)) numbered.push(path);
  });
  if (numbered.length === 0) return [];
  const extra: ExtraFile[] = numbered.map((path) => ({
    path: orderPath(path, next++),
    text: "",
  }));
  return [
    ...extra,
    ...await gateBytes(ctx, base, gates, numbered),
    { path: SEQ_PATH, text: `${next}\n` },
  ];
}

/**
 * Each gate's `order/bytes` advanced by the entries of its newly numbered
 * files (from 0 where there is none: a new gate, a base numbered whole).
 */
async function gateBytes(
  ctx: { git: Git; cwd: string },
  base: string | undefined,
  gates: readonly string[],
  numbered: readonly string[],
): Promise<ExtraFile[]> {
  const dirs = [...new Set([...gates, ...numbered.map(posix.dirname)])];
  const before = base === undefined ? [] : await readNamed(
    ctx.git,
    ctx.cwd,
    dirs.map((dir) => `${base}:${dir}/${ORDER_DIR}/${BYTES_FILE}`),
  );
  return dirs.map((dir, i) => {
    const added = numbered.filter((path) => posix.dirname(path) === dir)
      .reduce((sum, path) => sum + entryBytes(posix.basename(path)), 0);
    const was = parseCounter(blobText(before[i])) ?? 0;
    return {
      path: `${dir}/${ORDER_DIR}/${BYTES_FILE}`,
      text: `${was + added}\n`,
    };
  });
}
