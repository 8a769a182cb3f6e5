/**
 * The decision record (SPEC.md §4.6): a wave's plans, digest, policy and gate
 * status, written by the whole-wave and the deciding job and read by share and
 * group jobs. This file owns its shape and its checked reading; writing it is
 * `writeFileAtomic`'s job.
 * @module
 */

import type { GatePolicy } from "../spec/types.ts";
import type { PolicySource } from "../policy/policy_at_base.ts";

/** One decided run. */
export interface DecisionMember {
  target: string;
  planDigest: string;
  op: string;
  destructive?: boolean;
  empty?: boolean;
  summary?: string;
}

/** The gate status a decision ends with. */
export type DecisionStatus = "approved" | "not-required" | "waiting";

/** A wave's decision. */
export interface Decision {
  version: 1;
  decisionId: string;
  /** The wave's number. */
  wave: number;
  /** The spec's `name`. */
  name: string;
  /** The spec file as the job named it. */
  spec: string;
  gate: string;
  policy: GatePolicy;
  policySource: PolicySource;
  policyReason: string;
  /** The base commit's full sha. */
  base: string;
  digest: string;
  members: DecisionMember[];
  status: DecisionStatus;
  approvedBy?: string;
  approvalId?: string;
  /** The command that approves this digest, when waiting. */
  approve?: string;
  createdAt: string;
}

/**
 * Parses a decision record's text and checks the fields a share job relies on.
 * @param text The file's content.
 * @returns The decision.
 * @throws {Error} A one-line reason; the caller names the file.
 */
export function parseDecision(text: string): Decision {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`);
  }
  const decision = value as Partial<Decision> | null;
  if (
    typeof decision !== "object" || decision === null || decision.version !== 1
  ) {
    throw new Error("is not a version 1 decision record");
  }
  for (
    const field of [
      "decisionId",
      "name",
      "gate",
      "digest",
      "status",
      "base",
    ] as const
  ) {
    if (typeof decision[field] !== "string") {
      throw new Error(`has no "${field}"`);
    }
  }
  if (typeof decision.wave !== "number") throw new Error('has no "wave"');
  if (!["approved", "not-required", "waiting"].includes(decision.status!)) {
    throw new Error(`has an unknown status "${decision.status}"`);
  }
  const members = decision.members;
  if (
    !Array.isArray(members) ||
    members.some((m) =>
      typeof m?.target !== "string" || typeof m?.planDigest !== "string"
    )
  ) {
    throw new Error('has no valid "members"');
  }
  return decision as Decision;
}
