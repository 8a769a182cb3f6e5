/**
 * Reading the git ledger at one tip: a gate's records in the order they reached
 * the branch (by sequence number, `_git_ledger_order.ts`), and the gates the
 * tip holds. Reads only the gate's tree (one `ls-tree`, one `cat-file
 * --batch`), and never the branch's history but on a branch written before
 * numbers. Private to the git ledger; fetching is the caller's.
 * @module
 */

import { posix } from "node:path";
import type { Git } from "../git/git.ts";
import { readObjects } from "../git/git_plumbing.ts";
import { formatBytes, MAX_RECORD_BYTES } from "../limits.ts";
import { blobText, readNamed } from "./_git_ledger_objects.ts";
import {
  ORDER_DIR,
  parseCounter,
  parseOrderName,
  SEQ_PATH,
} from "./_git_ledger_order.ts";
import { blobsAt, type ListedBlob } from "./_git_ledger_tree.ts";
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

/** Where a record was read: its path, blob and sequence number. */
export interface LocatedRecord {
  /** `gates/<name>/<gate>/<file>`. */
  path: string;
  /** The blob's object id. */
  oid: string;
  /** Its sequence number; absent for a record written without one. */
  seq?: number;
}

/** A gate as read at a tip: its records, and where each was read. */
export interface GateReadAt extends GateRecords {
  /** Each record's path, blob and number. */
  files: Map<LedgerRecord, LocatedRecord>;
  /** The tip's counter (the next number); absent on a branch without numbers. */
  next?: number;
}

/** Options of {@linkcode readGateAt}. */
export interface ReadGateAtOptions {
  /** How problems name the branch (`chant/ledger`). */
  label: string;
  /**
   * Read only what a decision can need: the records from the gate's newest
   * revoke on (an `expired` record; nothing before it counts, SPEC.md §5.3).
   */
  live?: boolean;
  /** The order of a branch written before numbers (it needs its history). */
  legacy: (tip: string, dir: string) => Promise<Map<string, number>>;
}

/** A listed record file, with its place in the order. */
interface Listed extends ListedBlob {
  seq?: number;
  at: number;
}

/** Whether a record file's name says it is a revoke (`…-expired-….json`). */
function namedExpired(path: string): boolean {
  return posix.basename(path).includes("-expired-");
}

/**
 * Lists a gate at `tip` in one `ls-tree`: its record files in branch order (by
 * sequence number, or on a branch without numbers by the commit that added
 * each), the counter, and the refused files as problems.
 */
async function listGate(
  git: Git,
  cwd: string,
  tip: string,
  dir: string,
  options: ReadGateAtOptions,
  problems: string[],
): Promise<{ files: Listed[]; next?: number }> {
  const listed = await blobsAt(git, cwd, tip, [
    SEQ_PATH,
    dir,
    `${dir}${ORDER_DIR}/`,
  ]);
  const numbers = new Map<string, number>();
  let counter: ListedBlob | undefined;
  const records: ListedBlob[] = [];
  for (const blob of listed) {
    if (blob.path === SEQ_PATH) counter = blob;
    else if (blob.path.startsWith(`${dir}${ORDER_DIR}/`)) {
      const entry = parseOrderName(posix.basename(blob.path));
      const path = entry && `${dir}${entry.file}`;
      if (path && !(numbers.get(path)! <= entry!.seq)) {
        numbers.set(path, entry!.seq);
      }
    } else if (isRecordFileName(posix.basename(blob.path))) records.push(blob);
  }
  const files = records.filter((file) => {
    const refused = file.mode !== "100644" && file.mode !== "100755"
      ? "is not a regular file (a link or a submodule); it does not count"
      : file.size > MAX_RECORD_BYTES
      ? `is larger than ${formatBytes(MAX_RECORD_BYTES)}; it does not count`
      : undefined;
    if (refused) problems.push(`${options.label}:${file.path}: ${refused}`);
    return refused === undefined;
  });
  const legacy = counter === undefined && files.length > 0
    ? await options.legacy(tip, dir)
    : undefined;
  const placed: Listed[] = files.map((file) => {
    const seq = numbers.get(file.path);
    const at = legacy ? legacy.get(file.path) : seq;
    return {
      ...file,
      ...(seq === undefined ? {} : { seq }),
      at: at ?? Infinity,
    };
  });
  placed.sort((a, b) =>
    a.at - b.at || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const next = counter && parseCounter(
    blobText((await readNamed(git, cwd, [counter.oid]))[0]),
  );
  return { files: placed, ...(next === undefined ? {} : { next }) };
}

/**
 * Reads every record of one gate at `tip` (with `live`, only those from its
 * newest revoke on), oldest first in branch order: by sequence number (records
 * without one last), then (records of one number or commit) by timestamp and
 * id. One `ls-tree` lists the gate, one `cat-file --batch` reads the records
 * (another per record named like a revoke that is not one). Malformed records,
 * unreadable blobs and records of another gate become `problems`, named
 * `<label>:<path>`.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip The branch tip to read (`undefined`: no ledger yet).
 * @param name The spec's `name` (a checked ledger segment).
 * @param gate The gate (a checked ledger segment).
 * @param options How problems name the branch, whether to read only what a
 *   decision needs, and the order of a branch without numbers.
 * @returns The records and problems, and where each record was read.
 * @throws {GitError} When git fails.
 */
export async function readGateAt(
  git: Git,
  cwd: string,
  tip: string | undefined,
  name: string,
  gate: string,
  options: ReadGateAtOptions,
): Promise<GateReadAt> {
  const files = new Map<LedgerRecord, LocatedRecord>();
  if (tip === undefined) return { records: [], problems: [], files };
  const dir = `gates/${name}/${gate}/`;
  const problems: string[] = [];
  const listed = await listGate(git, cwd, tip, dir, options, problems);
  const found: { record: LedgerRecord; at: number }[] = [];
  const parse = (file: Listed, bytes: Uint8Array | undefined) => {
    const shown = `${options.label}:${file.path}`;
    if (bytes === undefined) {
      problems.push(`${shown}: cannot read the record: its blob is missing`);
      return undefined;
    }
    try {
      const record = parseRecord(decoder.decode(bytes), shown, problems);
      if (record.name !== name || record.gate !== gate) {
        problems.push(
          `${shown}: record is for gate "${record.gate}" of "${record.name}", ` +
            `not gate "${gate}" of "${name}"`,
        );
        return undefined;
      }
      found.push({ record, at: file.at });
      files.set(record, {
        path: file.path,
        oid: file.oid,
        ...(file.seq === undefined ? {} : { seq: file.seq }),
      });
      return record;
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      problems.push(error.message);
      return undefined;
    }
  };
  let end = listed.files.length;
  for (let from = options.live ? end - 1 : 0;; from--) {
    while (from > 0 && !namedExpired(listed.files[from].path)) from--;
    const slice = listed.files.slice(Math.max(0, from), end);
    const blobs = await readObjects(git, cwd, slice.map((file) => file.oid));
    const read = slice.map((file) => parse(file, blobs.get(file.oid)));
    if (from <= 0 || read[0]?.kind === "expired") break;
    end = from;
  }
  found.sort((a, b) => a.at - b.at || compareRecords(a.record, b.record));
  return {
    records: found.map((item) => item.record),
    problems,
    files,
    ...(listed.next === undefined ? {} : { next: listed.next }),
  };
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
