/**
 * What compaction may move out of a gate's tip (docs/ledger.md, "Compacting the
 * ledger"), pure: of the records before the gate's newest revoke, those that no
 * decision, claim standing, order check, hold, `status` or chain rule can read
 * again, whatever is written later; and the summary that replaces them. Moving
 * them (and where to) is the store's business.
 *
 * Folded: an approval that the newest revoke ended (none of that id at or after
 * it), together with all of its claims and run outcomes once each claimed plan
 * and attempt has its outcome (a dead claim keeps them all), unless it names an
 * approve run or job above the newest revoke's `actionsThrough` (one forge
 * action approves once, SPEC.md §13.1: the revoke's floor does not vouch for
 * that action, so its record stays to be named again); pending facts; a
 * wave outcome a later one of the same wave, commit and job supersedes; an
 * out-of-order record but the newest; a revoke before the newest whose ended
 * approvals all come before that one, and which ends no action and no time
 * the newest does not (`revoke_floor.ts`); the gate's earlier summaries.
 * "Before the newest revoke" is in place and in time: a record dated after it
 * stays, so a back-dated revoke folds nothing. Kept
 * besides: for each commit at which a decision was made under a trusted base,
 * the record that names it first by time (the chain rule's bound, and the
 * order the last trusted decision reads them in), and every other kind. Of
 * commits older than the gate's {@linkcode KEPT_COMMITS} newest decided ones,
 * their wave outcomes and that record fold too, so a gate keeps a bounded tip:
 * a job at such a commit then reads the rules further back (stricter), and a
 * wave there waits for the one before it as if it had not run.
 * @module
 */

import { isTrustedRule } from "./base_rule.ts";
import { higherActions, namesUnendedAction } from "./action_floor.ts";
import { allSettled } from "./claims.ts";
import type {
  ExpiredRecord,
  FoldedCounts,
  FoldedRecord,
  LedgerRecord,
  RecordFields,
} from "./records.ts";

/** What {@linkcode planFold} found to fold in one gate. */
export interface FoldPlan {
  /** The records to fold, in ledger order (earlier summaries included). */
  fold: LedgerRecord[];
  /** The gate's newest revoke: everything folded came before it. */
  through: ExpiredRecord;
  /** Set digests a record left at the tip names: their plan sets stay. */
  kept: Set<string>;
  /** Set digests folded records name: their plan sets fold unless kept. */
  named: Set<string>;
}

/**
 * How many of a gate's newest decided commits (by the first record naming each)
 * keep their wave outcomes and trusted decisions through a fold.
 */
export const KEPT_COMMITS = 100;

/** The most bytes of approval ids a summary lists (within a record's 64 KiB). */
const MAX_LISTED_BYTES = 32 * 1024;

/** The set digest a record names, if any. */
function digestOf(record: LedgerRecord): string | undefined {
  switch (record.kind) {
    case "pending":
    case "approval":
      return record.planDigest;
    case "wave-outcome":
      return record.digest;
    default:
      return undefined;
  }
}

/** The commit a record bounds the chain rule at (SPEC.md §4.4), if any. */
function trustedHead(record: LedgerRecord): string | undefined {
  return (record.kind === "pending" || record.kind === "wave-outcome") &&
      record.head !== undefined && isTrustedRule(record.baseRule)
    ? record.head
    : undefined;
}

/**
 * The commits at which the ledger records decisions made under a trusted base
 * (SPEC.md §4.4's chain rule): a pending fact's or a wave outcome's `head`
 * whose base was named by `--base`, the spec's base read before the push, or
 * the forge's push event. Such a commit reached the branch by a push the forge
 * vouched for, so the chain rule walks back no further. A decision made under
 * the chain rule itself never bounds a later chain: a change whose own commit
 * ran a job (a manual run on a feature branch) cannot shorten what governs its
 * next commit. Records that name no head or no rule do not count.
 * @param records A gate's records (any order).
 * @returns The head commits (full shas).
 * @example
 * ```ts
 * trustedDecisionHeads([]).size; // 0
 * ```
 */
export function trustedDecisionHeads(
  records: readonly LedgerRecord[],
): Set<string> {
  return new Set(records.flatMap((record) => trustedHead(record) ?? []));
}

/** The key wave completion reads a wave outcome by: its wave, commit and job. */
function outcomeKey(record: LedgerRecord): string | undefined {
  if (record.kind !== "wave-outcome") return undefined;
  const { kind, share, group } = record.job;
  return JSON.stringify([record.wave, record.head, kind, share, group]);
}

/** Which revoke a fold goes through. */
export type FoldThrough =
  /** The gate's newest revoke (`ledger compact`). */
  | "newest"
  /**
   * The revoke before the newest (what `revoke` folds as it writes one): the
   * records the newest ended stay, so a job's reasons can still name the
   * approval it revoked.
   */
  | "previous";

/**
 * Plans the fold of one gate's records.
 * @param records The gate's records in ledger order, as every reader orders
 *   them (unscreened: future-dated ones included).
 * @param foldable Which records may move at all (the git ledger: those
 *   numbered before compaction started).
 * @default foldable every record
 * @param through Which revoke the fold goes through: only what came before
 *   it may move, and what came after it stays (`before the newest revoke`
 *   below reads as before that one).
 * @default through "newest"
 * @returns The plan, or `undefined` when nothing but summaries would fold.
 * @example
 * ```ts
 * planFold([approval, revoke])?.fold; // [approval]
 * planFold([approval]); // undefined: no revoke
 * ```
 */
export function planFold(
  records: readonly LedgerRecord[],
  foldable: (record: LedgerRecord) => boolean = () => true,
  through: FoldThrough = "newest",
): FoldPlan | undefined {
  let end = records.findLastIndex((record) => record.kind === "expired");
  if (through === "previous" && end >= 0) {
    end = records.findLastIndex((r, i) => i < end && r.kind === "expired");
  }
  if (end < 0) return undefined;
  const newest = records[end] as ExpiredRecord;
  const cut = Date.parse(newest.timestamp);
  // Before the newest revoke in place and in time: a record dated after it
  // (a revoke written back-dated, or by a clock behind) came after it.
  const before = (record: LedgerRecord) => Date.parse(record.timestamp) <= cut;
  const at = new Map(records.map((record, i) => [record, i]));
  const behind = (record: LedgerRecord) =>
    at.get(record)! < end && before(record);
  const fold = new Set<LedgerRecord>();
  const live = new Set(
    records.slice(end).filter((r) => r.kind === "approval").map((r) => r.id),
  );
  // The revoke it goes through stays: its own floor is what must end the
  // actions of what folds (`git/_history.ts` checks a fold so).
  const floor = newest.actionsThrough;
  // An earlier revoke folds only when the newest ends all it ended.
  const dominated = (r: ExpiredRecord) =>
    before(r) &&
    JSON.stringify(higherActions(newest.actionsThrough, r.actionsThrough)) ===
      JSON.stringify(higherActions(newest.actionsThrough, undefined));
  const movable = (r: LedgerRecord) =>
    behind(r) && foldable(r) &&
    !(r.kind === "approval" && namesUnendedAction(r, floor));
  foldEnded(records, live, movable, fold);
  const superseded = new Set<string>();
  const recent = recentHeads(records);
  const newestOverride = records.findLast((r) => r.kind === "out-of-order");
  const newestWait = records.findLast((r) => r.kind === "waiting");
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    const key = outcomeKey(record);
    const gone = key !== undefined &&
      (superseded.has(key) ||
        (record.kind === "wave-outcome" && !recent.has(record.head)));
    if (key !== undefined) superseded.add(key);
    if (i >= end || !foldable(record) || !before(record)) continue;
    if (
      record.kind === "pending" || record.kind === "folded" || gone ||
      (record.kind === "out-of-order" && record !== newestOverride) ||
      (record.kind === "waiting" && record !== newestWait) ||
      (record.kind === "expired" && dominated(record) &&
        !(record.approvals ?? []).some((id) => live.has(id)))
    ) fold.add(record);
  }
  for (const record of records) {
    if (record.kind === "folded" && foldable(record)) fold.add(record);
  }
  keepTrustedHeads(records, fold, recent);
  if (![...fold].some((record) => record.kind !== "folded")) return undefined;
  const kept = new Set<string>();
  const named = new Set<string>();
  for (const record of records) {
    const digest = digestOf(record);
    if (digest !== undefined) (fold.has(record) ? named : kept).add(digest);
  }
  return {
    fold: records.filter((record) => fold.has(record)),
    through: records[end] as ExpiredRecord,
    kept,
    named,
  };
}

/**
 * Adds the approvals the newest revoke ended (no approval of the same id at or
 * after it) whose claims and outcomes all came before it, may fold and are
 * settled, with those claims and outcomes.
 */
function foldEnded(
  records: readonly LedgerRecord[],
  live: ReadonlySet<string>,
  movable: (record: LedgerRecord) => boolean,
  fold: Set<LedgerRecord>,
): void {
  const byApproval = new Map<string, LedgerRecord[]>();
  for (const record of records) {
    const id = record.kind === "approval"
      ? record.id
      : record.kind === "claim" || record.kind === "run-outcome"
      ? record.approvalId
      : undefined;
    if (id === undefined || live.has(id)) continue;
    const own = byApproval.get(id);
    if (own) own.push(record);
    else byApproval.set(id, [record]);
  }
  for (const own of byApproval.values()) {
    if (!own.some((record) => record.kind === "approval")) continue;
    if (own.every(movable) && allSettled(own)) {
      for (const record of own) fold.add(record);
    }
  }
}

/**
 * Keeps, for each commit decided under a trusted base, the record that names it
 * first, by time and then in ledger order: the chain rule reads every such
 * commit, and the last trusted decision (`readJobBase`) reads them in the
 * order they were first decided, by time.
 */
function keepTrustedHeads(
  records: readonly LedgerRecord[],
  fold: Set<LedgerRecord>,
  recent: ReadonlySet<string>,
): void {
  const first = new Set<string>();
  for (const record of byTime(records)) {
    const head = trustedHead(record);
    if (head === undefined || first.has(head) || !recent.has(head)) continue;
    first.add(head);
    fold.delete(record);
  }
}

/** The records oldest first by time, then in ledger order. */
function byTime(records: readonly LedgerRecord[]): LedgerRecord[] {
  return records.map((record, i) => ({
    record,
    i,
    time: Date.parse(record.timestamp),
  })).sort((a, b) => a.time - b.time || a.i - b.i).map((x) => x.record);
}

/**
 * The {@linkcode KEPT_COMMITS} newest commits pending facts and wave outcomes
 * name, by the time of the first record naming each.
 */
function recentHeads(records: readonly LedgerRecord[]): Set<string> {
  const order: string[] = [];
  const seen = new Set<string>();
  for (const record of byTime(records)) {
    if (record.kind !== "pending" && record.kind !== "wave-outcome") continue;
    const head = record.head;
    if (head === undefined || seen.has(head)) continue;
    seen.add(head);
    order.push(head);
  }
  return new Set(order.slice(-KEPT_COMMITS));
}

/**
 * The fields of the summary that replaces a plan's records: the counts of the
 * summaries it folds carried on, plus its own, and the newest folded approvals.
 * @param plan The plan.
 * @param sets How many plan sets it folds.
 * @param archive Where the folded records are.
 * @returns The summary's fields, for `newRecord("folded", …)`.
 * @example
 * ```ts
 * foldedFields(planFold([approval, revoke])!, 0, "archive/gates/tf/tf-wave-1").records; // 1
 * ```
 */
export function foldedFields(
  plan: FoldPlan,
  sets: number,
  archive: string,
): RecordFields<FoldedRecord> {
  const counts: FoldedCounts = {};
  let records = 0;
  let folded = sets;
  const approvals: string[] = [];
  for (const record of plan.fold) {
    if (record.kind === "folded") {
      for (const [kind, n] of Object.entries(record.counts)) {
        const key = kind as keyof FoldedCounts;
        counts[key] = (counts[key] ?? 0) + n;
      }
      records += record.records;
      folded += record.sets;
      approvals.push(...record.approvals ?? []);
      continue;
    }
    counts[record.kind] = (counts[record.kind] ?? 0) + 1;
    records++;
    if (record.kind === "approval") approvals.push(record.id);
  }
  const listed: string[] = [];
  let bytes = 0;
  for (let i = approvals.length - 1; i >= 0 && listed.length < 1000; i--) {
    bytes += approvals[i].length + 3;
    if (bytes > MAX_LISTED_BYTES) break;
    listed.unshift(approvals[i]);
  }
  return {
    name: plan.through.name,
    gate: plan.through.gate,
    through: plan.through.id,
    records,
    counts,
    sets: folded,
    ...(listed.length ? { approvals: listed } : {}),
    archive,
  };
}
