/**
 * The git ledger's reads of gates: a gate at the tip just fetched, with the
 * records that arrived after the job's mark; the mark itself (the tip and its
 * counter); a gate's whole history for `ledger log`. A gate read whole at a tip
 * is kept, and so is a decision's read (from the newest revoke on), so a
 * decision or a mark at the same tip (nothing pushed since) reads no object
 * again. Private to the git ledger; fetching is the caller's `fetchTip`.
 * @module
 */

import type { LedgerRecord, RecordKind } from "../../gate/records.ts";
import { onlyTightens } from "../../gate/screen_records.ts";
import type {
  GateListing,
  GateRef,
  LedgerMark,
  ListOptions,
} from "../ledger_store.ts";
import { readHistoryAt } from "./_fold.ts";
import { blobText, type ObjectReader } from "./_objects.ts";
import { parseCounter, SEQ_PATH } from "./_order.ts";
import { type GateReadAt, listGatesAt, readGateAt } from "./_read.ts";
import { numberedAsIs } from "./_arrival.ts";
import { LEDGER_BRANCH, type LedgerContext } from "./_sync.ts";

/** What the reads need of the store. */
export interface ReadsOf {
  /** Fetches (with a remote) and returns the tip to read. */
  fetchTip(): Promise<string | undefined>;
  /** The tip the last read fetched, if any. */
  lastTip(): Promise<string | undefined> | undefined;
}

/** The reads. */
export interface GateReads {
  /** `LedgerStore.list` of one gate of the git ledger. */
  list(ref: GateRef, options: ListOptions): Promise<GateListing>;
  /** `LedgerStore.mark` of the git ledger (not memoised here). */
  mark(): Promise<GitMark>;
  /**
   * Where the newest whole read of a gate found record `id`: the tip read,
   * the record's path and its number, and for a sealed approval the ledger
   * counter its seal signed (`Seal.ledger`).
   */
  locate(
    name: string,
    gate: string,
    id: string,
  ): { tip: string; path: string; seq?: number; signed?: number } | undefined;
  /**
   * The gate's plan sets at `tip` by file name, with their blobs, when the gate
   * was read whole there.
   */
  setsAt(
    tip: string | undefined,
    name: string,
    gate: string,
  ): ReadonlyMap<string, string> | undefined;
}

/** The most gates kept as read (a command reads a few). */
const KEPT = 16;

/**
 * The records of a gate read whole, from its newest revoke on (with every
 * earlier revoke): what a decision's read at the same tip gives when every
 * record is numbered and none was malformed (then the two are read alike).
 */
function liveOf(whole: GateReadAt | undefined): GateReadAt | undefined {
  if (whole === undefined || whole.problems.length > 0) return undefined;
  const numbered = [...whole.files.values()].every((f) => f.seq !== undefined);
  if (!numbered) return undefined;
  const { records } = whole;
  const from = records.findLastIndex((r) => r.kind === "expired");
  if (from <= 0) return whole;
  // As `_list.ts` lists them: every revoke, and all of the gate
  // when a record before the newest revoke is dated after it.
  const cut = Date.parse(records[from].timestamp);
  const before = records.slice(0, from);
  const later = (r: LedgerRecord) =>
    r.kind !== "folded" && Date.parse(r.timestamp) > cut;
  if (before.some(later)) return whole;
  const revokes = before.filter((r) => r.kind === "expired");
  return { ...whole, records: [...revokes, ...records.slice(from)] };
}

/**
 * Makes the reads of one git ledger.
 * @param ctx The ledger.
 * @param of What the reads need of the store.
 * @returns The reads.
 */
export function gateReads(ctx: LedgerContext, of: ReadsOf): GateReads {
  const kept = new Map<string, GateReadAt>();
  const keep = (key: string, read: GateReadAt) => {
    kept.set(key, read);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  };
  /** A decision's reads (from the newest revoke on), by tip and gate. */
  const liveKept = new Map<string, GateReadAt>();
  const counters = new Map<string, number | undefined>();
  /** The newest whole read of each gate, and its tip. */
  const wholes = new Map<string, { tip: string; read: GateReadAt }>();
  const readAt = async (
    tip: string | undefined,
    name: string,
    gate: string,
    live: boolean,
    kinds?: readonly RecordKind[],
  ) => {
    const key = `${tip}\n${name}\n${gate}`;
    const cached = live
      ? liveKept.get(key) ?? liveOf(kept.get(key))
      : kept.get(key);
    if (cached) {
      if (!live && kinds === undefined && tip !== undefined) {
        wholes.set(`${name}\n${gate}`, { tip, read: cached });
      }
      return cached;
    }
    const read = await readGateAt(ctx.objects, tip, name, gate, {
      label: LEDGER_BRANCH,
      ...(live ? { live: true } : {}),
      ...(kinds === undefined || live ? {} : { kinds }),
    });
    if (tip !== undefined) {
      counters.set(tip, read.next);
      if (live) {
        liveKept.set(key, read);
        if (liveKept.size > KEPT) {
          liveKept.delete(liveKept.keys().next().value!);
        }
      }
      if (!live && kinds === undefined) {
        keep(key, read);
        wholes.set(`${name}\n${gate}`, { tip, read });
      }
    }
    return read;
  };
  /**
   * When the records `wanted` names reached the branch at the earliest: now
   * for one not as the counter numbered it (`unordered`); else no earlier
   * than the newest record of any gate of the rollout numbered before it,
   * since the counter is the branch's one order (SPEC.md §19).
   */
  const arrivals = async (
    tip: string,
    name: string,
    read: GateReadAt,
    wanted: (record: LedgerRecord) => boolean,
  ): Promise<Map<LedgerRecord, number>> => {
    const arrived = await unordered(ctx, tip, read, wanted);
    const numbered = [...read.files].filter(([record, file]) =>
      wanted(record) && !arrived.has(record) && file.seq !== undefined
    );
    if (numbered.length === 0) return arrived;
    const stamps: { seq: number; at: number }[] = [];
    for (const ref of await listGatesAt(ctx.objects, tip, name)) {
      const other = await readAt(tip, name, ref.gate, false);
      for (const [record, file] of other.files) {
        const at = Date.parse(record.timestamp);
        if (file.seq !== undefined && Number.isFinite(at)) {
          stamps.push({ seq: file.seq, at });
        }
      }
    }
    for (const [record, file] of numbered) {
      let bound = -Infinity;
      for (const stamp of stamps) {
        if (stamp.seq < file.seq! && stamp.at > bound) bound = stamp.at;
      }
      if (Number.isFinite(bound)) arrived.set(record, bound);
    }
    return arrived;
  };
  return {
    async list({ name, gate }, options) {
      const tip = await of.fetchTip();
      if (options.history) {
        const whole = await readAt(tip, name, gate, false);
        return await readHistoryAt(ctx, whole, name, gate);
      }
      const read = await readAt(
        tip,
        name,
        gate,
        options.live === true,
        options.kinds,
      );
      const { records, problems } = read;
      const arrived = options.arrival
        ? await arrivals(tip!, name, read, options.arrival)
        : undefined;
      if (options.asOf === undefined) {
        return { records, problems, ...(arrived ? { arrived } : {}) };
      }
      const late = await lateRecords(ctx.objects, options.asOf, tip, read);
      return { records, problems, late, ...(arrived ? { arrived } : {}) };
    },
    async mark() {
      const tip = await (of.lastTip() ?? of.fetchTip());
      if (tip === undefined || !counters.has(tip)) {
        return await markAt(ctx.objects, tip);
      }
      const next = counters.get(tip);
      return { store: "git", tip, ...(next === undefined ? {} : { next }) };
    },
    setsAt: (tip, name, gate) => kept.get(`${tip}\n${name}\n${gate}`)?.sets,
    locate(name, gate, id) {
      const whole = wholes.get(`${name}\n${gate}`);
      const record = whole?.read.records.find((r) => r.id === id);
      const file = record && whole!.read.files.get(record);
      const signed = record?.kind === "approval"
        ? record.seal?.ledger
        : undefined;
      return file && {
        tip: whole!.tip,
        path: file.path,
        ...(file.seq === undefined ? {} : { seq: file.seq }),
        ...(signed === undefined ? {} : { signed }),
      };
    },
  };
}

/**
 * Of the records `wanted` names, those whose place in the branch's order is
 * not the counter's own: no sequence number, a number another record of the
 * gate has too or the counter has not given yet, or a record not as the
 * commit that numbered it added it (`numberedAsIs`). When they arrived is not
 * known, so they count as arriving now (SPEC.md §19: a soak measured from
 * them starts again).
 */
async function unordered(
  ctx: LedgerContext,
  tip: string,
  read: GateReadAt,
  wanted: (record: LedgerRecord) => boolean,
): Promise<Map<LedgerRecord, number>> {
  const uses = new Map<number, number>();
  for (const file of read.files.values()) {
    if (file.seq !== undefined) {
      uses.set(file.seq, (uses.get(file.seq) ?? 0) + 1);
    }
  }
  const now = ctx.clock.now();
  const arrived = new Map<LedgerRecord, number>();
  for (const [record, file] of read.files) {
    if (!wanted(record)) continue;
    const { seq } = file;
    const known = seq !== undefined && uses.get(seq) === 1 &&
      (read.next === undefined || seq < read.next) &&
      await numberedAsIs(ctx, tip, { path: file.path, oid: file.oid, seq });
    if (!known) arrived.set(record, now);
  }
  return arrived;
}

/** A mark of the git ledger. */
export interface GitMark extends LedgerMark {
  /** Always `git`. */
  readonly store: "git";
  /** The tip fetched at the mark; absent when there was no branch yet. */
  readonly tip?: string;
  /** The tip's counter; absent on a branch without numbers. */
  readonly next?: number;
}

/**
 * Which of a gate's loosening records reached the branch after the mark. Only
 * records numbered below the mark's counter (or not numbered) are looked up at
 * the mark's tip, in one `cat-file --batch` (every object on the way checked);
 * none when the tip has not moved.
 * @throws {GitError} When git fails.
 */
async function lateRecords(
  objects: ObjectReader,
  mark: LedgerMark,
  tip: string | undefined,
  read: GateReadAt,
): Promise<Set<LedgerRecord>> {
  const late = new Set<LedgerRecord>();
  const at: GitMark = mark.store === "git" ? mark as GitMark : { store: "git" };
  if (at.tip !== undefined && at.tip === tip) return late;
  const toCheck: LedgerRecord[] = [];
  for (const record of read.records) {
    if (onlyTightens(record)) continue;
    const file = read.files.get(record)!;
    const numbered = file.seq !== undefined && at.next !== undefined;
    if (at.tip === undefined || (numbered && file.seq! >= at.next!)) {
      late.add(record);
    } else toCheck.push(record);
  }
  if (toCheck.length === 0) return late;
  const found = await objects.at(
    at.tip!,
    toCheck.map((record) => read.files.get(record)!.path),
  );
  toCheck.forEach((record, i) => {
    if (found[i]?.oid !== read.files.get(record)!.oid) late.add(record);
  });
  return late;
}

/**
 * Marks a tip: it and its counter (checked).
 * @throws {GitError} When git fails.
 */
async function markAt(
  objects: ObjectReader,
  tip: string | undefined,
): Promise<GitMark> {
  const [counter] = tip ? await objects.at(tip, [SEQ_PATH]) : [];
  const next = parseCounter(blobText(counter));
  return {
    store: "git",
    ...(tip ? { tip } : {}),
    ...(next === undefined ? {} : { next }),
  };
}
