/**
 * The decision record (SPEC.md §4.6): a wave's plans, digest, policy and gate
 * status, written by the whole-wave and the deciding job and read by share and
 * group jobs. This file owns its shape and its checked reading (with the input
 * reader); writing it is `writeFileAtomic`'s job.
 * @module
 */

import { parseHooks } from "../spec/parse_hooks.ts";
import { JsonReader, parseJson } from "../input/json_reader.ts";
import { DECISION_ID, MAX_BASES } from "./records.ts";
import { quote } from "../quote.ts";
import { GATE_POLICIES, type GatePolicy, type Hooks } from "../spec/types.ts";
import type { PolicySource } from "./policy_at_base.ts";
import { BASE_RULES, type BaseRule } from "./base_rule.ts";
import {
  MAX_ATTRIBUTE_PATH,
  MAX_CHANGE_ADDRESS,
  MAX_CHANGE_ATTRIBUTES,
  type PlanChange,
} from "../plan/plan_file.ts";
import { MAX_KEPT_CHANGES } from "../plan/plan_changes.ts";

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
   * summary and `--json`, and for the rules over them (§18): a share job
   * reads back each change's address, action and attribute paths (never its
   * statements), judges the rules on them, and refuses a run of its slice
   * whose fresh plan lists other changes.
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
  /**
   * The rules over the plans' changes that decided the gate (SPEC.md §18),
   * one line each, for the log and the job summary (never read back: a share
   * job judges them itself).
   */
  rules?: string[];
  /**
   * The freeze window that held when it was decided (SPEC.md §19), in words:
   * `approve --decided` (GitLab's manual approve job) then approves with
   * `--during-freeze`, since that click is what lets the plans through.
   */
  freeze?: string;
  createdAt: string;
  /**
   * The wave's hooks (SPEC.md §11), with the holds at base: share and group jobs
   * run these, once they checked them (`run/verify_decision.ts`). Absent when the wave
   * has none.
   */
  hooks?: Hooks;
}

/** The statuses a decision may end with. */
const STATUSES = ["approved", "not-required", "waiting"] as const;

function member(m: JsonReader): DecisionMember {
  m.object();
  const target = m.get("target").string({ nonEmpty: true });
  const planDigest = m.get("planDigest").digest();
  const flag = (key: string) => m.get(key).optional((r) => r.boolean());
  const destructive = flag("destructive");
  const empty = flag("empty");
  const summary = m.get("summary").optional((r) => r.string());
  const op = m.get("op").value;
  const changes = m.get("changes").optional(readChanges);
  const more = m.get("moreChanges").optional((r) => r.integer({ min: 1 }));
  return {
    target,
    planDigest,
    op: typeof op === "string" ? op : "",
    ...(destructive ? { destructive: true } : {}),
    ...(empty ? { empty: true } : {}),
    ...(summary === undefined ? {} : { summary }),
    ...(changes === undefined ? {} : { changes }),
    ...(more === undefined ? {} : { moreChanges: more }),
  };
}

/** A member's kept changes: address, action and attribute paths, bounded. */
function readChanges(list: JsonReader): PlanChange[] {
  return list.list(MAX_KEPT_CHANGES).map((entry) => {
    entry.object();
    const attributes = entry.get("attributes").optional((paths) =>
      paths.list(MAX_CHANGE_ATTRIBUTES).map((path) =>
        path.string({ nonEmpty: true, max: MAX_ATTRIBUTE_PATH })
      )
    );
    return {
      address: entry.get("address").string({
        nonEmpty: true,
        max: MAX_CHANGE_ADDRESS,
      }),
      action: entry.get("action").string({ nonEmpty: true, max: 32 }),
      ...(attributes === undefined ? {} : { attributes }),
    };
  });
}

/**
 * Parses a decision record's text and checks every field a share job relies on.
 * It checks form only: a record travels between jobs as a CI artifact, so whether
 * it says the truth (its digest, policy and approval) is checked against the spec
 * at base and the ledger by the share job (`verify_decision.ts`). Fields only
 * shown to people (`spec`, `policyReason`, `createdAt`, a member's `op`) read as
 * empty when they are not strings.
 * @param text The file's content.
 * @returns The decision, with only the fields of SPEC.md §4.6.
 * @throws {ShapeError} A one-line reason without a source (`is not a version 1
 *   decision record`, `"wave" is not a whole number of at least 1: 0`); the
 *   caller names the file.
 * @example
 * ```ts
 * parseDecision("{}"); // throws ShapeError "is not a version 1 decision record"
 * ```
 */
export function parseDecision(text: string): Decision {
  const d = new JsonReader(parseJson(text)).object();
  const raw = d.value as Record<string, unknown>;
  if (raw.version !== 1) d.fail("is not a version 1 decision record");
  const decisionId = d.get("decisionId").matching(DECISION_ID, "a decision id");
  const wave = d.get("wave").integer({ min: 1 });
  const status = d.get("status").oneOf(STATUSES);
  const policy = d.get("policy").oneOf(GATE_POLICIES);
  const base = d.get("base").fullSha();
  const bases = d.get("bases").optional((r) =>
    r.list(MAX_BASES).map((sha) => sha.fullSha())
  );
  if (bases?.length === 0) d.get("bases").fail("is an empty list");
  const digest = d.get("digest").digest();
  const targets = new Set<string>();
  const members = d.get("members").list().map((m) => {
    const read = member(m);
    if (targets.has(read.target)) {
      m.fail(`target ${quote(read.target)} appears twice`);
    }
    targets.add(read.target);
    return read;
  });
  const hooks = parseHooks(d.get("hooks"));
  const name = d.get("name").string();
  const gate = d.get("gate").string();
  const shown = (key: string) => typeof raw[key] === "string" ? raw[key] : "";
  return {
    version: 1,
    decisionId,
    wave,
    name,
    spec: shown("spec"),
    gate,
    policy,
    policySource: raw.policySource === "base" ? "base" : "absent-at-base",
    policyReason: shown("policyReason"),
    base,
    ...((BASE_RULES as readonly unknown[]).includes(raw.baseRule)
      ? { baseRule: raw.baseRule as BaseRule }
      : {}),
    ...(bases === undefined ? {} : { bases }),
    digest,
    members,
    status,
    ...(typeof raw.approvedBy === "string"
      ? { approvedBy: raw.approvedBy }
      : {}),
    ...(typeof raw.approvalId === "string" && DECISION_ID.test(raw.approvalId)
      ? { approvalId: raw.approvalId }
      : {}),
    ...(typeof raw.freeze === "string" && raw.freeze !== ""
      ? { freeze: raw.freeze }
      : {}),
    createdAt: shown("createdAt"),
    hooks,
  };
}
