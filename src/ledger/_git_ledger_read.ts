/**
 * Reading the git ledger at one tip: a gate's records in the order they reached
 * the branch (the first-parent commit that added each file), and the gates the
 * tip holds. Reads only the gate's tree (`ls-tree`, `log` limited to the gate,
 * `cat-file --batch`). Private to the git ledger; fetching is the caller's.
 * @module
 */

import { posix } from "node:path";
import type { Git } from "../git/git.ts";
import { readObjects } from "../git/git_plumbing.ts";
import { formatBytes, MAX_RECORD_BYTES } from "../limits.ts";
import { blobsAt } from "./_git_ledger_tree.ts";
import type { GateRecords, GateRef } from "./ledger_store.ts";
import { parseRecord, RecordError } from "./parse_record.ts";
import {
  isRecordFileName,
  isTemporaryName,
  LEDGER_SEGMENT,
} from "./record_name.ts";
import type { LedgerRecord } from "./records.ts";
import { compareRecords } from "./sort_records.ts";

const decoder = new TextDecoder();

/**
 * Maps each file added under `dir` in the first-parent history of `tip` to the
 * position of the commit that added it (0 = the oldest).
 */
async function arrivalOrder(
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

/**
 * Reads every record of one gate at `tip`, oldest first in branch order: by the
 * first-parent commit that added the file, then (files added by one commit) by
 * timestamp and id. Malformed records, unreadable blobs and records of another
 * gate become `problems`, named `<label>:<path>`.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The branch tip to read (`undefined`: no ledger yet).
 * @param name The spec's `name` (a checked ledger segment).
 * @param gate The gate (a checked ledger segment).
 * @param label How problems name the branch (`chant/ledger`).
 * @param arrivedAfter Tells, by a file's path and blob, whether it reached the
 *   branch after a mark; those records are listed in `late`.
 * @returns The records and problems, and the records that arrived late.
 * @throws {GitError} When git fails.
 */
export async function readGateAt(
  git: Git,
  cwd: string,
  tip: string | undefined,
  name: string,
  gate: string,
  label: string,
  arrivedAfter?: (path: string, oid: string) => boolean,
): Promise<GateRecords & { late: Set<LedgerRecord> }> {
  const late = new Set<LedgerRecord>();
  if (tip === undefined) return { records: [], problems: [], late };
  const dir = `gates/${name}/${gate}/`;
  const problems: string[] = [];
  const files = (await blobsAt(git, cwd, tip, [dir]))
    .filter((file) => isRecordFileName(posix.basename(file.path)))
    .filter((file) => {
      const refused = file.mode !== "100644" && file.mode !== "100755"
        ? "is not a regular file (a link or a submodule); it does not count"
        : file.size > MAX_RECORD_BYTES
        ? `is larger than ${formatBytes(MAX_RECORD_BYTES)}; it does not count`
        : undefined;
      if (refused) problems.push(`${label}:${file.path}: ${refused}`);
      return refused === undefined;
    });
  if (files.length === 0) return { records: [], problems, late };
  const [order, blobs] = await Promise.all([
    arrivalOrder(git, cwd, tip, dir),
    readObjects(git, cwd, files.map((file) => file.oid)),
  ]);
  const found: { record: LedgerRecord; at: number }[] = [];
  for (const file of files) {
    const shown = `${label}:${file.path}`;
    const bytes = blobs.get(file.oid);
    if (bytes === undefined) {
      problems.push(`${shown}: cannot read the record: its blob is missing`);
      continue;
    }
    try {
      const record = parseRecord(decoder.decode(bytes), shown, problems);
      if (record.name !== name || record.gate !== gate) {
        problems.push(
          `${shown}: record is for gate "${record.gate}" of "${record.name}", ` +
            `not gate "${gate}" of "${name}"`,
        );
        continue;
      }
      found.push({ record, at: order.get(file.path) ?? Infinity });
      if (arrivedAfter?.(file.path, file.oid)) late.add(record);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      problems.push(error.message);
    }
  }
  found.sort((a, b) => a.at - b.at || compareRecords(a.record, b.record));
  return { records: found.map((item) => item.record), problems, late };
}

/**
 * Lists the gates `tip` holds records for (`gates/<name>/<gate>` directories),
 * sorted by name then gate.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The branch tip (`undefined`: no ledger yet).
 * @param name Only this spec name's gates, when given.
 * @returns The gates.
 * @throws {GitError} When git fails.
 */
export async function listGatesAt(
  git: Git,
  cwd: string,
  tip: string | undefined,
  name?: string,
): Promise<GateRef[]> {
  if (tip === undefined) return [];
  const under = name === undefined ? "gates/" : `gates/${name}/`;
  const stdout = await git.run([
    "--literal-pathspecs",
    "ls-tree",
    "--full-tree",
    "-r",
    "-d",
    "-z",
    "--name-only",
    tip,
    "--",
    under,
  ], { cwd });
  const gates: GateRef[] = [];
  for (const path of stdout.split("\0")) {
    const parts = path.split("/");
    if (parts.length !== 3 || parts[0] !== "gates") continue;
    const [, each, gate] = parts;
    const ok = [each, gate].every((s) =>
      LEDGER_SEGMENT.test(s) && !isTemporaryName(s)
    );
    if (ok) gates.push({ name: each, gate });
  }
  const key = (ref: GateRef) => [ref.name, ref.gate] as const;
  return gates.sort((a, b) => {
    const [an, ag] = key(a);
    const [bn, bg] = key(b);
    return an < bn ? -1 : an > bn ? 1 : ag < bg ? -1 : ag > bg ? 1 : 0;
  });
}
