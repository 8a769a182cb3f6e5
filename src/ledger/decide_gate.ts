/**
 * The gate decision of SPEC.md §5.3, pure: given a gate's records (already in
 * ledger order, newest last), the set digest and the deciding decision, does an
 * approval stand, and if not, why. Reading and writing records is the store's
 * business; waiting, recording and exiting are the runner's.
 * @module
 */

import {
  approvedForAnotherMessage,
  noApprovalMessage,
  revokedMessage,
  spentMessage,
} from "./gate_messages.ts";
import type {
  AppliedRecord,
  ApprovalRecord,
  ExpiredRecord,
  LedgerRecord,
  PendingRecord,
} from "./records.ts";

/** What the gate is evaluated against. */
export interface GateQuery {
  /** The gate, `<gate>-wave-<k>` (for messages). */
  gate: string;
  /** The set digest D of this plan. */
  digest: string;
  /** The deciding decision; absent for `status` and dry runs (then any `applied` fact spends). */
  decisionId?: string;
  /** The clock's time, milliseconds since the Unix epoch (pending facts expire). */
  now: number;
}

/** The gate stands approved for D by `approval`. */
export interface GateApproved {
  /** Always `approved`. */
  status: "approved";
  /** The newest counting approval. */
  approval: ApprovalRecord;
  /** This decision's `applied` fact for it, when it already recorded one. */
  applied?: AppliedRecord;
}

/** The gate does not stand approved for D. */
export interface GateWaiting {
  /** Always `waiting`. */
  status: "waiting";
  /** Why, one sentence each (SPEC.md §5.3 wording); never empty. */
  reasons: string[];
  /** The unexpired pending fact of D that already stands, if any (then write none). */
  standing?: PendingRecord;
}

/** The outcome of {@linkcode decideGate}. */
export type GateDecision = GateApproved | GateWaiting;

/** The records after the newest `expired` one (all of them when there is none). */
function afterNewestExpired(
  records: readonly LedgerRecord[],
): { live: readonly LedgerRecord[]; expired?: ExpiredRecord } {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record.kind === "expired") {
      return { live: records.slice(i + 1), expired: record };
    }
  }
  return { live: records };
}

function newest<R extends LedgerRecord>(
  records: readonly LedgerRecord[],
  match: (record: LedgerRecord) => record is R,
): R | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (match(record)) return record;
  }
  return undefined;
}

/** Maps each spent approval id to the first other decision that applied under it. */
function spentApprovals(
  records: readonly LedgerRecord[],
  decisionId: string | undefined,
): Map<string, string> {
  const spent = new Map<string, string>();
  for (const record of records) {
    if (
      record.kind === "applied" && record.decisionId !== decisionId &&
      !spent.has(record.approvalId)
    ) {
      spent.set(record.approvalId, record.decisionId);
    }
  }
  return spent;
}

/** The approvals some `expired` record names: they never count again. */
function endedApprovals(records: readonly LedgerRecord[]): Set<string> {
  const ended = new Set<string>();
  for (const record of records) {
    if (record.kind === "expired") {
      for (const id of record.approvals ?? []) ended.add(id);
    }
  }
  return ended;
}

const isApproval = (r: LedgerRecord): r is ApprovalRecord =>
  r.kind === "approval";

/**
 * Says why no approval of D counts: the newest approval of D was spent (or, when
 * none follows the newest revoke, revoked), another digest is approved, or none.
 */
function waitingReasons(
  records: readonly LedgerRecord[],
  query: GateQuery,
  spent: ReadonlyMap<string, string>,
): string[] {
  const { gate, digest } = query;
  const { live, expired } = afterNewestExpired(records);
  const ofDigest = (r: LedgerRecord): r is ApprovalRecord =>
    isApproval(r) && r.planDigest === digest;
  const reasons: string[] = [];
  const spentOne = newest(live, ofDigest);
  const revokedOne = expired &&
    newest(records.slice(0, records.indexOf(expired)), ofDigest);
  if (spentOne) {
    reasons.push(spentMessage(digest, spentOne.by, spent.get(spentOne.id)!));
  } else if (revokedOne) {
    reasons.push(revokedMessage(digest, revokedOne.by, expired.timestamp));
  }
  const another = newest(
    live,
    (r): r is ApprovalRecord => isApproval(r) && r.planDigest !== digest,
  );
  if (another) {
    reasons.push(
      approvedForAnotherMessage(gate, another.planDigest, another.by, digest),
    );
  }
  if (reasons.length === 0) reasons.push(noApprovalMessage(gate, digest));
  return reasons;
}

/**
 * Decides whether gate G stands approved for set digest D. An approval counts
 * when its `planDigest` is exactly D, it comes after the newest `expired` record,
 * and no `applied` record names it under another decision (one under
 * `query.decisionId` means this decision spent it and may keep applying). The
 * newest counting approval wins. Otherwise the gate waits, with reasons: the
 * approval of D that was spent or revoked, an approval of another digest, or none.
 * @param records The gate's records, oldest first (ledger order).
 * @param query The gate, D, the deciding decision and the time.
 * @returns `approved` with the approval, or `waiting` with reasons and the
 * standing pending fact of D, if any.
 * @example
 * ```ts
 * decideGate([], { gate: "tf-wave-1", digest: d, now: 0 });
 * // { status: "waiting", reasons: ['gate "tf-wave-1" has no approval for sha256:…'] }
 * ```
 */
export function decideGate(
  records: readonly LedgerRecord[],
  query: GateQuery,
): GateDecision {
  const { digest, decisionId } = query;
  const { live } = afterNewestExpired(records);
  const spent = spentApprovals(records, decisionId);
  const ended = endedApprovals(records);
  const counting = newest(
    live,
    (r): r is ApprovalRecord =>
      isApproval(r) && r.planDigest === digest && !spent.has(r.id) &&
      !ended.has(r.id),
  );
  if (counting) {
    const applied = newest(
      records,
      (r): r is AppliedRecord =>
        r.kind === "applied" && r.approvalId === counting.id &&
        decisionId !== undefined && r.decisionId === decisionId,
    );
    return applied
      ? { status: "approved", approval: counting, applied }
      : { status: "approved", approval: counting };
  }
  const reasons = waitingReasons(records, query, spent);
  const standing = standingPending(records, digest, query.now);
  return standing
    ? { status: "waiting", reasons, standing }
    : { status: "waiting", reasons };
}

/**
 * Finds the unexpired pending fact of D that stands: newer than the newest
 * `expired` record and with `expiresAt` after `now`. When one stands, a waiting
 * re-run writes no new pending fact.
 * @param records The gate's records, oldest first.
 * @param digest The set digest D.
 * @param now The clock's time, milliseconds since the Unix epoch.
 * @returns The newest such pending record, or `undefined`.
 * @example
 * ```ts
 * standingPending([], d, Date.now()); // undefined
 * ```
 */
export function standingPending(
  records: readonly LedgerRecord[],
  digest: string,
  now: number,
): PendingRecord | undefined {
  return newestPending(records, now, digest);
}

/**
 * Finds the newest unexpired pending fact after the newest `expired` record,
 * optionally of one digest only.
 * @param records The gate's records, oldest first.
 * @param now The clock's time, milliseconds since the Unix epoch.
 * @param digest Only pending facts of this digest, when given.
 * @returns The pending record, or `undefined`.
 * @example
 * ```ts
 * newestPending([], Date.now()); // undefined
 * ```
 */
export function newestPending(
  records: readonly LedgerRecord[],
  now: number,
  digest?: string,
): PendingRecord | undefined {
  const { live } = afterNewestExpired(records);
  return newest(
    live,
    (r): r is PendingRecord =>
      r.kind === "pending" && Date.parse(r.expiresAt) > now &&
      (digest === undefined || r.planDigest === digest),
  );
}

/**
 * The digest `chant-wave approve` approves when no `--plan` is given: that of the
 * newest unexpired pending fact after the newest `expired` record.
 * @param records The gate's records, oldest first.
 * @param now The clock's time, milliseconds since the Unix epoch.
 * @returns The digest, or `undefined` when no pending fact stands.
 * @example
 * ```ts
 * newestPendingDigest([], Date.now()); // undefined
 * ```
 */
export function newestPendingDigest(
  records: readonly LedgerRecord[],
  now: number,
): string | undefined {
  return newestPending(records, now)?.planDigest;
}
