/**
 * Compacting the directory ledger (docs/ledger.md, "Compacting the ledger"): what
 * `planFold` says no decision reads again moves from `gates/<name>/<gate>/`
 * (record files, claim files, plan sets only they name) to the same place under
 * `archive/`, and a `folded` summary takes its place; `ledger log` reads both.
 * Only the files listed when the gate was read move, so a record written
 * meanwhile never does; a plan set that such a record names is moved back. When
 * it settles, the revoke `spentCut` allows is written first, dated before any
 * record written later, and the fold goes through it. One compaction at a
 * time (a lock file in `archive/`). Private to the directory ledger.
 * @module
 */

import { link, mkdir, open, readFile, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InputError } from "../errors.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import { MAX_RECORD_BYTES } from "../limits.ts";
import { readRecordFile } from "./_dir_files.ts";
import { entriesOf, errorCode } from "./_dir_listing.ts";
import type {
  CompactOptions,
  CompactReport,
  FoldedGate,
  GateHistory,
  GateRef,
} from "./ledger_store.ts";
import { foldedFields, planFold } from "../gate/plan_fold.ts";
import { planSetFileName } from "../gate/plan_set_file.ts";
import { isRecordFileName } from "../gate/record_name.ts";
import {
  type ExpiredRecord,
  type LedgerRecord,
  newRecord,
  newStamp,
} from "../gate/records.ts";
import { randomHex } from "../gate/random_hex.ts";
import type { PlanSetMember } from "../gate/plan_set_file.ts";
import { cutRevoke, settlingDigests, spentCut } from "../gate/spent_cut.ts";
import type { RandomBytes } from "../gate/random_hex.ts";
import { sortRecords } from "../gate/sort_records.ts";
import type { GateRecords } from "../gate/screen_records.ts";

/** The archive folder, under the ledger's root. */
export const ARCHIVE_DIR = "archive";

/** What compaction needs of the directory ledger. */
export interface DirCompactIo {
  /** The ledger's root. */
  root: string;
  /** Lists the gates. */
  listGates(name?: string): Promise<GateRef[]>;
  /** Writes a record (the summary, a settling revoke) as the ledger writes any. */
  write(record: LedgerRecord): Promise<void>;
  /** Reads plan sets as the ledger does. */
  readPlanSets(
    name: string,
    gate: string,
    digests: readonly string[],
  ): Promise<Map<string, PlanSetMember[]>>;
  /** The gate's directory, checked for links. */
  gateDir(name: string, gate: string): string;
  /** The ids' random source. */
  random: RandomBytes;
  /** Tells the time. */
  clock: { now(): number };
}

/** A gate's record files as read: each record and its path below the gate. */
function readFiles(
  dir: string,
  ref: GateRef,
  problems: string[] = [],
): Map<LedgerRecord, string> {
  const scratch = new Uint8Array(MAX_RECORD_BYTES + 1);
  const found = new Map<LedgerRecord, string>();
  const take = (rel: string) => {
    const item = readRecordFile(scratch, join(dir, rel), ref.name, ref.gate);
    if (typeof item === "string") problems.push(item);
    else found.set(item, rel);
  };
  for (const file of entriesOf(dir).filter(isRecordFileName)) take(file);
  for (const approval of entriesOf(join(dir, "claims"))) {
    refuseLinks(dir, ["claims", approval], "the ledger");
    for (const file of entriesOf(join(dir, "claims", approval))) {
      if (isRecordFileName(file)) take(`claims/${approval}/${file}`);
    }
  }
  return found;
}

/**
 * Folds the chosen gates (see the module).
 * @param io The ledger's parts.
 * @param options Which gates, and whether only to say what would fold.
 * @returns What folded, per gate.
 * @throws {InputError} When another compaction holds the lock, or a link is
 *   in the way.
 */
export async function compactDir(
  io: DirCompactIo,
  options: CompactOptions,
): Promise<CompactReport> {
  const refs = options.gate !== undefined && options.name !== undefined
    ? [{ name: options.name, gate: options.gate }]
    : await io.listGates(options.name);
  const gates: FoldedGate[] = [];
  refuseLinks(io.root, [ARCHIVE_DIR], "the ledger");
  await mkdir(join(io.root, ARCHIVE_DIR), { recursive: true });
  const lock = join(io.root, ARCHIVE_DIR, ".compact.lock");
  await open(lock, "wx").then((handle) => handle.close(), (error) => {
    if (errorCode(error) !== "EEXIST") throw error;
    throw new InputError(
      `cannot compact ${io.root}: "${lock}" is there; another compaction ` +
        `runs, or one stopped halfway (then remove it and run again)`,
    );
  });
  try {
    for (const ref of refs) {
      const folded = await compactGate(io, ref, options);
      if (folded) gates.push(folded);
    }
  } finally {
    await unlink(lock).catch(() => {});
  }
  return { gates };
}

async function compactGate(
  io: DirCompactIo,
  ref: GateRef,
  options: CompactOptions,
): Promise<FoldedGate | undefined> {
  const dryRun = options.dryRun === true;
  const dir = io.gateDir(ref.name, ref.gate);
  const files = readFiles(dir, ref);
  const read = sortRecords([...files.keys()]);
  const cut = options.settle ? await settling(io, ref, read) : undefined;
  if (cut === undefined && options.settle === "only") return undefined;
  const plan = planFold(
    cut === undefined ? read : [...read, cut],
    (record) => record !== cut,
    cut === undefined ? options.through : "newest",
  );
  if (plan === undefined) return undefined;
  const there = new Set(entriesOf(join(dir, "sets")));
  const sets = [...plan.named].filter((digest) => !plan.kept.has(digest))
    .map(planSetFileName).filter((file) => there.has(file))
    .map((file) => `sets/${file}`);
  const records = plan.fold.filter((r) => r.kind !== "folded").length;
  const settled = cut === undefined ? {} : { settled: cut };
  if (dryRun) return { ...ref, records, sets: sets.length, ...settled };
  if (cut !== undefined) await io.write(cut);
  const archive = [ARCHIVE_DIR, "gates", ref.name, ref.gate];
  const moved = await moveAll(io.root, dir, archive, [
    ...plan.fold.map((record) => files.get(record)!),
    ...sets,
  ]);
  const summary = newRecord(
    "folded",
    foldedFields(
      plan,
      sets.filter((rel) => moved.has(rel)).length,
      archive.join("/"),
    ),
    newStamp(io.clock, io.random),
  );
  await io.write(summary);
  await bringBackSets(io.root, dir, archive, ref, sets);
  return { ...ref, records, sets: sets.length, summary, ...settled };
}

/** The revoke that settles one gate (`spentCut`), if it may be cut. */
async function settling(
  io: DirCompactIo,
  ref: GateRef,
  records: readonly LedgerRecord[],
): Promise<ExpiredRecord | undefined> {
  const digests = settlingDigests(records);
  const sets = await io.readPlanSets(ref.name, ref.gate, digests);
  const cut = spentCut(records, sets, io.clock.now());
  return cut && cutRevoke(ref, cut, randomHex(16, io.random));
}

/**
 * Moves files from `dir` to the same path under `root/archive…`: linked there
 * (never over a file; one already there with the same content is taken as
 * moved), then removed here.
 * @returns The paths moved.
 */
async function moveAll(
  root: string,
  dir: string,
  archive: readonly string[],
  rels: readonly string[],
): Promise<Set<string>> {
  const moved = new Set<string>();
  for (const rel of rels) {
    const segments = [...archive, ...rel.split("/")];
    refuseLinks(root, segments, "the ledger");
    const to = join(root, ...segments);
    await mkdir(dirname(to), { recursive: true });
    refuseLinks(root, segments, "the ledger");
    if (await linkOrSame(join(dir, rel), to)) {
      await unlink(join(dir, rel));
      moved.add(rel);
    }
  }
  return moved;
}

/** Links `from` to `to`; `true` when done, or `to` holds the same bytes already. */
async function linkOrSame(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    const [a, b] = await Promise.all([readFile(from), readFile(to)]);
    return a.length === b.length && a.every((byte, i) => byte === b[i]);
  }
}

/**
 * Moves back each folded plan set that a record written during the fold names
 * (its writer checked the set before the fold moved it).
 */
async function bringBackSets(
  root: string,
  dir: string,
  archive: readonly string[],
  ref: GateRef,
  sets: readonly string[],
): Promise<void> {
  if (sets.length === 0) return;
  const named = new Set<string>();
  for (const record of readFiles(dir, ref).keys()) {
    if (record.kind === "pending" || record.kind === "approval") {
      named.add(`sets/${planSetFileName(record.planDigest)}`);
    }
  }
  for (const rel of sets.filter((set) => named.has(set))) {
    const from = join(root, ...archive, ...rel.split("/"));
    if (await linkOrSame(from, join(dir, rel))) await unlink(from);
  }
}

/**
 * A gate's records at the tip and those compaction moved to `archive/`, oldest
 * first (by time, ties by id, as the directory ledger orders records).
 * @param root The ledger's root.
 * @param ref The gate.
 * @param tip The gate as read (screened).
 * @returns The whole history, the folded records marked.
 */
export function readDirHistory(
  root: string,
  ref: GateRef,
  tip: GateRecords,
): GateHistory {
  const archive = [ARCHIVE_DIR, "gates", ref.name, ref.gate];
  refuseLinks(root, archive, "the ledger");
  const problems = [...tip.problems];
  const folded = new Set(
    readFiles(join(root, ...archive), ref, problems).keys(),
  );
  return {
    records: sortRecords([...tip.records, ...folded]),
    problems,
    folded,
  };
}
