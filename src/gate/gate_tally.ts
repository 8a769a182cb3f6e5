/**
 * The tally of a gate's approvals (SPEC.md §12, §12.1): who counts, who does not
 * and why, given each approval's verdict under the rules at base, and the
 * tally of fresh approvals (those not used before for a plan a job is to
 * claim, and the approvers left out because theirs were). Pure: the verdicts
 * are computed before (seals verified, principals judged); which approvals
 * cover a decision's plans is `decideGate`'s business.
 * @module
 */

import { normalisePrincipal } from "../seal/seal.ts";
import type { ApprovalRecord, GateMember } from "./records.ts";
import type { UsedFor } from "./claims.ts";

/** How the rules at base judge one approval. */
export interface ApprovalVerdict {
  /** The principal, normalised (NFKC, trimmed, lowercased): distinctness is by it. */
  principal: string;
  /** How messages name it: the `by` of a ledger approval, the verified signer of a sealed one. */
  display: string;
  /** Whether it may count. */
  counts: boolean;
  /** Why it does not count (`not signed`, `the change's author`, …). */
  why?: string;
  /** The verified signer and key fingerprint of a sealed approval that verified. */
  sealedBy?: { principal: string; fingerprint: string };
  /**
   * Who the approver is, for distinctness (SPEC.md §12): on a sealed gate the
   * signer identity (every key and principal listed together is one person);
   * absent: the principal.
   */
  identity?: string;
  /**
   * It was given with `--during-freeze` and may let its digest through a
   * freeze window (SPEC.md §19): on a forge gate only a sealed one may.
   */
  passesFreeze?: boolean;
}

/** The rules a gate is decided under: how many, and each approval's verdict. */
export interface GateRules {
  /** Distinct principals required. */
  required: number;
  /**
   * The verdict of each approval by id; an approval without one does not count
   * (`not judged`).
   */
  verdicts: ReadonlyMap<string, ApprovalVerdict>;
}

/** Who counted and who did not, among the approvals that cover a decision's plans. */
export interface Tally {
  /** Distinct principals required. */
  required: number;
  /** The principals that count, in ledger order, once each (display names). */
  counted: string[];
  /** The approvals that cover the plans but do not count, once per name and reason. */
  refused: { display: string; why: string }[];
}

/**
 * The verdict of an approval under `rules`; without rules (a plain gate), every
 * approval counts and its principal is its `by`.
 * @param approval The approval.
 * @param rules The rules, if any.
 * @returns The verdict.
 * @example
 * ```ts
 * verdictOf(approval, undefined).counts; // true
 * ```
 */
export function verdictOf(
  approval: ApprovalRecord,
  rules: GateRules | undefined,
): ApprovalVerdict {
  if (rules === undefined) {
    return {
      principal: normalisePrincipal(approval.by),
      display: approval.by,
      counts: true,
      ...(approval.duringFreeze ? { passesFreeze: true } : {}),
    };
  }
  return rules.verdicts.get(approval.id) ?? {
    principal: "",
    display: approval.by,
    counts: false,
    why: "not judged",
  };
}

/** Who a verdict's approver is, for distinctness. */
function identityOf(verdict: ApprovalVerdict): string {
  return verdict.identity ?? verdict.principal;
}

/** Why a counting approval of an identity that already counted is not counted again. */
function sameSigner(first: ApprovalVerdict, again: ApprovalVerdict): string {
  if (first.sealedBy === undefined || again.sealedBy === undefined) {
    return `the same approver as ${first.display}`;
  }
  return first.sealedBy.fingerprint === again.sealedBy.fingerprint
    ? `the same key as ${first.display}`
    : `the same signer as ${first.display} in the signers file`;
}

/**
 * Tallies approvals: each identity (SPEC.md §12: on a sealed gate every key and
 * principal listed together is one person; else the principal) whose approval
 * counts is named once, by its oldest counting approval. Another counting
 * approval of that identity under another principal is listed as not counted
 * (`the same key as ann@example.com`); one under the same principal is not
 * listed. An approval that does not count is listed with its reason unless its
 * principal counts through another approval, or (given `digest`) it was given
 * for another digest: what its approver did not approve is not theirs to
 * explain.
 * @param approvals The approvals that cover the plans, oldest first.
 * @param rules The rules, if any.
 * @param digest The decision's set digest, when only its own approvals are to be
 *   named as not counted.
 * @returns The tally.
 * @example
 * ```ts
 * tallyApprovals([annTwice, annAgain, eve], rules);
 * // { required: 2, counted: ["ann"], refused: [{ display: "eve", why: "the change's author" }] }
 * ```
 */
export function tallyApprovals(
  approvals: readonly ApprovalRecord[],
  rules: GateRules | undefined,
  digest?: string,
): Tally {
  const verdicts = approvals.map((approval) => verdictOf(approval, rules));
  const first = new Map<string, ApprovalVerdict>();
  const countingPrincipals = new Set<string>();
  for (const verdict of verdicts) {
    if (!verdict.counts) continue;
    countingPrincipals.add(verdict.principal);
    if (!first.has(identityOf(verdict))) {
      first.set(identityOf(verdict), verdict);
    }
  }
  const refused = new Map<string, { display: string; why: string }>();
  const refuse = (display: string, why: string) =>
    refused.set(`${display}\n${why}`, { display, why });
  for (const [i, verdict] of verdicts.entries()) {
    if (verdict.counts) {
      const earlier = first.get(identityOf(verdict))!;
      if (earlier.principal !== verdict.principal) {
        refuse(verdict.display, sameSigner(earlier, verdict));
      }
    } else if (
      (verdict.principal === "" ||
        !countingPrincipals.has(verdict.principal)) &&
      (digest === undefined || approvals[i].planDigest === digest)
    ) {
      refuse(verdict.display, verdict.why ?? "not counted");
    }
  }
  return {
    required: rules?.required ?? 1,
    counted: [...first.values()].map((verdict) => verdict.display),
    refused: [...refused.values()],
  };
}

/** How many refused approvals a tally line names. */
const NAMED_REFUSED = 10;

/**
 * The waiting message's tally (SPEC.md §12.1).
 * @param tally The tally.
 * @param digest The decision's set digest.
 * @returns `2 of 3 approvals of <D>: ann@example.com, bob@example.com; not
 *   counted: eve@example.com (the change's author)`.
 * @example
 * ```ts
 * tallyLine({ required: 2, counted: ["ann"], refused: [] }, "sha256:1…");
 * // "1 of 2 approvals of sha256:1…: ann"
 * ```
 */
export function tallyLine(tally: Tally, digest: string): string {
  const counted = tally.counted.length ? `: ${tally.counted.join(", ")}` : "";
  const shown = tally.refused.slice(0, NAMED_REFUSED)
    .map((r) => `${r.display} (${r.why})`);
  const more = tally.refused.length - shown.length;
  if (more > 0) shown.push(`and ${more} more`);
  const refused = shown.length ? `; not counted: ${shown.join(", ")}` : "";
  return `${tally.counted.length} of ${tally.required} approval${
    tally.required === 1 ? "" : "s"
  } of ${digest}${counted}${refused}`;
}

/**
 * The tally of the approvals that cover the plans, leaving out those already
 * used for a plan to be claimed (SPEC.md §12.1): an approver counted only
 * through such approvals is named, with the plan.
 * @param covering The approvals that cover the plans, oldest first.
 * @param claimable The plans a job would claim under the approval.
 * @param used The approvals already used for a plan (`usedApprovals`).
 * @param query The decision's digest and the rules.
 * @returns The tally.
 * @example
 * ```ts
 * freshTally([ann, bob], [eu], (id, plans) => id === ann.id ? plans[0] : undefined, { digest });
 * // { required: 1, counted: ["bob"], refused: [{ display: "ann", why: "used for eu before" }] }
 * ```
 */
export function freshTally(
  covering: readonly ApprovalRecord[],
  claimable: readonly GateMember[],
  used: UsedFor,
  query: { digest: string; rules?: GateRules },
): Tally {
  const usedFor = (approval: ApprovalRecord) => used(approval.id, claimable);
  // One that does not count is named for its own reason.
  const fresh = covering.filter((a) =>
    !verdictOf(a, query.rules).counts || usedFor(a) === undefined
  );
  const tally = tallyApprovals(fresh, query.rules, query.digest);
  if (fresh.length === covering.length) return tally;
  const counting = new Set(
    fresh.map((a) => verdictOf(a, query.rules))
      .filter((v) => v.counts).map((v) => v.principal),
  );
  const named = new Set<string>();
  for (const approval of covering) {
    const plan = usedFor(approval);
    const verdict = verdictOf(approval, query.rules);
    if (
      plan === undefined || !verdict.counts ||
      counting.has(verdict.principal) || named.has(verdict.principal)
    ) continue;
    named.add(verdict.principal);
    tally.refused.push({
      display: verdict.display,
      why: `used for ${plan.target} before`,
    });
  }
  return tally;
}
