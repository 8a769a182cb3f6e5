/**
 * Reading the git ledger at one tip: a gate's records in the order they reached
 * the branch (by sequence number, `_order.ts`), the gates the tip holds, and a
 * gate's plan sets. Reads only the gate's tree (one `ls-tree`, one `cat-file
 * --batch`), never the branch's history. Private to the git ledger; fetching is
 * the caller's.
 * @module
 */

import {
  compareRecords,
  type GateRecords,
  loosens,
} from "../../gate/screen_records.ts";
import { type BatchObject, blobText, type ObjectReader } from "./_objects.ts";
import {
  beforeTheCut,
  type GateListing,
  type Listed,
  listGate,
  type ListOptions,
  listWhole,
  namedExpired,
  TIME_WIDTH,
} from "./_list.ts";
import type { GateRef, StoredSet } from "../ledger_store.ts";
import { ShapeError } from "../../input/shape_error.ts";
import { parseRecord } from "../../gate/parse_record.ts";
import {
  compactTime,
  isTemporaryName,
  LEDGER_SEGMENT,
} from "../../gate/record_name.ts";
import { posix } from "node:path";
import type { LedgerRecord } from "../../gate/records.ts";
import { planSetFileName } from "../../gate/plan_set_file.ts";
import { formatBytes, MAX_PLANS_FILE_BYTES } from "../../limits.ts";

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
  /** The gate's plan sets by file name, with their blobs (a whole read's). */
  sets?: Map<string, string>;
}

/** Options of {@linkcode readGateAt}. */
export type ReadGateAtOptions = ListOptions;

/**
 * Reads every record of one gate at `tip` (with `live`, only those from its
 * newest revoke on; with `kinds`, only files named as one of them), oldest
 * first in branch order: by sequence number (records without one last), then
 * (records of one number or commit) by timestamp and id. The gate is listed
 * as `_list.ts` says and its records read in one `cat-file
 * --batch` (another per record named like a revoke that is not one).
 * Malformed records, unreadable blobs and records of another gate become
 * `problems`, named `<label>:<path>`. Every object is checked against its
 * name (`_objects.ts`).
 * @param objects The clone's checked objects.
 * @param tip The branch tip to read (`undefined`: no ledger yet).
 * @param name The spec's `name` (a checked ledger segment).
 * @param gate The gate (a checked ledger segment).
 * @param options How problems name the branch, whether to read only what a
 *   decision needs, and the order of a branch without numbers.
 * @returns The records and problems, and where each record was read.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its name.
 */
export async function readGateAt(
  objects: ObjectReader,
  tip: string | undefined,
  name: string,
  gate: string,
  options: ReadGateAtOptions,
): Promise<GateReadAt> {
  if (tip === undefined) return { records: [], problems: [], files: new Map() };
  const dir = `gates/${name}/${gate}/`;
  const at = { objects, name, gate, options };
  const listed: string[] = [];
  const first = await readListed(
    at,
    await listGate(objects, tip, dir, options, listed),
    listed,
  );
  if (first) return first;
  // A decision's listing left out older buckets and found no revoke in it.
  const whole: string[] = [];
  return (await readListed(
    at,
    await listWhole(objects, tip, dir, options, whole),
    whole,
  ))!;
}

/**
 * Reads the listed records (with `live`, back to the newest real revoke);
 * `undefined` when the listing is partial and holds no real revoke.
 */
async function readListed(
  at: {
    objects: ObjectReader;
    name: string;
    gate: string;
    options: ReadGateAtOptions;
  },
  listing: GateListing,
  listed: readonly string[],
): Promise<GateReadAt | undefined> {
  const { objects, name, gate, options } = at;
  const problems = [...listed];
  const files = new Map<LedgerRecord, LocatedRecord>();
  const found: { record: LedgerRecord; at: number }[] = [];
  const shown = (file: Listed) => `${options.label}:${file.path}`;
  const parse = (file: Listed, bytes: Uint8Array | undefined) => {
    if (bytes === undefined) {
      problems.push(
        `${shown(file)}: cannot read the record: its blob is missing`,
      );
      return undefined;
    }
    try {
      const record = parseRecord(decoder.decode(bytes), shown(file), problems);
      if (record.name !== name || record.gate !== gate) {
        problems.push(
          `${
            shown(file)
          }: record is for gate "${record.gate}" of "${record.name}", ` +
            `not gate "${gate}" of "${name}"`,
        );
        return undefined;
      }
      found.push({ record, at: file.at });
      files.set(record, {
        path: file.path,
        oid: file.oid!,
        ...(file.seq === undefined ? {} : { seq: file.seq }),
      });
      return record;
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      problems.push(error.message);
      return undefined;
    }
  };
  const all = listing.files;
  let end = all.length;
  const next = listing.next;
  let cut = 0;
  for (let from = options.live ? end - 1 : 0;; from--) {
    while (from > 0 && !namedExpired(all[from].path)) from--;
    const slice = all.slice(Math.max(0, from), end);
    const blobs = await objects.byId(slice.map((file) => file.oid!));
    const read = slice.map((file) => parse(file, blobs.get(file.oid!)?.bytes));
    if (read[0]?.kind === "expired") {
      // A cut whose time is not its name's left out what its name says came
      // before it: read the whole gate.
      const named = posix.basename(slice[0].path).slice(0, TIME_WIDTH);
      const dated = compactTime(Date.parse(read[0].timestamp));
      if (options.live && listing.partial && named !== dated) return undefined;
      cut = Math.max(0, from);
      break;
    }
    if (from <= 0) {
      if (options.live && listing.partial) return undefined;
      break;
    }
    end = from;
  }
  // What the cut leaves out that still bears: every earlier revoke, or all of
  // the gate when a file before the cut is named as written after it.
  const before = all.slice(0, cut);
  const earlier = listing.revokes ??
    (cut > 0 ? beforeTheCut(all[cut].path, before) ?? before : []);
  if (earlier.length) {
    const blobs = await objects.byId(earlier.map((file) => file.oid!));
    for (const file of earlier) parse(file, blobs.get(file.oid!)?.bytes);
  }
  // A file without a sequence number did not arrive through chant-wave's
  // writes, so when it came is not known: it is ordered as first when it could
  // loosen the gate (any revoke ends it) and as last otherwise (fail closed).
  for (const item of found) {
    if (item.at === Infinity && loosens(item.record)) item.at = -Infinity;
  }
  found.sort((a, b) =>
    a.at === b.at ? compareRecords(a.record, b.record) : a.at < b.at ? -1 : 1
  );
  return {
    records: found.map((item) => item.record),
    problems,
    files,
    ...(next === undefined ? {} : { next }),
    ...(listing.sets ? { sets: listing.sets } : {}),
  };
}

/**
 * Lists the gates `tip` holds records for (`gates/<name>/<gate>` directories),
 * sorted by name then gate, reading the trees through the object reader (no
 * process of its own).
 * @param objects The ledger's object reader.
 * @param tip The branch tip (`undefined`: no ledger yet).
 * @param name Only this spec name's gates, when given.
 * @returns The gates.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its id.
 */
export async function listGatesAt(
  objects: ObjectReader,
  tip: string | undefined,
  name?: string,
): Promise<GateRef[]> {
  if (tip === undefined) return [];
  const ok = (segment: string) =>
    LEDGER_SEGMENT.test(segment) && !isTemporaryName(segment);
  const subtrees = (tree: BatchObject | undefined) =>
    tree?.type === "tree"
      ? [...objects.entries(tree)].filter(([segment, entry]) =>
        entry.mode === "40000" && ok(segment)
      )
      : [];
  const [found] = await objects.at(tip, [
    name === undefined ? "gates" : `gates/${name}`,
  ]);
  const names = name === undefined
    ? subtrees(found)
    : ok(name) && found !== undefined
    ? [[name, undefined] as const]
    : [];
  const trees = await objects.byId(
    names.flatMap(([, entry]) => entry === undefined ? [] : [entry.oid]),
  );
  const gates: GateRef[] = [];
  for (const [each, entry] of names) {
    const tree = entry === undefined ? found : trees.get(entry.oid);
    for (const [gate] of subtrees(tree)) gates.push({ name: each, gate });
  }
  const key = (ref: GateRef) => [ref.name, ref.gate] as const;
  return gates.sort((a, b) => {
    const [an, ag] = key(a);
    const [bn, bg] = key(b);
    return an < bn ? -1 : an > bn ? 1 : ag < bg ? -1 : ag > bg ? 1 : 0;
  });
}

/**
 * Reads the plan sets of some digests at `tip` in one `cat-file --batch`, each
 * a blob of at most 64 MiB (every object on the way checked against its
 * name); whether it is the set of its digest is the reader's to check
 * (`parsePlanSet`). A set the tip does not hold is none; one that is there
 * and cannot be read is an error.
 * @param objects The clone's checked objects.
 * @param tip The tip (`undefined`: no branch yet).
 * @param dir The gate's `sets` folder.
 * @param digests The set digests.
 * @param label How messages name the branch (`chant-wave-ledger`).
 * @param known The folder's entries by file name, when a listing of the tip
 *   found them (then the folder is not looked up again).
 * @returns Digest → the set's text and source, for each set the tip holds.
 * @throws {GitError} When git fails.
 * @throws {ShapeError} Naming `<label>:<path>` when `sets` is not a folder, or
 *   a set is not a blob of at most 64 MiB.
 */
export async function readSetsAt(
  objects: ObjectReader,
  tip: string | undefined,
  dir: string,
  digests: readonly string[],
  label: string,
  known?: ReadonlyMap<string, string>,
): Promise<Map<string, StoredSet>> {
  const sets = new Map<string, StoredSet>();
  if (tip === undefined || digests.length === 0) return sets;
  const ids = known ?? await entriesAt(objects, tip, dir, label);
  const held = digests.filter((digest) => ids.has(planSetFileName(digest)));
  const oids = held.map((d) => ids.get(planSetFileName(d))!);
  const sizes = await objects.sizes(oids);
  held.forEach((digest, i) => {
    const source = `${label}:${dir}/${planSetFileName(digest)}`;
    const size = sizes[i];
    if (size === undefined) {
      throw new ShapeError("", "names an object this clone lacks", source);
    }
    if (size.type !== "blob") {
      throw new ShapeError("", "is not a file", source);
    }
    if (size.size > MAX_PLANS_FILE_BYTES) {
      throw new ShapeError(
        "",
        `is larger than ${formatBytes(MAX_PLANS_FILE_BYTES)}`,
        source,
      );
    }
  });
  const read = await objects.byId(oids);
  held.forEach((digest, i) => {
    const source = `${label}:${dir}/${planSetFileName(digest)}`;
    const blob = read.get(oids[i]);
    if (blob === undefined) {
      throw new ShapeError("", "names an object this clone lacks", source);
    }
    sets.set(digest, { text: blobText(blob)!, source });
  });
  return sets;
}

/**
 * The entries of the `sets` folder at `tip` by name (none when there is none).
 * @throws {ShapeError} When `sets` is there and not a folder.
 */
async function entriesAt(
  objects: ObjectReader,
  tip: string,
  dir: string,
  label: string,
): Promise<Map<string, string>> {
  const [folder] = await objects.at(tip, [dir]);
  if (folder === undefined) return new Map();
  if (folder.type !== "tree") {
    throw new ShapeError("", "is not a folder", `${label}:${dir}`);
  }
  return new Map(
    [...objects.entries(folder).values()].map((e) => [e.name, e.oid]),
  );
}
