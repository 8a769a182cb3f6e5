/**
 * The decision record (SPEC.md §4.6): a wave's plans, digest, policy and gate
 * status, written by the whole-wave and the deciding job and read by share and
 * group jobs. This file owns its shape and its checked reading; writing it is
 * `writeFileAtomic`'s job.
 * @module
 */

import { parseHooks } from "../hooks/parse_hooks.ts";
import { GATE_POLICIES, type GatePolicy, type Hooks } from "../spec/types.ts";
import type { PolicySource } from "../policy/policy_at_base.ts";
import { BASE_RULES, type BaseRule } from "../policy/base_rule.ts";
import type { PlanChange } from "./plan_file.ts";

/** One decided run. */
export interface DecisionMember {
  target: string;
  planDigest: string;
  op: string;
  destructive?: boolean;
  empty?: boolean;
  summary?: string;
  /**
   * What the plan changes, the first 200 (SPEC.md §13.1), for the job's log,
   * summary and `--json`; never read back from a record.
   */
  changes?: PlanChange[];
  /** How many changes were left out of `changes`. */
  moreChanges?: number;
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
  /** The rule that chose the base (SPEC.md §4.4). */
  baseRule?: BaseRule;
  /**
   * Every commit the rules were read at (full shas, `base` first), when the
   * chain rule read more than one.
   */
  bases?: string[];
  digest: string;
  members: DecisionMember[];
  status: DecisionStatus;
  approvedBy?: string;
  approvalId?: string;
  /** The command that approves this digest, when waiting (never read back). */
  approve?: string;
  /** Who counted and who did not, when waiting and anyone approved (never read back). */
  tally?: string;
  createdAt: string;
  /**
   * The wave's hooks (SPEC.md §11), with the holds at base: share and group jobs
   * run these, once they checked them (`verify_hooks.ts`). Absent when the wave
   * has none.
   */
  hooks?: Hooks;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** The most base commits a decision names (the chain rule's). */
const MAX_BASES = 1000;

function fail(what: string): never {
  throw new Error(what);
}

function field(value: unknown, name: string): string {
  return typeof value === "string" ? value : fail(`has no "${name}"`);
}

function member(value: unknown, i: number): DecisionMember {
  const m = value as Partial<DecisionMember> | null;
  if (typeof m !== "object" || m === null) {
    fail(`members[${i}] is not an object`);
  }
  if (typeof m.target !== "string" || m.target === "") {
    fail(`members[${i}] has no "target"`);
  }
  if (typeof m.planDigest !== "string" || !DIGEST.test(m.planDigest)) {
    fail(`members[${i}] has no valid "planDigest"`);
  }
  for (const flag of ["destructive", "empty"] as const) {
    if (m[flag] !== undefined && typeof m[flag] !== "boolean") {
      fail(`members[${i}] "${flag}" is not true or false`);
    }
  }
  if (m.summary !== undefined && typeof m.summary !== "string") {
    fail(`members[${i}] "summary" is not a string`);
  }
  return {
    target: m.target,
    planDigest: m.planDigest,
    op: typeof m.op === "string" ? m.op : "",
    ...(m.destructive ? { destructive: true } : {}),
    ...(m.empty ? { empty: true } : {}),
    ...(m.summary === undefined ? {} : { summary: m.summary }),
  };
}

/** The record's hooks, or why they cannot be read. */
function hooksOf(value: unknown): Hooks {
  try {
    return parseHooks(value);
  } catch (error) {
    fail(`has bad hooks: ${(error as Error).message}`);
  }
}

/**
 * Parses a decision record's text and checks every field a share job relies on.
 * It checks form only: a record travels between jobs as a CI artifact, so whether
 * it says the truth (its digest, policy and approval) is checked against the spec
 * at base and the ledger by the share job (`verify_decision.ts`).
 * @param text The file's content.
 * @returns The decision, with only the fields of SPEC.md §4.6.
 * @throws {Error} A one-line reason; the caller names the file.
 * @example
 * ```ts
 * parseDecision("{}"); // throws Error "is not a version 1 decision record"
 * ```
 */
export function parseDecision(text: string): Decision {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`);
  }
  const d = value as Record<string, unknown> | null;
  if (typeof d !== "object" || d === null || d.version !== 1) {
    fail("is not a version 1 decision record");
  }
  const decisionId = field(d.decisionId, "decisionId");
  if (!ID.test(decisionId)) fail('has an invalid "decisionId"');
  if (!Number.isSafeInteger(d.wave) || (d.wave as number) < 1) {
    fail('has no "wave"');
  }
  const status = field(d.status, "status") as DecisionStatus;
  if (!["approved", "not-required", "waiting"].includes(status)) {
    fail(`has an unknown status ${JSON.stringify(status.slice(0, 60))}`);
  }
  const policy = field(d.policy, "policy") as GatePolicy;
  if (!(GATE_POLICIES as readonly string[]).includes(policy)) {
    fail('has an unknown "policy"');
  }
  const base = field(d.base, "base");
  if (!SHA.test(base)) fail('has no valid "base" commit');
  const bases = d.bases;
  if (
    bases !== undefined &&
    (!Array.isArray(bases) || bases.length === 0 ||
      bases.length > MAX_BASES ||
      !bases.every((sha) => typeof sha === "string" && SHA.test(sha)))
  ) fail('has an invalid "bases" list');
  const digest = field(d.digest, "digest");
  if (!DIGEST.test(digest)) fail('has no valid "digest"');
  if (!Array.isArray(d.members)) fail('has no valid "members"');
  const members = d.members.map(member);
  const hooks = hooksOf(d.hooks);
  const optional = (key: string) =>
    typeof d[key] === "string" ? { [key]: d[key] as string } : {};
  return {
    version: 1,
    decisionId,
    wave: d.wave as number,
    name: field(d.name, "name"),
    spec: typeof d.spec === "string" ? d.spec : "",
    gate: field(d.gate, "gate"),
    policy,
    policySource: d.policySource === "base" ? "base" : "absent-at-base",
    policyReason: typeof d.policyReason === "string" ? d.policyReason : "",
    base,
    ...((BASE_RULES as readonly unknown[]).includes(d.baseRule)
      ? { baseRule: d.baseRule as BaseRule }
      : {}),
    ...(bases === undefined ? {} : { bases: bases as string[] }),
    digest,
    members,
    status,
    ...optional("approvedBy"),
    ...(typeof d.approvalId === "string" && ID.test(d.approvalId)
      ? { approvalId: d.approvalId }
      : {}),
    createdAt: typeof d.createdAt === "string" ? d.createdAt : "",
    hooks,
  };
}
