/**
 * Record builders for the ledger tests: fixed ids and times (minutes after a fixed
 * epoch), so tables read like timelines.
 * @module
 */

import {
  type ApprovalRecord,
  approvalRecord,
  type ClaimRecord,
  type ExpiredRecord,
  expiredRecord,
  newRecord,
  type PendingRecord,
  pendingRecord,
  type RunOutcomeRecord,
} from "../../src/gate/records.ts";

/** The name and gate every builder uses. */
export const NAME = "tf";
/** The gate every builder uses. */
export const GATE = "tf-wave-2";
/** 2026-11-30T09:00:00.000Z. */
export const T0 = Date.UTC(2026, 10, 30, 9, 0, 0, 0);

/** A digest of 64 times `c`. */
export const digest = (c: string): string => "sha256:" + c.repeat(64);
/** This plan's digest in the tests. */
export const D = digest("d");
/** Another plan's digest. */
export const D_OLD = digest("0");

/** The time `minute` minutes after {@linkcode T0}. */
export const at = (minute: number): number => T0 + minute * 60_000;

const stamp = (id: string, minute: number) => ({ id, now: at(minute) });
const gate = { name: NAME, gate: GATE };

/** An approval of `planDigest` by `by` at `minute`. */
export function approval(
  id: string,
  minute: number,
  planDigest = D,
  by = "ann",
): ApprovalRecord {
  return approvalRecord({ ...gate, planDigest, by }, stamp(id, minute));
}

/** The approval with a seal (its signature is not checked here). */
export function sealed(record: ApprovalRecord): ApprovalRecord {
  return {
    ...record,
    seal: {
      principal: record.by,
      publicKey: "ssh-ed25519 AAAA",
      signature: "-----BEGIN SSH SIGNATURE-----",
    },
  };
}

/** Decision `decisionId` claims `runs` (attempt 1 unless given) under `approvalId`. */
export function claim(
  id: string,
  minute: number,
  approvalId: string,
  decisionId: string,
  runs: { target: string; planDigest: string; attempt?: number }[],
  attemptId?: string,
): ClaimRecord {
  return newRecord("claim", {
    ...gate,
    approvalId,
    decisionId,
    ...(attemptId ? { attemptId } : {}),
    runs: runs.map((run) => ({ attempt: 1, ...run })),
  }, stamp(id, minute));
}

/** Decision `decisionId` records the outcomes of `runs` under `approvalId`. */
export function outcome(
  id: string,
  minute: number,
  approvalId: string,
  decisionId: string,
  runs: {
    target: string;
    planDigest: string;
    attempt?: number;
    outcome: "ok" | "failed";
  }[],
  attemptId?: string,
): RunOutcomeRecord {
  return newRecord("run-outcome", {
    ...gate,
    approvalId,
    decisionId,
    ...(attemptId ? { attemptId } : {}),
    runs: runs.map((run) => ({ attempt: 1, ...run })),
  }, stamp(id, minute));
}

/** A revoke at `minute`, ending the approvals `ends` by id. */
export function expired(
  id: string,
  minute: number,
  ends: string[] = [],
): ExpiredRecord {
  return expiredRecord(
    { ...gate, ...(ends.length ? { approvals: ends } : {}) },
    stamp(id, minute),
  );
}

/** A pending fact of `planDigest` at `minute`, standing `ttlMinutes`. */
export function pending(
  id: string,
  minute: number,
  planDigest = D,
  ttlMinutes = 60,
): PendingRecord {
  return pendingRecord(
    {
      ...gate,
      planDigest,
      description: "eu: 1 to add, 0 to destroy",
      members: 2,
      base: "5".repeat(40),
    },
    ttlMinutes * 60_000,
    stamp(id, minute),
  );
}
