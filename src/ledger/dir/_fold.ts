/**
 * Compacting the directory ledger (docs/ledger.md, "Compacting the ledger"): what
 * `planFold` says no decision reads again moves from `gates/<name>/<gate>/`
 * (record files, claim files, plan sets only they name) to the same place under
 * `archive/`, and a `folded` summary takes its place; `ledger log` reads both.
 * Only the files listed when the gate was read move, so a record written
 * meanwhile never does; a plan set that such a record names is moved back. When
 * it settles, the revoke `spentCut` allows is written first, dated before any
 * record written later, and the fold goes through it. One compaction at a
 * time (a lock file in `archive/`). Which records fold is planned over the
 * store (`ledger.ts`); this only moves files. Private to the directory ledger.
 * @module
 */

import { link, mkdir, open, readFile, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InputError } from "../../errors.ts";
import { refuseLinks } from "../../fs/refuse_links.ts";
import { recordText } from "../../gate/parse_record.ts";
import { planSetFileName } from "../../gate/plan_set_file.ts";
import { isRecordFileName } from "../../gate/record_name.ts";
import type { LedgerRecord } from "../../gate/records.ts";
import { sortRecords } from "../../gate/screen_records.ts";
import { MAX_RECORD_BYTES } from "../../limits.ts";
import type {
  FoldedGate,
  FoldPlanner,
  FoldScope,
  GateRef,
  LedgerStore,
} from "../ledger_store.ts";
import { entriesOf, errorCode, readRecordFile } from "./_files.ts";

/** The archive folder, under the ledger's root. */
export const ARCHIVE_DIR = "archive";

/** What folding needs of the directory ledger. */
export interface DirFoldIo {
  /** The ledger's root. */
  root: string;
  /** Lists the gates. */
  listGates(name?: string): Promise<GateRef[]>;
  /** The gate's directory, checked for links. */
  gateDir(ref: GateRef): string;
  /** Writes a record file (the summary, a settling revoke) as any is written. */
  writeRecord(record: LedgerRecord, text: string): Promise<void>;
  /** Reads plan sets as the ledger does. */
  read: LedgerStore["read"];
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
 * @param scope Which gates, and whether only to say what would fold.
 * @param planner Plans each gate's fold.
 * @returns What folded, per gate.
 * @throws {InputError} When another compaction holds the lock, or a link is
 *   in the way.
 */
export async function foldDir(
  io: DirFoldIo,
  scope: FoldScope,
  planner: FoldPlanner,
): Promise<FoldedGate[]> {
  const refs = scope.gate !== undefined && scope.name !== undefined
    ? [{ name: scope.name, gate: scope.gate }]
    : await io.listGates(scope.name);
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
      const folded = await foldGate(io, ref, scope, planner);
      if (folded) gates.push(folded);
    }
  } finally {
    await unlink(lock).catch(() => {});
  }
  return gates;
}

async function foldGate(
  io: DirFoldIo,
  ref: GateRef,
  scope: FoldScope,
  planner: FoldPlanner,
): Promise<FoldedGate | undefined> {
  const dir = io.gateDir(ref);
  const files = readFiles(dir, ref);
  const fold = await planner(ref, {
    records: sortRecords([...files.keys()]),
    foldable: () => true,
    sets: (digests) => io.read(ref, digests),
  });
  if (fold === undefined) return undefined;
  const { plan, cut } = fold;
  const there = new Set(entriesOf(join(dir, "sets")));
  const sets = [...plan.named].filter((digest) => !plan.kept.has(digest))
    .map(planSetFileName).filter((file) => there.has(file))
    .map((file) => `sets/${file}`);
  const settled = cut === undefined ? {} : { settled: cut };
  const report = { ...ref, records: fold.records, sets: sets.length };
  if (scope.dryRun) return { ...report, ...settled };
  if (cut !== undefined) await io.writeRecord(cut, recordText(cut));
  const archive = [ARCHIVE_DIR, "gates", ref.name, ref.gate];
  const moved = await moveAll(io.root, dir, archive, [
    ...plan.fold.map((record) => files.get(record)!),
    ...sets,
  ]);
  const summary = fold.summary(
    sets.filter((rel) => moved.has(rel)).length,
    archive.join("/"),
  );
  await io.writeRecord(summary, recordText(summary));
  await bringBackSets(io.root, dir, archive, ref, sets);
  return { ...report, summary, ...settled };
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
 * The records compaction moved out of a gate to `archive/`, unscreened.
 * @param root The ledger's root.
 * @param ref The gate.
 * @param problems Receives what could not be read.
 * @returns The folded records.
 */
export function readArchive(
  root: string,
  ref: GateRef,
  problems: string[],
): Set<LedgerRecord> {
  const archive = [ARCHIVE_DIR, "gates", ref.name, ref.gate];
  refuseLinks(root, archive, "the ledger");
  return new Set(readFiles(join(root, ...archive), ref, problems).keys());
}
