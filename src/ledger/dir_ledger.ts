/**
 * The directory ledger (SPEC.md §5.1, §5.2): one immutable JSON file per record
 * under `<root>/gates/<name>/<gate>/`, written to a temporary name and moved into
 * place so concurrent writers (threads, processes, runners sharing a disk) lose
 * nothing; claims as one file per plan under `claims/` and plan sets under
 * `sets/` beside them. It implements `LedgerStore`; it decides nothing about
 * gates.
 * @module
 */

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Clock, realClock } from "../clock.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_PLANS_FILE_BYTES } from "../limits.ts";
import { publishClaims } from "./_dir_claims.ts";
import { compactDir, readDirHistory } from "./_dir_compact.ts";
import { LedgerWriteError, writeNewFile } from "./_dir_files.ts";
import { errorCode, messageOf, segmentsOf } from "./_dir_listing.ts";
import { type DirMark, takeDirMark } from "./_dir_mark.ts";
import { readDirGate, refuseLinksOnce } from "./_dir_reading.ts";
import { refuseIfRevoked } from "./claim_by_order.ts";
import { claimLedger } from "../gate/claims.ts";
import type { GateRef, LedgerStore, ReadGateOptions } from "./ledger_store.ts";
import { parseRecord } from "../gate/parse_record.ts";
import {
  formatPlanSet,
  parsePlanSet,
  planSetFileName,
  type PlanSetMember,
} from "../gate/plan_set_file.ts";
import { type RandomBytes, webRandomBytes } from "../gate/random_hex.ts";
import { checkLedgerSegment, recordFileName } from "../gate/record_name.ts";
import { formatRecord, type LedgerRecord } from "../gate/records.ts";

/** The directory ledger's default root, relative to the working directory. */
export const DEFAULT_LEDGER_DIR = ".chant/ledger";

/** Options of {@linkcode dirLedger}. */
export interface DirLedgerOptions {
  /**
   * Where temporary names take their random part from.
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

/** A `LedgerStore` kept in a directory. */
export interface DirLedger extends LedgerStore {
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
 * @param options The random source of temporary names and the read chunk.
 * @returns The store.
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
  const random = options.random ?? webRandomBytes;
  const chunk = Math.max(1, options.readChunk ?? 256);
  const clock = options.clock ?? realClock;
  const realDirs = new Set<string>();
  const gateSegments = (name: string, gate: string, ...more: string[]) => {
    const segments = [
      "gates",
      checkLedgerSegment("name", name),
      checkLedgerSegment("gate", gate),
      ...more,
    ];
    refuseLinksOnce(root, segments, realDirs);
    return join(root, ...segments);
  };
  const gateDir = (name: string, gate: string) => gateSegments(name, gate);
  const written = new Set<string>();
  /** The plan sets this store wrote, by path: written again with their records. */
  const sets = new Map<string, string>();
  const writeSet = async (ref: GateRef, digest: string, text: string) => {
    const dir = gateSegments(ref.name, ref.gate, "sets");
    await mkdir(dir, { recursive: true });
    gateSegments(ref.name, ref.gate, "sets");
    await writeNewFile(dir, planSetFileName(digest), text, random)
      .catch((error) => {
        if (!(error instanceof LedgerWriteError)) throw error;
      });
  };
  let marked: Promise<DirMark> | undefined;

  const readGate = async (
    name: string,
    gate: string,
    options?: ReadGateOptions,
  ) =>
    await readDirGate(
      { dir: gateDir(name, gate), name, gate, chunk, clock, written },
      options,
    );

  const store: DirLedger = {
    root,

    describe: () => `directory ledger ${root}`,

    /**
     * Reads only `<root>/gates/<name>/<gate>/` (its records, and its claims
     * under `claims/`), sorted by timestamp then id. Files are read synchronously
     * in chunks of `readChunk`, yielding to the event loop between chunks. Only
     * regular files of at most 64 KiB count; malformed records, unreadable files,
     * records of another gate and records dated too far ahead become `problems`;
     * a missing directory reads as no records. With `asOf`, a loosening record
     * does not count (unless this store wrote it) when its file was not in the
     * gate's directory at the mark, that directory is another one now, or the
     * file's kernel change time is at or after the mark's.
     */
    readGate,

    /**
     * What each gate of the scope's names holds (one listing per gate), and
     * the kernel's change time of a file made and removed at once in the
     * ledger's root (or the nearest folder above it that exists): the first
     * call's, for every call.
     */
    mark: (scope) => marked ??= takeDirMark(root, random, scope),

    /**
     * Atomic and never overwriting: the record is validated, written to a new
     * hidden temporary file in the gate's directory (`wx`, then fsync), linked
     * to its final name (which fails if the name exists) and the temporary name
     * removed. A reader sees the whole record or none; a crash leaves at most a
     * temporary file, which readers skip. Safe across threads and processes.
     */
    async write(record: LedgerRecord): Promise<void> {
      const dir = gateDir(record.name, record.gate);
      const fileName = recordFileName(record);
      const text = formatRecord(record);
      parseRecord(text, fileName);
      await mkdir(dir, { recursive: true }).catch((error) => {
        throw new LedgerWriteError(join(dir, fileName), String(error));
      });
      gateDir(record.name, record.gate);
      written.add(record.id);
      await writeNewFile(dir, fileName, text, random);
      // A compaction may have moved the set this store wrote since it looked.
      const set = "planDigest" in record &&
        sets.get(`${record.name}\n${record.gate}\n${record.planDigest}`);
      if (set) await writeSet(record, record.planDigest, set);
    },

    /**
     * Atomic across processes: one file per plan and attempt, published without
     * overwriting, so the first job to create it wins; then every plan's
     * standing is read back from the gate (none when the approval was revoked
     * meanwhile: exit 3).
     */
    async claimRuns(claim) {
      const dir = gateDir(claim.name, claim.gate);
      await publishClaims(dir, claim, random);
      const { records } = await readGate(claim.name, claim.gate);
      refuseIfRevoked(records, claim);
      return claimLedger(records, claim.approvalId);
    },

    /**
     * Writes `sets/<hex>.json` unless a plan set of the digest is there, and
     * again after each record this store writes that names the digest, unless
     * it is there (compaction may have moved it meanwhile).
     */
    async writePlanSet(name, gate, digest, pairs) {
      const text = formatPlanSet(digest, pairs);
      sets.set(`${name}\n${gate}\n${digest}`, text);
      await writeSet({ name, gate }, digest, text);
    },

    /**
     * Moves what no decision reads again to `archive/` (`_dir_compact.ts`),
     * one compaction at a time.
     */
    async compact(options = {}) {
      if (options.name !== undefined) checkLedgerSegment("name", options.name);
      if (options.gate !== undefined) checkLedgerSegment("gate", options.gate);
      return await compactDir({
        root,
        listGates: store.listGates,
        write: store.write,
        readPlanSets: store.readPlanSets,
        gateDir,
        random,
        clock,
      }, options);
    },

    /** Reads the gate and what compaction moved of it to `archive/`. */
    async readAll(name, gate) {
      const tip = await readGate(name, gate);
      return readDirHistory(root, { name, gate }, tip);
    },

    /** Reads each digest's `sets/<hex>.json`, checked. */
    async readPlanSets(name, gate, digests) {
      const sets = new Map<string, PlanSetMember[]>();
      for (const digest of digests) {
        const set = await store.readPlanSet(name, gate, digest);
        if (set) sets.set(digest, set);
      }
      return sets;
    },

    /**
     * Reads `sets/<hex>.json` (a regular file, at most 64 MiB), checked; only a
     * file that is not there reads as none.
     */
    async readPlanSet(name, gate, digest) {
      const path = join(
        gateSegments(name, gate, "sets"),
        planSetFileName(digest),
      );
      let text: string;
      try {
        text = await readBounded(path, { maxBytes: MAX_PLANS_FILE_BYTES });
      } catch (error) {
        if (["ENOENT", "ENOTDIR"].includes(errorCode(error) ?? "")) {
          return undefined;
        }
        throw new ShapeError(
          "",
          error instanceof BoundedReadError
            ? error.why
            : `cannot be read: ${messageOf(error)}`,
          path,
        );
      }
      return parsePlanSet(text, digest, path);
    },

    /** Lists `<root>/gates/<name>/<gate>` directories; a missing root lists none. */
    async listGates(name?: string): Promise<GateRef[]> {
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
    },
  };
  return store;
}
