/**
 * What the fold tests compare before and after compaction: everything a gate
 * decision, a claim, the order check, a hold, `status`, the chain rule and the
 * action floor read of a gate's records, over a few plan sets, commits and jobs.
 * @module
 */

import { setDigest } from "../../src/digest/set_digest.ts";
import { newestPendingFact } from "../../src/hooks/hold_standing.ts";
import { claimLedgers } from "../../src/gate/claims.ts";
import {
  decideGate,
  newestPending,
  standingPending,
} from "../../src/gate/decide_gate.ts";
import type {
  LedgerRecord,
  OutcomeJob,
  PlanPair,
} from "../../src/gate/records.ts";
import type { BaseRule } from "../../src/gate/base_rule.ts";
import { trustedDecisionHeads } from "../../src/gate/plan_fold.ts";
import {
  completeSince,
  lastCompleted,
  waveCompletion,
} from "../../src/order/wave_completion.ts";
import { gateStatus } from "../../src/gate/gate_status.ts";
import { actionRefusals } from "../../src/gate/action_floor.ts";
import { digest, GATE } from "./_records.ts";
import { countingApprovals } from "../../src/gate/revoke_floor.ts";

/** The records' ids. */
export function ids(records: readonly LedgerRecord[] | undefined): string[] {
  return (records ?? []).map((record) => record.id);
}

export const PAIRS: PlanPair[] = [
  { target: "eu", planDigest: digest("1") },
  { target: "us", planDigest: digest("2") },
  { target: "eu", planDigest: digest("3") },
  { target: "ap", planDigest: digest("4") },
];
export const SETS = [[PAIRS[0], PAIRS[1]], [PAIRS[2]], [PAIRS[1], PAIRS[3]]];
export const DIGESTS = SETS.map((set) => setDigest(set));
export const HEADS = ["1", "2", "3"].map((c) => c.repeat(40));
export const JOBS: OutcomeJob[] = [
  { kind: "wave" },
  { kind: "share", share: 1 },
  { kind: "share", share: 2 },
];
export const RULES: (BaseRule | undefined)[] = ["push", "chain", undefined];

/** The newest revoke's `actionsThrough` (what the action floor reads). */
function floorOf(records: readonly LedgerRecord[]) {
  const revoke = records.findLast((r) => r.kind === "expired");
  return revoke?.kind === "expired" ? revoke.actionsThrough : undefined;
}

/** Everything a decision, a claim, the order check, a hold or status reads. */
export function view(
  records: readonly LedgerRecord[],
  sets: Map<string, PlanPair[]>,
  now: number,
) {
  const claimsOf = claimLedgers(records);
  const counting = countingApprovals(records);
  const members = [...SETS, ...PAIRS.map((pair) => [pair]), [
    PAIRS[0],
    { ...PAIRS[1], empty: true },
  ]];
  const hold = newestPendingFact(records);
  return {
    counting: ids(counting),
    standings: counting.map((a) =>
      PAIRS.map((p) => claimsOf(a.id).standing(p))
    ),
    decisions: members.map((set) => {
      const decision = decideGate(records, sets, {
        gate: GATE,
        digest: setDigest(set),
        members: set,
        now,
      });
      return decision.status === "approved"
        ? {
          approval: decision.approval.id,
          claims: set.map((m) => decision.claims.standing(m)),
          tally: decision.tally,
        }
        : { standing: decision.standing?.id, tally: decision.tally };
    }),
    newest: newestPending(records, now)?.id,
    standing: DIGESTS.map((d) => standingPending(records, d, now)?.id),
    hold: [hold?.id, completeSince(records, hold, GATE)],
    order: [1, 2].flatMap((k) =>
      HEADS.flatMap((head) =>
        [1, 2].map((shares) =>
          waveCompletion(records, { k, shares, jobs: undefined }, head)
        )
      )
    ),
    last: [1, 2].flatMap((k) =>
      [1, 2].map((shares) =>
        lastCompleted(records, { k, shares, jobs: undefined })
      )
    ),
    // In the order a job reads them for its base (readJobBase): the last
    // trusted decision is the newest of them that is an ancestor of HEAD.
    trusted: [
      ...trustedDecisionHeads(
        [...records].sort((a, b) =>
          Date.parse(a.timestamp) - Date.parse(b.timestamp)
        ),
      ),
    ],
    status: gateStatus(records, sets, now),
    override: records.findLast((r) => r.kind === "out-of-order")?.id,
    actions: [...actionRefusals(counting, floorOf(records))],
  };
}
