/**
 * Numbering the files of the git ledger's next commit (SPEC.md §5.3): the
 * counter at the base tip gives each new record file its sequence number, and
 * the commit carries the numbers' entries and the advanced counter, so the
 * push's compare-and-swap that publishes the records publishes their numbers.
 * A base written before numbers is numbered first, once, in the order its
 * records reached it. Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import { blobText, readNamed } from "./_git_ledger_objects.ts";
import {
  BYTES_FILE,
  entryBytes,
  legacyOrder,
  ORDER_DIR,
  orderPath,
  parseCounter,
  SEQ_PATH,
} from "./_git_ledger_order.ts";
import { fetchLedger, type LedgerContext } from "./_git_ledger_sync.ts";
import { blobsAt } from "./_git_ledger_tree.ts";
import { isRecordFileName } from "../gate/record_name.ts";

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
 * The numbers of a base written before numbers: every record file it holds, in
 * the order the first-parent commits added them (then by name).
 */
async function legacyNumbers(
  ctx: LedgerContext,
  base: string,
): Promise<string[]> {
  await fetchLedger(ctx, true);
  const order = await legacyOrder(ctx.git, ctx.cwd, base, "gates/");
  const paths = (await blobsAt(ctx.git, ctx.cwd, base, ["gates/"], true))
    .map((blob) => blob.path).filter(isRecordPath);
  const at = (path: string) => order.get(path) ?? Infinity;
  return paths.sort((a, b) => at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0));
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
  ctx: LedgerContext,
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
  let next = base === undefined ? 0 : parseCounter(blobText(found[0]));
  const numbered: string[] = [];
  if (next === undefined) {
    numbered.push(...await legacyNumbers(ctx, base!));
    next = 0;
  }
  paths.forEach((path, i) => {
    if (found[i + 1] === undefined && isRecordPath(path)) numbered.push(path);
  });
  if (numbered.length === 0) return [];
  const extra: ExtraFile[] = numbered.map((path) => ({
    path: orderPath(path, next!++),
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
  ctx: LedgerContext,
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
