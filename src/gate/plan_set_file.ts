/**
 * The plan set of a pending fact (SPEC.md §10): the `(target, planDigest)` pairs a
 * set digest names, kept beside the gate's records as `sets/<hex>.json` so that an
 * approval of the digest covers exactly those plans, with each plan's summary and
 * flags for approvers (`chant-wave show`). A plan set proves its pairs: they must
 * hash to the digest in its name; the summaries are shown, never trusted. Pure:
 * text in (read with the input reader), members out.
 * @module
 */

import { maskingReplacer } from "../console/visible.ts";
import { isDigest, setDigest } from "../digest/set_digest.ts";
import { JsonReader, parseJson } from "../input/json_reader.ts";
import { quote } from "../quote.ts";
import type { PlanPair } from "./records.ts";
import {
  keepChanges,
  type KeptChanges,
  MAX_KEPT_CHANGES,
} from "../plan/plan_changes.ts";
import {
  MAX_CHANGE_ADDRESS,
  MAX_CHANGE_STATEMENTS,
  MAX_STATEMENT_LENGTH,
  type PlanChange,
} from "../plan/plan_file.ts";

/**
 * A plan of a plan set: the pair, and what it says for approvers (its flags,
 * summary and the first 200 of its changes, SPEC.md §13.1).
 */
export interface PlanSetMember extends PlanPair, KeptChanges {
  destructive?: boolean;
  empty?: boolean;
  summary?: string;
}

/** The longest summary a plan set keeps, in characters. */
const MAX_SUMMARY = 1000;

function member(m: PlanSetMember): PlanSetMember {
  const kept = keepChanges(m.changes, m.moreChanges);
  // Attribute paths judge plan rules in the job; a plan set does not keep them.
  kept.changes = kept.changes?.map(({ attributes: _, ...change }) => change);
  return {
    target: m.target,
    planDigest: m.planDigest,
    ...(m.destructive ? { destructive: true } : {}),
    ...(m.empty ? { empty: true } : {}),
    ...(m.summary === undefined
      ? {}
      : { summary: m.summary.slice(0, MAX_SUMMARY) }),
    ...(kept.changes === undefined ? {} : { changes: kept.changes }),
    ...(kept.moreChanges === undefined
      ? {}
      : { moreChanges: kept.moreChanges }),
  };
}

const ACTION = /^[a-z][a-z0-9_-]{0,31}$/;

/** A plan set member's changes as read back: the well-formed ones, bounded. */
function changesOf(raw: Record<string, unknown>): KeptChanges {
  const { changes, moreChanges } = raw;
  if (!Array.isArray(changes)) return {};
  const kept: PlanChange[] = [];
  for (const entry of changes.slice(0, MAX_KEPT_CHANGES)) {
    const { address, action, statements } = (entry ?? {}) as Record<
      string,
      unknown
    >;
    if (
      typeof address === "string" && address !== "" &&
      address.length <= MAX_CHANGE_ADDRESS &&
      typeof action === "string" && ACTION.test(action)
    ) {
      const quoted = statementsOf(statements);
      kept.push({
        address,
        action,
        ...(quoted.length ? { statements: quoted } : {}),
      });
    }
  }
  const more = Number.isSafeInteger(moreChanges) && (moreChanges as number) > 0
    ? moreChanges as number
    : 0;
  return keepChanges(kept, more + changes.length - kept.length);
}

/** A change's statements as read back: the strings, bounded as a plan file's. */
function statementsOf(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.slice(0, MAX_CHANGE_STATEMENTS)
    .filter((s): s is string => typeof s === "string")
    .map((s) => s.slice(0, MAX_STATEMENT_LENGTH));
}

/**
 * The file name of a digest's plan set: its hex and `.json`.
 * @param digest A set digest, `sha256:<64 hex>`.
 * @returns `<64 hex>.json`.
 * @throws {Error} When `digest` is not a set digest.
 * @example
 * ```ts
 * planSetFileName("sha256:" + "a".repeat(64)); // "aaaa….json"
 * ```
 */
export function planSetFileName(digest: string): string {
  if (!isDigest(digest)) throw new Error(`not a set digest: ${digest}`);
  return `${digest.slice("sha256:".length)}.json`;
}

/**
 * Serialises a plan set: the members sorted by target, one per line, URLs in
 * their summaries masked (SPEC.md §14), the statements a plan quotes kept on
 * the first member of its digest only.
 * @param digest The set digest the members' pairs hash to.
 * @param members The members: target, plan digest, flags and summary.
 * @returns The file's text.
 * @example
 * ```ts
 * formatPlanSet(d, [{ target: "eu", planDigest: p }]);
 * // '{"version":1,"digest":"sha256:…","members":[\n{"target":"eu","planDigest":"sha256:…"}\n]}\n'
 * ```
 */
export function formatPlanSet(
  digest: string,
  members: readonly PlanSetMember[],
): string {
  const sorted = [...members].sort((a, b) =>
    a.target < b.target ? -1 : a.target > b.target ? 1 : 0
  );
  // A plan's statements are kept once, on the first member of its digest:
  // runs of one plan quote the same statements (grouping shows them there).
  const quoted = new Set<string>();
  const lines = sorted.map((m) => {
    const first = !quoted.has(m.planDigest);
    quoted.add(m.planDigest);
    return JSON.stringify(
      member(first ? m : withoutStatements(m)),
      maskingReplacer,
    );
  }).join(",\n");
  return `{"version":1,"digest":${
    JSON.stringify(digest)
  },"members":[\n${lines}\n]}\n`;
}

/** A member whose changes quote no statements. */
function withoutStatements(m: PlanSetMember): PlanSetMember {
  if (m.changes === undefined) return m;
  return {
    ...m,
    changes: m.changes.map(({ address, action }) => ({ address, action })),
  };
}

/**
 * Reads a plan set back and checks that its pairs hash to `digest`.
 * @param text The file's text.
 * @param digest The digest the file is named for.
 * @param source How messages name the file.
 * @returns The members, sorted by target.
 * @throws {ShapeError} A one-line reason naming `source` when the text is not
 *   a plan set of `digest`.
 * @example
 * ```ts
 * parsePlanSet(formatPlanSet(d, pairs), d); // pairs, sorted by target
 * ```
 */
export function parsePlanSet(
  text: string,
  digest: string,
  source = "",
): PlanSetMember[] {
  const set = new JsonReader(parseJson(text, { source }), { source }).object();
  if (set.get("digest").value !== digest) {
    set.fail(`is not the plan set of ${digest}`);
  }
  const targets = new Set<string>();
  const pairs = set.get("members").list().map((m) => {
    m.object();
    const target = m.get("target").string();
    if (targets.has(target)) m.fail(`target ${quote(target)} appears twice`);
    targets.add(target);
    const raw = m.value as Record<string, unknown>;
    return member({
      target,
      planDigest: m.get("planDigest").string(),
      destructive: raw.destructive === true,
      empty: raw.empty === true,
      ...(typeof raw.summary === "string" ? { summary: raw.summary } : {}),
      ...changesOf(raw),
    });
  });
  const actual = setDigest(pairs);
  if (actual !== digest) {
    set.fail(`its members hash to ${actual}, not ${digest}`);
  }
  return pairs;
}
