/**
 * Judges each approval of a gate under the rules at base (SPEC.md §12, §12.1):
 * on a sealed gate its seal must verify against every signers file read at base
 * and its principal is the verified signer; on a forge gate a signed approval is
 * judged so too, and an unsigned one counts only as the forge confirmed it in
 * this job (its principal the login the forge shows); on a ledger gate its
 * principal is its `by`.
 * Then `allowed` must accept the principal, and with `selfApproval: false` it
 * must not be one of the change's authors or committers, nor the CI actor of a
 * waiting job. Pure but for WebCrypto (seals verify asynchronously); the signers
 * files and the change's people are read by edges and passed in.
 * @module
 */

import { type ChangePeople, MAX_CHANGE_COMMITS } from "../git/change_people.ts";
import type { ApprovalVerdict, GateRules } from "../ledger/gate_tally.ts";
import type { ApprovalRecord } from "../ledger/records.ts";
import {
  type Confirmation,
  forgeVerdict,
} from "../review/confirm_approvals.ts";
import { normalisePrincipal } from "../seal/normalise_principal.ts";
import { verifySeal } from "../seal/verify_seal.ts";
import type { ApprovalRules } from "./approval_at_base.ts";
import { principalAllowed } from "./principal_pattern.ts";
import type { SignersAtBase } from "./read_signers.ts";

/** What approvals are judged by. */
export interface JudgeInput {
  /** The rules at base. */
  rules: ApprovalRules;
  /** The signers file of each of `rules.signers`, as read (sealed gates). */
  signers: readonly SignersAtBase[];
  /** The authors and committers of the change (for `selfApproval: false`). */
  people: ChangePeople;
  /** The CI actors of the jobs that waited for these plans. */
  actors: readonly string[];
  /** The verifying time, milliseconds since the Unix epoch. */
  now: number;
  /**
   * What the forge confirmed in this job about the unsigned approvals of a
   * `forge` gate, by id (absent: the forge was not asked here).
   */
  confirmed?: ReadonlyMap<string, Confirmation>;
}

/** Why each of the change's own people does not count, by normalised principal. */
function selfReasons(input: JudgeInput): Map<string, string> {
  const reasons = new Map<string, string>();
  const add = (who: string, why: string) => {
    const principal = normalisePrincipal(who);
    if (principal !== "" && !reasons.has(principal)) {
      reasons.set(principal, why);
    }
  };
  if (input.people.status === "known") {
    for (const p of input.people.people) {
      if (p.role === "author") add(p.who, "the change's author");
    }
    for (const p of input.people.people) {
      if (p.role === "committer") add(p.who, "the change's committer");
    }
  }
  for (const actor of input.actors) {
    add(actor, "the CI actor of the waiting job");
  }
  return reasons;
}

/**
 * The principal of an approval on this gate, or why it does not count: the
 * verified signer of a sealed gate (the seal must verify against every signers
 * file), else its `by`.
 */
async function principalOf(
  approval: ApprovalRecord,
  input: JudgeInput,
): Promise<ApprovalVerdict> {
  const claimed = normalisePrincipal(approval.seal?.principal ?? approval.by);
  const refused = (why: string): ApprovalVerdict => ({
    principal: claimed,
    display: claimed || approval.by,
    counts: false,
    why,
  });
  if (input.rules.mode === "ledger") {
    return {
      principal: normalisePrincipal(approval.by),
      display: approval.by,
      counts: true,
    };
  }
  if (input.rules.mode === "forge" && approval.seal === undefined) {
    return forgeVerdict(approval, input.confirmed);
  }
  if (approval.seal === undefined) return refused("not signed");
  let sealedBy: ApprovalVerdict["sealedBy"];
  for (const signers of input.signers) {
    if (signers.status === "missing") return refused(signers.why);
    const verdict = await verifySeal({
      approval,
      seal: approval.seal,
      signers: signers.file,
      now: input.now,
    });
    if (!verdict.ok) return refused(verdict.reason);
    sealedBy = {
      principal: verdict.principal,
      fingerprint: verdict.fingerprint,
    };
  }
  if (sealedBy === undefined) {
    return refused("the gate is sealed, and no signers file is named at base");
  }
  return {
    principal: sealedBy.principal,
    display: sealedBy.principal,
    counts: true,
    sealedBy,
  };
}

/**
 * Judges every approval under the rules at base.
 * @param approvals The approvals to judge (those that count in the ledger).
 * @param input The rules, the signers files, the change's people and actors, the time.
 * @returns The gate rules: `required`, and each approval's verdict by id.
 * @throws {Error} Only when WebCrypto lacks an algorithm (a bug of the build).
 * @example
 * ```ts
 * const rules = await judgeApprovals(approvals, { rules, signers, people, actors, now });
 * rules.verdicts.get(approval.id)?.why; // e.g. "not signed"
 * ```
 */
export async function judgeApprovals(
  approvals: readonly ApprovalRecord[],
  input: JudgeInput,
): Promise<GateRules> {
  const self = input.rules.selfApproval ? undefined : selfReasons(input);
  const unknownPeople = !input.rules.selfApproval &&
      input.people.status === "too-long"
    ? `the change has more than ${MAX_CHANGE_COMMITS} commits, so who made it is not known`
    : undefined;
  const verdicts = new Map<string, ApprovalVerdict>();
  for (const approval of approvals) {
    const verdict = await principalOf(approval, input);
    const why = !verdict.counts
      ? undefined
      : verdict.principal === ""
      ? "names no approver"
      : !principalAllowed(verdict.principal, input.rules.allowed)
      ? "not in approvers.allowed"
      : unknownPeople ?? self?.get(verdict.principal);
    verdicts.set(
      approval.id,
      why === undefined ? verdict : { ...verdict, counts: false, why },
    );
  }
  return { required: input.rules.required, verdicts };
}
