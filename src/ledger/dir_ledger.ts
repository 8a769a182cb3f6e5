/**
 * The directory ledger (SPEC.md §5.1, §5.2): one immutable JSON file per record
 * under `<root>/gates/<name>/<gate>/`, written to a temporary name and moved into
 * place so concurrent writers (threads, processes, runners sharing a disk) lose
 * nothing. It implements `LedgerStore`; it decides nothing about gates.
 * @module
 */

import { link, lstat, mkdir, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import {
  entriesOf,
  errorCode,
  messageOf,
  nextTurn,
  segmentsOf,
} from "./_dir_listing.ts";
import { InputError } from "../errors.ts";
import { BoundedReadError, readBoundedSync } from "../fs/read_bounded.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import { type Clock, realClock } from "../clock.ts";
import { MAX_RECORD_BYTES } from "../limits.ts";
import { screenRecords } from "./screen_records.ts";
import type { GateRecords, GateRef, LedgerStore } from "./ledger_store.ts";
import { parseRecord, RecordError } from "./parse_record.ts";
import { type RandomBytes, randomHex, webRandomBytes } from "./random_hex.ts";
import {
  checkLedgerSegment,
  isRecordFileName,
  recordFileName,
  temporaryName,
} from "./record_name.ts";
import {
  type AppliedRecord,
  formatRecord,
  type LedgerRecord,
} from "./records.ts";
import { sortRecords } from "./sort_records.ts";

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

/** A record that could not be written; nothing was recorded. */
export class LedgerWriteError extends Error {
  /**
   * Makes the error `cannot write record "<path>": <why>`.
   * @param path The record's final path.
   * @param why What went wrong.
   * @param options The underlying error, as `cause`.
   */
  constructor(path: string, why: string, options?: ErrorOptions) {
    super(`cannot write record "${path}": ${why}`, options);
    this.name = "LedgerWriteError";
  }
}

/**
 * Reads one record file: the record, or one problem line. Synchronous on purpose:
 * for thousands of small files, one blocking open/read/close each is several times
 * faster than the thread-pool round trips of `fs/promises`.
 */
function readOne(
  scratch: Uint8Array,
  path: string,
  name: string,
  gate: string,
): LedgerRecord | string {
  let text: string;
  try {
    text = readBoundedSync(path, { maxBytes: MAX_RECORD_BYTES }, scratch);
  } catch (error) {
    if (error instanceof BoundedReadError) {
      return `${path}: ${error.why}; it does not count`;
    }
    return `${path}: cannot read the record: ${messageOf(error)}`;
  }
  try {
    const record = parseRecord(text, path);
    if (record.name !== name || record.gate !== gate) {
      return `${path}: record is for gate "${record.gate}" of "${record.name}", ` +
        `not gate "${gate}" of "${name}"`;
    }
    return record;
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
}

/**
 * Reads a claim file back: the winning `applied` record, `undefined` when there is
 * none. A claim that is there but not a valid record (a crash, a hand edit) is an
 * input error: the approval's spend cannot be told, so nothing may apply under it.
 */
function readClaim(path: string): LedgerRecord | undefined {
  let text: string;
  try {
    text = readBoundedSync(path, { maxBytes: MAX_RECORD_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw new InputError(
      `cannot read the claim ${messageOf(error)}; remove it and approve again`,
    );
  }
  try {
    return parseRecord(text, path);
  } catch (error) {
    throw new InputError(
      `the claim ${messageOf(error)}; remove it and approve again`,
    );
  }
}

/**
 * Moves a fully written temporary file to its final name without ever replacing
 * an existing file: a hard link (which fails if the name exists), or, where the
 * file system has no hard links, a rename after checking the name is free.
 */
async function publish(temp: string, final: string): Promise<void> {
  try {
    await link(temp, final);
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST") {
      throw new LedgerWriteError(final, "it already exists");
    }
    if (
      !["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EINVAL"].includes(
        code ?? "",
      )
    ) {
      throw error;
    }
  }
  const taken = await lstat(final).then(() => true, () => false);
  if (taken) throw new LedgerWriteError(final, "it already exists");
  await rename(temp, final);
}

/** Writes `text` to a new file (`wx`) and flushes it to disk. */
async function writeNew(path: string, text: string): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

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
  const gateSegments = (name: string, gate: string, ...more: string[]) => {
    const segments = [
      "gates",
      checkLedgerSegment("name", name),
      checkLedgerSegment("gate", gate),
      ...more,
    ];
    refuseLinks(root, segments, "the ledger");
    return join(root, ...segments);
  };
  const gateDir = (name: string, gate: string) => gateSegments(name, gate);

  const store: DirLedger = {
    root,

    describe: () => `directory ledger ${root}`,

    /**
     * Reads only `<root>/gates/<name>/<gate>/`: every `*.json` entry that is not a
     * temporary file, sorted by timestamp then id. Files are read synchronously
     * in chunks of `readChunk`, yielding to the event loop between chunks.
     * Malformed records, unreadable files and records of another gate become
     * `problems`; a missing directory reads as no records.
     */
    async readGate(name: string, gate: string): Promise<GateRecords> {
      const dir = gateDir(name, gate);
      const files = entriesOf(dir).filter(isRecordFileName).sort();
      const scratch = new Uint8Array(MAX_RECORD_BYTES + 1);
      const records: LedgerRecord[] = [];
      const problems: string[] = [];
      for (let i = 0; i < files.length; i++) {
        if (i > 0 && i % chunk === 0) await nextTurn();
        const item = readOne(scratch, join(dir, files[i]), name, gate);
        if (typeof item === "string") problems.push(item);
        else records.push(item);
      }
      return screenRecords(
        { records: sortRecords(records), problems },
        clock.now(),
      );
    },

    /**
     * Atomic and never overwriting: the record is validated, written to a new
     * hidden temporary file in the gate's directory (`wx`, then fsync), linked
     * to its final name (which fails if the name exists) and the temporary name
     * removed. A reader sees the whole record or none; a crash leaves at most a
     * temporary file, which readers skip. Safe across threads and processes.
     * Where the file system has no hard links, the record is renamed into place
     * after checking its name is free (its id's 128 random bits keep names apart).
     */
    async write(record: LedgerRecord): Promise<void> {
      const dir = gateDir(record.name, record.gate);
      const fileName = recordFileName(record);
      const text = formatRecord(record);
      parseRecord(text, fileName);
      const final = join(dir, fileName);
      const temp = join(dir, temporaryName(fileName, randomHex(8, random)));
      try {
        await mkdir(dir, { recursive: true });
        gateDir(record.name, record.gate);
        await writeNew(temp, text);
        await publish(temp, final);
      } catch (error) {
        if (error instanceof LedgerWriteError) throw error;
        if (error instanceof InputError) throw error;
        throw new LedgerWriteError(final, messageOf(error), { cause: error });
      } finally {
        await unlink(temp).catch(() => {});
      }
    },

    /**
     * Atomic across processes: the claim is a file named for the approval,
     * `<gate dir>/claims/<approvalId>.json`, published without overwriting (a
     * hard link fails when the name exists). The first decision to publish it
     * wins and then writes its `applied` record; a loser reads the winner's claim.
     * Readers of the gate skip the `claims` directory.
     */
    async claimApproval(record: AppliedRecord): Promise<AppliedRecord> {
      const dir = gateSegments(record.name, record.gate, "claims");
      const final = join(
        dir,
        `${checkLedgerSegment("approval id", record.approvalId)}.json`,
      );
      const text = formatRecord(record);
      const temp = join(dir, temporaryName("claim", randomHex(8, random)));
      try {
        await mkdir(dir, { recursive: true });
        gateSegments(record.name, record.gate, "claims");
        await writeNew(temp, text);
        await publish(temp, final);
      } catch (error) {
        if (error instanceof InputError) throw error;
        const winner = readClaim(final);
        if (winner?.kind === "applied") return winner;
        throw error instanceof LedgerWriteError
          ? error
          : new LedgerWriteError(final, messageOf(error), { cause: error });
      } finally {
        await unlink(temp).catch(() => {});
      }
      await store.write(record);
      return record;
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
