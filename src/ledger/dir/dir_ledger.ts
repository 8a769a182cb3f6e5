/**
 * The directory ledger (SPEC.md §5.1, §5.2): one immutable JSON file per record
 * under `<root>/gates/<name>/<gate>/`, written to a temporary name and moved into
 * place so concurrent writers (threads, processes, runners sharing a disk) lose
 * nothing; claims as one file per plan under `claims/` and plan sets under
 * `sets/` beside them; records ordered by time, then id. The store
 * (`LedgerStore`) and the ledger over it; it decides nothing about gates.
 * @module
 */

import { lstatSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Clock, realClock } from "../../clock.ts";
import { BoundedReadError, readBounded } from "../../fs/read_bounded.ts";
import { refuseLinks } from "../../fs/refuse_links.ts";
import { onlyTightens, sortRecords } from "../../gate/screen_records.ts";
import { planSetFileName } from "../../gate/plan_set_file.ts";
import {
  checkLedgerSegment,
  isRecordFileName,
  namedAs,
  recordFileName,
} from "../../gate/record_name.ts";
import { type RandomBytes, webRandomBytes } from "../../gate/random_hex.ts";
import type { LedgerRecord } from "../../gate/records.ts";
import { ShapeError } from "../../input/shape_error.ts";
import { MAX_PLANS_FILE_BYTES, MAX_RECORD_BYTES } from "../../limits.ts";
import { type Ledger, ledgerOver } from "../ledger.ts";
import type {
  GateListing,
  GateRef,
  LedgerStore,
  ListOptions,
  StoredSet,
} from "../ledger_store.ts";
import { publishClaims, readClaims } from "./_claims.ts";
import {
  entriesOf,
  errorCode,
  LedgerWriteError,
  messageOf,
  nextTurn,
  readRecordFile,
  segmentsOf,
  writeNewFile,
} from "./_files.ts";
import { foldDir, readArchive } from "./_fold.ts";
import {
  asDirMark,
  changedSince,
  changeTimeMs,
  type DirMark,
  heldAtMark,
  takeDirMark,
} from "./_mark.ts";

/** The directory ledger's default root, relative to the working directory. */
export const DEFAULT_LEDGER_DIR = ".chant/ledger";

/** Options of {@linkcode dirLedger}. */
export interface DirLedgerOptions {
  /**
   * Where temporary names and new ids take their random part from.
   * @default {webRandomBytes}
   */
  random?: RandomBytes;
  /**
   * How many record files are read between two turns of the event loop.
   * @default {256}
   */
  readChunk?: number;
  /**
   * The reader's clock: records dated more than five minutes after it do not count.
   * @default {realClock}
   */
  clock?: Pick<Clock, "now">;
}

/** A ledger kept in a directory. */
export interface DirLedger extends Ledger {
  /** The ledger's root directory, as given. */
  readonly root: string;
}

export { LedgerWriteError };

/**
 * Opens the directory ledger at `root`: records live in
 * `<root>/gates/<name>/<gate>/<time>-<kind>-<id>.json`. Nothing is touched until
 * a read or a write.
 * @param root The ledger directory.
 * @default root ".chant/ledger"
 * @param options The random source, the read chunk and the clock.
 * @returns The ledger.
 * @example
 * ```ts
 * const ledger = dirLedger(".chant/ledger");
 * const { records, problems } = await ledger.readGate("tf", "tf-wave-2");
 * ```
 */
export function dirLedger(
  root: string = DEFAULT_LEDGER_DIR,
  options: DirLedgerOptions = {},
): DirLedger {
  const clock = options.clock ?? realClock;
  const random = options.random ?? webRandomBytes;
  return { ...ledgerOver(dirStore(root, options), { clock, random }), root };
}

/**
 * The directory ledger's store (see the module).
 * @param root The ledger directory.
 * @param options The random source of temporary names and the read chunk.
 * @returns The store.
 */
export function dirStore(
  root: string,
  options: DirLedgerOptions = {},
): LedgerStore {
  const random = options.random ?? webRandomBytes;
  const chunk = Math.max(1, options.readChunk ?? 256);
  const realDirs = new Set<string>();
  const gateDir = (ref: GateRef, ...more: string[]) => {
    const segments = [
      "gates",
      checkLedgerSegment("name", ref.name),
      checkLedgerSegment("gate", ref.gate),
      ...more,
    ];
    refuseLinksOnce(root, segments, realDirs);
    return join(root, ...segments);
  };
  /** Makes a gate's folder (or one below it), checked for links before and after. */
  const made = async (ref: GateRef, ...more: string[]) => {
    const dir = gateDir(ref, ...more);
    await mkdir(dir, { recursive: true });
    return gateDir(ref, ...more);
  };
  let marked: Promise<DirMark> | undefined;

  /** Writes one record file: never over another (`LedgerWriteError`). */
  const writeRecord = async (record: LedgerRecord, text: string) => {
    const dir = gateDir(record);
    const fileName = recordFileName(record);
    await mkdir(dir, { recursive: true }).catch((error) => {
      throw new LedgerWriteError(join(dir, fileName), String(error));
    });
    gateDir(record);
    await writeNewFile(dir, fileName, text, random);
  };

  const listGates = async (name?: string): Promise<GateRef[]> => {
    refuseLinks(root, ["gates"], "the ledger");
    const gatesDir = join(root, "gates");
    const names = name === undefined
      ? await segmentsOf(gatesDir)
      : [checkLedgerSegment("name", name)];
    const refs: GateRef[] = [];
    for (const each of names) {
      refuseLinks(gatesDir, [each], "the ledger");
      for (const gate of await segmentsOf(join(gatesDir, each))) {
        refuseLinks(gatesDir, [each, gate], "the ledger");
        refs.push({ name: each, gate });
      }
    }
    return refs;
  };

  const store: LedgerStore = {
    describe: () => `directory ledger ${root}`,

    /**
     * What each gate of the scope's names holds (one listing per gate), and
     * the kernel's change time of a file made and removed at once in the
     * ledger's root (or the nearest folder above it that exists): the first
     * call's, for every call.
     */
    mark: (scope) => marked ??= takeDirMark(root, random, scope),

    /**
     * Lists `<root>/gates/<name>/<gate>` directories (a missing root lists
     * none); or reads only `<root>/gates/<name>/<gate>/` (its records, and
     * its claims under `claims/`), sorted by timestamp then id. Files are read
     * synchronously in chunks of `readChunk`, yielding to the event loop
     * between chunks. With `asOf`, a loosening record arrived late when its
     * file was not in the gate's directory at the mark, that directory is
     * another one now, or the file's kernel change time is at or after the
     * mark's. With `history`, what compaction moved to `archive/` too.
     */
    list:
      ((scope: GateRef | { name?: string }, options?: ListOptions) =>
        options === undefined
          ? listGates(scope.name)
          : listGate(scope as GateRef, gateDir(scope as GateRef), options, {
            root,
            chunk,
          })) as LedgerStore["list"],

    /**
     * Reads each digest's `sets/<hex>.json` (a regular file, at most 64 MiB);
     * only a file that is not there reads as none.
     */
    async read(ref, digests) {
      const sets = new Map<string, StoredSet>();
      for (const digest of digests) {
        const path = join(gateDir(ref, "sets"), planSetFileName(digest));
        try {
          const text = await readBounded(path, {
            maxBytes: MAX_PLANS_FILE_BYTES,
          });
          sets.set(digest, { text, source: path });
        } catch (error) {
          if (["ENOENT", "ENOTDIR"].includes(errorCode(error) ?? "")) continue;
          throw new ShapeError(
            "",
            error instanceof BoundedReadError
              ? error.why
              : `cannot be read: ${messageOf(error)}`,
            path,
          );
        }
      }
      return sets;
    },

    /**
     * Atomic and never overwriting, one file at a time: each written to a new
     * hidden temporary file in its directory (`wx`, then fsync), linked to its
     * final name (which fails if the name exists) and the temporary name
     * removed. A reader sees the whole file or none; a crash leaves at most a
     * temporary file, which readers skip. Safe across threads and processes.
     * A claim is one file per plan and attempt, so the first job to create it
     * wins; a plan set that is there already is left alone.
     */
    async publish(items) {
      for (const item of items) {
        if ("record" in item) await writeRecord(item.record, item.text);
        else if ("claim" in item) {
          await publishClaims(gateDir(item.claim), item.claim, random);
        } else {
          const dir = await made(item.set, "sets");
          const name = planSetFileName(item.set.digest);
          await writeNewFile(dir, name, item.set.text, random)
            .catch((error) => {
              if (!(error instanceof LedgerWriteError)) throw error;
            });
        }
      }
    },

    /**
     * Moves what no decision reads again to `archive/` (`_fold.ts`), one
     * compaction at a time.
     */
    async fold(scope, planner) {
      if (scope.name !== undefined) checkLedgerSegment("name", scope.name);
      if (scope.gate !== undefined) checkLedgerSegment("gate", scope.gate);
      return await foldDir(
        {
          root,
          listGates,
          gateDir: (ref) => gateDir(ref),
          writeRecord,
          read: store.read,
        },
        scope,
        planner,
      );
    },
  };
  return store;
}

/** Reads one gate's folder (see `list` above). */
async function listGate(
  ref: GateRef,
  dir: string,
  options: ListOptions,
  at: { root: string; chunk: number },
): Promise<GateListing> {
  const { name, gate } = ref;
  const scratch = new Uint8Array(MAX_RECORD_BYTES + 1);
  const records: LedgerRecord[] = [];
  const problems: string[] = [];
  const late = new Set<LedgerRecord>();
  const arrived = options.arrival ? new Map<LedgerRecord, number>() : undefined;
  const mark = options.asOf && asDirMark(options.asOf);
  const held = mark && heldAtMark(mark, name, gate, dir);
  const arrivedLate = (file: string, path: string) =>
    !held?.has(file) || changedSince(path, mark as DirMark);
  const read = (path: string) =>
    readRecordFile(scratch, path, name, gate, problems);
  const { kinds, live } = options;
  const listed = entriesOf(dir).filter((file) =>
    isRecordFileName(file) &&
    (kinds === undefined || live === true || namedAs(file, kinds))
  ).sort();
  const files = live ? fromNewestRevoke(listed, dir, read) : listed;
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && i % at.chunk === 0) await nextTurn();
    const path = `${dir}/${files[i]}`;
    const item = read(path);
    if (typeof item === "string") problems.push(item);
    else {
      records.push(item);
      if (arrived && options.arrival!(item)) {
        arrived.set(item, changeTimeMs(path));
      }
      if (mark && !onlyTightens(item) && arrivedLate(files[i], path)) {
        late.add(item);
      }
    }
  }
  if (kinds === undefined || live === true || kinds.includes("claim")) {
    const approvals = new Set(
      records.filter((r) => r.kind === "approval").map((r) => r.id),
    );
    await readClaims(dir, read, records, problems, live && approvals);
  }
  if (options.history) {
    const folded = readArchive(at.root, ref, problems);
    return {
      records: sortRecords([...records, ...folded]),
      problems,
      folded,
    };
  }
  return {
    records: sortRecords(records),
    problems,
    ...(mark ? { late } : {}),
    ...(arrived ? { arrived } : {}),
  };
}

/**
 * Refuses a link on the way to `root/segments…` (SPEC.md §14), looking at each
 * directory once per store: one that was a real directory is not looked at
 * again (so a command checks each directory once, not once per read).
 */
function refuseLinksOnce(
  root: string,
  segments: readonly string[],
  realDirs: Set<string>,
): void {
  let path = root;
  for (const [i, segment] of segments.entries()) {
    path = join(path, segment);
    if (realDirs.has(path)) continue;
    refuseLinks(root, segments.slice(0, i + 1), "the ledger");
    if (!isDirectory(path)) return;
    realDirs.add(path);
  }
}

/**
 * The record files from the gate's newest revoke on (by name, which is the
 * time it was written): nothing before it counts for a decision (SPEC.md §5.3).
 * A file named like a revoke that is not one is passed over.
 */
function fromNewestRevoke(
  files: readonly string[],
  dir: string,
  read: (path: string) => LedgerRecord | string,
): readonly string[] {
  for (let i = files.length - 1; i > 0; i--) {
    if (!files[i].includes("-expired-")) continue;
    const found = read(`${dir}/${files[i]}`);
    if (typeof found !== "string" && found.kind === "expired") {
      // Every revoke's floor counts (`revoke_floor.ts`): the earlier ones too.
      const earlier = files.slice(0, i).filter((f) => f.includes("-expired-"));
      return [...earlier, ...files.slice(i)];
    }
  }
  return files;
}

/** Whether `path` is a directory (not following a link). */
function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
