/**
 * The gate decision (SPEC.md §5.3, §10), pure: given a gate's records (in
 * ledger order, newest last), the plan sets their approvals were given for, and a
 * decision's members, does an approval cover the decision, and if not, why. An
 * approval covers plans, not only a digest: a decision stands approved when one
 * counting approval covers each of its non-empty members that has not already
 * applied under it, so a retried or partly applied wave needs no new approval.
 * When the members are fresh plans of a target's live state (a database a
 * sqitch plan reads, §17), a non-empty member that did apply under an approval
 * plans, unchanged, what already applied: its target moved back since (it was
 * reverted by hand), and that approval never covers it again.
 * Under approver rules (§12.1), `required` distinct principals must each
 * have such an approval, not used before for a plan it is to claim (a plan
 * that applied under it, or claimed with no outcome); the verdicts (seals
 * verified, principals judged) are computed before and passed in. A gate
 * that waits says why: the tally of who counted and who did not, or the
 * approval of another digest, the plans it does not cover, a revoke, or none.
 * Reading and writing records is the ledger's business; waiting, claiming and
 * applying are the runner's. A new condition on the decision (SPEC.md §18's
 * rules over a plan's changes, §19's freeze windows) is one more member of
 * `GateQuery`, judged by a module of its own beside this one.
 * @module
 */

import {
  type ClaimLedger,
  claimLedger,
  claimLedgers,
  usedApprovals,
} from "./claims.ts";
import {
  afterNewestExpired,
  countingApprovals,
  revokeFloor,
} from "./revoke_floor.ts";
import {
  freshTally,
  type GateRules,
  type Tally,
  tallyApprovals,
  tallyLine,
  verdictOf,
} from "./gate_tally.ts";
import type {
  ApprovalRecord,
  GateMember,
  LedgerRecord,
  PendingRecord,
  PlanPair,
} from "./records.ts";
import {
  approvedForAnotherMessage,
  isSettleRevoke,
  movedBackMessage,
  noApprovalMessage,
  revokedMessage,
  settledMessage,
  settledNote,
  uncoveredMessage,
} from "./gate_messages.ts";
import { spentApprovals } from "./spent_approvals.ts";

/** What the gate is evaluated for. */
export interface GateQuery {
  /** The gate, `<gate>-wave-<k>` (for messages). */
  gate: string;
  /** The decision's set digest. */
  digest: string;
  /** The decision's members. */
  members: readonly GateMember[];
  /** The clock's time, milliseconds since the Unix epoch (pending facts expire). */
  now: number;
  /**
   * The approver rules and each approval's verdict; absent: one approval by
   * anyone counts (a plain ledger gate).
   */
  rules?: GateRules;
  /**
   * The members are fresh plans of each target's live state, empty once
   * applied (sqitch, §17): a non-empty one that applied under an approval
   * moved back since, and needs a new approval. Absent for plans a command
   * may repeat after applying them, and for a decision's recorded members.
   */
  liveState?: boolean;
  /**
   * The name of the wave judged: an approval counts only when no pending fact
   * of its digest before it names another wave (a change that swapped two
   * waves never hands one wave's approval to the other). Absent: not checked.
   */
  wave?: string;
  /**
   * A freeze window holds (SPEC.md §19): the gate stands approved only when
   * one of the approvals that cover the plans and count was given with
   * `--during-freeze` (its verdict `passesFreeze`); `reason`
   * says so when none was.
   */
  freeze?: { reason: string };
}

/** The gate stands approved: `approval` covers the decision. */
export interface GateApproved {
  /** Always `approved`. */
  status: "approved";
  /**
   * The newest approval that counts and covers the decision: plans are claimed
   * under it.
   */
  approval: ApprovalRecord;
  /** Where each plan stands under it. */
  claims: ClaimLedger;
  /** Who counted (at least `required` distinct principals). */
  tally: Tally;
  /** How messages name the approvers: the approval's principal, or every counted one. */
  approvedBy: string;
  /**
   * When plans are claimed under it with no outcome (the job applies them
   * now, or died): who counts for them leaving out the approvals used for
   * them, i.e. how far fresh approvals for them are (§12.1).
   */
  stuck?: Tally;
}

/** No approval covers the decision. */
export interface GateWaiting {
  /** Always `waiting`. */
  status: "waiting";
  /** Why, one sentence each; never empty. */
  reasons: string[];
  /** The unexpired pending fact of this digest that already stands, if any. */
  standing?: PendingRecord;
  /** Who counted and who did not, when some approval covers the plans. */
  tally?: Tally;
}

/** The outcome of {@linkcode decideGate}. */
export type GateDecision = GateApproved | GateWaiting;

/**
 * Decides whether a decision's plans stand approved. An approval counts when it
 * comes after the newest `expired` record and no `expired` record names it; it
 * covers the decision when each non-empty member not yet applied under it is one
 * of the plans it was given for (the plan set of its digest, where it was not
 * recorded as changing nothing), or, for an approval
 * of a digest with no plan set, when the decision's digest is exactly that one.
 * The newest covering approval wins. Otherwise the gate waits, with reasons: the
 * plans the newest approval does not cover, an approval that was revoked, or none.
 * @param records The gate's records, oldest first (ledger order).
 * @param sets The plan set of each approved digest that has one.
 * @param query The gate, the decision's digest and members, and the time.
 * @returns `approved` with the approval and the plans' standings under it, or
 *   `waiting` with reasons and the standing pending fact of the digest, if any.
 * @example
 * ```ts
 * decideGate([], new Map(), { gate: "tf-wave-1", digest: d, members, now: 0 });
 * // { status: "waiting", reasons: ['gate "tf-wave-1" has no approval for sha256:…'] }
 * ```
 */
export function decideGate(
  records: readonly LedgerRecord[],
  sets: PlanSets,
  query: GateQuery,
): GateDecision {
  const elsewhere = givenForAnotherWave(records, query.wave);
  const approvals = countingApprovals(records).filter((a) =>
    !elsewhere.has(a.id)
  );
  const oldestFirst = [...approvals].reverse();
  const { rules } = query;
  const claimsOf = claimLedgers(records);
  const used = usedApprovals(records, claimsOf);
  // During a freeze, one of the approvals that count must let it through.
  const letThrough = (covering: readonly ApprovalRecord[]) =>
    query.freeze === undefined ||
    covering.some((a) => {
      const verdict = verdictOf(a, rules);
      return verdict.counts && verdict.passesFreeze === true;
    });
  let short: Tally | undefined;
  // Approvals that would stand but for the freeze, by whom.
  let frozenOut: string | undefined;
  for (const approval of approvals) {
    const verdict = verdictOf(approval, rules);
    if (!verdict.counts) continue;
    const claims = claimsOf(approval.id);
    const { need, unsettled, claimable, movedBack } = sortMembers(
      query.members,
      claims,
    );
    if (query.liveState && movedBack.length > 0) continue;
    if (!covers(approval, sets, need, query.digest)) continue;
    const covering = oldestFirst.filter((a) =>
      covers(a, sets, need, query.digest)
    );
    const tally = freshTally(covering, claimable, used, query);
    // Plans that all applied under it already apply nothing new.
    if (
      tally.counted.length >= tally.required && need.length > 0 &&
      !letThrough(covering)
    ) {
      frozenOut ??= tally.counted.join(", ");
      continue;
    }
    if (tally.counted.length >= tally.required) {
      const approvedBy = tally.counted.join(", ");
      const stuck = unsettled.length
        ? freshTally(covering, unsettled, used, query)
        : undefined;
      return {
        status: "approved",
        approval,
        claims,
        tally,
        approvedBy,
        ...(stuck ? { stuck } : {}),
      };
    }
    short ??= tally;
  }
  const tally = short ?? waitingTally(records, oldestFirst, sets, query);
  // An approval of an earlier rollout (its plans applied, or their targets
  // moved past them) is no plan that moved: it bears on no new decision.
  const spent = spentApprovals(records, sets);
  const bearing = approvals.find((a) => !spent.has(a.id));
  if (query.freeze && frozenOut !== undefined) {
    const standing = standingPending(records, query.digest, query.now);
    return {
      status: "waiting",
      reasons: [
        query.freeze.reason,
        `${frozenOut} approved these plans, but not with --during-freeze`,
      ],
      ...(standing ? { standing } : {}),
    };
  }
  const reasons = [
    ...query.freeze ? [query.freeze.reason] : [],
    ...query.liveState
      ? movedBackReasons(approvals, claimsOf, query.members)
      : [],
    ...tally && (short || tally.required > 1 || tally.refused.length > 0)
      ? [tallyLine(tally, query.digest)]
      : waitingReasons(records, bearing, sets, query),
  ];
  const standing = standingPending(records, query.digest, query.now);
  return {
    status: "waiting",
    reasons,
    ...(standing ? { standing } : {}),
    ...(tally ? { tally } : {}),
  };
}

/**
 * The members that plan again, unchanged, what applied under a counting
 * approval (their targets moved back since), each named with that approval.
 */
function movedBackReasons(
  approvals: readonly ApprovalRecord[],
  claimsOf: (approvalId: string) => ClaimLedger,
  members: readonly GateMember[],
): string[] {
  const reasons: string[] = [];
  for (const member of members) {
    if (member.empty === true) continue;
    const under = approvals.find((a) =>
      claimsOf(a.id).standing(member).kind === "applied"
    );
    if (under) reasons.push(movedBackMessage(member, under));
  }
  return reasons;
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
  for (let i = live.length - 1; i >= 0; i--) {
    const r = live[i];
    if (
      r.kind === "pending" && Date.parse(r.expiresAt) > now &&
      (digest === undefined || r.planDigest === digest)
    ) return r;
  }
  return undefined;
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

/**
 * The approvals given for another wave than `wave`: a pending fact of their
 * digest before them names another wave. A forged pending fact can only add
 * such a name, so only make an approval count less.
 */
function givenForAnotherWave(
  records: readonly LedgerRecord[],
  wave: string | undefined,
): Set<string> {
  const ids = new Set<string>();
  if (wave === undefined) return ids;
  const named = new Map<string, Set<string>>();
  for (const record of records) {
    if (record.kind === "pending" && record.wave !== undefined) {
      const names = named.get(record.planDigest) ?? new Set<string>();
      named.set(record.planDigest, names.add(record.wave));
    } else if (record.kind === "approval") {
      const names = named.get(record.planDigest);
      if (names && [...names].some((name) => name !== wave)) {
        ids.add(record.id);
      }
    }
  }
  return ids;
}

/**
 * The plans each approved digest names (from the pending facts' plan sets),
 * each marked `empty` when it was recorded as changing nothing.
 */
export type PlanSets = ReadonlyMap<
  string,
  readonly (PlanPair & { empty?: boolean })[]
>;

/**
 * The members an approval must cover (the non-empty ones not applied under
 * it), those of them claimed under it with no outcome (a job refuses to claim
 * them again), and the rest, which a job would claim: each of those needs
 * approvers not used for it before (§12.1). Beside them, the non-empty
 * members that applied under it already: for plans of live state, their
 * targets moved back since (§17), and the approval cannot cover them.
 */
function sortMembers(
  members: readonly GateMember[],
  claims: ClaimLedger,
): {
  need: GateMember[];
  unsettled: GateMember[];
  claimable: GateMember[];
  movedBack: GateMember[];
} {
  const need: GateMember[] = [];
  const unsettled: GateMember[] = [];
  const claimable: GateMember[] = [];
  const movedBack: GateMember[] = [];
  for (const member of members) {
    if (member.empty === true) continue;
    const { kind } = claims.standing(member);
    if (kind === "applied") {
      movedBack.push(member);
      continue;
    }
    need.push(member);
    (kind === "unsettled" ? unsettled : claimable).push(member);
  }
  return { need, unsettled, claimable, movedBack };
}

/** Whether `approval` covers every member of `need`. */
export function covers(
  approval: ApprovalRecord,
  sets: PlanSets,
  need: readonly GateMember[],
  digest: string,
): boolean {
  const missing = uncovered(approval, sets, need, digest);
  return missing !== "another-digest" && missing.length === 0;
}

/** The members of `need` that `approval` does not cover. */
export function uncovered(
  approval: ApprovalRecord,
  sets: PlanSets,
  need: readonly GateMember[],
  digest: string,
): GateMember[] | "another-digest" | [] {
  const set = sets.get(approval.planDigest);
  if (set === undefined) {
    return approval.planDigest === digest || need.length === 0
      ? []
      : "another-digest";
  }
  // A plan recorded as changing nothing was never approved to apply, whatever
  // its digest says now (a plan command may flip the flag, not the digest).
  const approved = new Set(
    set.filter((p) => p.empty !== true).map((p) =>
      `${p.target}\n${p.planDigest}`
    ),
  );
  return need.filter((m) => !approved.has(`${m.target}\n${m.planDigest}`));
}

/**
 * The tally of a waiting gate: the approvals that cover the plans not yet
 * applied under the newest approval; `undefined` when none covers them.
 */
function waitingTally(
  records: readonly LedgerRecord[],
  oldestFirst: readonly ApprovalRecord[],
  sets: PlanSets,
  query: GateQuery,
): Tally | undefined {
  const newest = oldestFirst[oldestFirst.length - 1];
  if (newest === undefined) return undefined;
  const need = sortMembers(query.members, claimLedger(records, newest.id)).need;
  const covering = oldestFirst.filter((a) =>
    covers(a, sets, need, query.digest)
  );
  return covering.length
    ? tallyApprovals(covering, query.rules, query.digest)
    : undefined;
}

const NAMED = 5;

/**
 * Why no approval covers the plans: none (or one revoked), one of another
 * digest, or the plans the newest does not cover (five named at most).
 */
function waitingReasons(
  records: readonly LedgerRecord[],
  newest: ApprovalRecord | undefined,
  sets: PlanSets,
  query: GateQuery,
): string[] {
  const { gate, digest } = query;
  if (newest === undefined) {
    const { expired } = afterNewestExpired(records);
    // Ended by it: before it, or sealed before a revoke was written.
    const at = expired && records.indexOf(expired);
    const revokedAt = revokeFloor(records).at;
    const i = expired === undefined
      ? -1
      : records.findLastIndex((r, j) =>
        r.kind === "approval" && r.planDigest === digest &&
        (j < at! || (r.seal !== undefined &&
          Date.parse(r.timestamp) <= revokedAt))
      );
    if (i < 0) {
      return isSettleRevoke(expired)
        ? [noApprovalMessage(gate, digest), settledNote(expired!.timestamp)]
        : [noApprovalMessage(gate, digest)];
    }
    const revoked = records[i] as ApprovalRecord;
    // Ended in place by the first revoke after it, or in time by the latest.
    const after = records.find((r, j) => j > i && r.kind === "expired");
    const when = i < at! && after
      ? after.timestamp
      : new Date(revokedAt).toISOString();
    return [
      (isSettleRevoke(after) ? settledMessage : revokedMessage)(
        digest,
        revoked.by,
        when,
      ),
    ];
  }
  const claims = claimLedger(records, newest.id);
  const need = sortMembers(query.members, claims).need;
  const missing = uncovered(newest, sets, need, digest);
  if (missing === "another-digest") {
    return [
      approvedForAnotherMessage(gate, newest.planDigest, newest.by, digest),
    ];
  }
  const set = new Map(
    (sets.get(newest.planDigest) ?? []).map((p) => [p.target, p.planDigest]),
  );
  const lines = missing.slice(0, NAMED).map((m) =>
    uncoveredMessage(m, set.get(m.target), newest)
  );
  if (missing.length > NAMED) {
    lines.push(`and ${missing.length - NAMED} more plans it does not cover`);
  }
  return [
    approvedForAnotherMessage(gate, newest.planDigest, newest.by, digest),
    ...lines,
  ];
}
