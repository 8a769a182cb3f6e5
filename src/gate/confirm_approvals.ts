/**
 * The seam between a `forge` gate and the forge (SPEC.md §12, §13): an
 * approval record on such a gate counts only when the forge's API confirms, in
 * this job, the action the record names. Each way of approving on the forge is
 * one `ActionKind` (today the merged pull request's review; a dispatched
 * approve run or a manual approve job are further kinds), and the gate sees
 * only the resulting confirmations, never how they were made: a new kind is a
 * new `ActionKind` in `forge_confirmer.ts`'s list, and the gate does not
 * change. A record that names no action, or one the forge does not confirm, is
 * refused with its reason, logged once per job; so is one whose action another
 * record names too, or a revoke ended (`action_floor.ts`), without asking.
 * @module
 */

import type { ApprovalVerdict } from "./gate_tally.ts";
import type { ActionsThrough, ApprovalRecord } from "./records.ts";
import { actionRefusals } from "./action_floor.ts";
import { normalisePrincipal } from "../seal/seal.ts";

/** What the forge said, in this job, about the action one approval names. */
export type Confirmation =
  /** The forge confirms it: `login` is whom the forge shows doing it. */
  | { confirmed: true; login: string }
  /** It does not count: why (printed in the tally and the log). */
  | { confirmed: false; why: string };

/** One kind of action on the forge that approves (a review, a run, a job). */
export interface ActionKind {
  /**
   * Confirms the action `approval` names, when it names one of this kind;
   * asks the forge at most once per job for what every approval needs.
   * @param approval An unsigned approval of the gate.
   * @returns The confirmation, or `undefined` when the approval names no
   *   action of this kind.
   * @throws {InputError} When the forge's settings in the environment are malformed.
   */
  confirm(approval: ApprovalRecord): Promise<Confirmation | undefined>;
}

/** Confirms the approvals of one forge gate, in one job. */
export interface ApprovalConfirmer {
  /**
   * Confirms each approval through the kind whose action it names.
   * @param approvals The gate's unsigned counting approvals.
   * @param digest The digest the job decides: refusals of approvals of it are logged.
   * @param ended The highest ids every revoke read ended (`revoke_floor.ts`): the forge
   *   actions it ended.
   * @returns Each approval's confirmation, by id.
   * @throws {InputError} When the forge's settings in the environment are malformed.
   */
  confirm(
    approvals: readonly ApprovalRecord[],
    digest: string,
    ended?: ActionsThrough,
  ): Promise<ReadonlyMap<string, Confirmation>>;
}

/** How a confirmer is made: its kinds, and where refusals are said. */
export interface ConfirmerOptions {
  /** The kinds of action, tried in order; the first that knows an approval's action confirms it. */
  kinds: readonly ActionKind[];
  /**
   * Why nothing is asked at all (a dry run), refusing every approval; absent:
   * the kinds are asked.
   */
  notAsked?: string;
  /** Says a refusal (`the approval by bob does not count: …`). */
  log: (line: string) => void;
}

/** Why an approval that names no action of any kind does not count. */
export const NAMES_NO_ACTION =
  "a plain ledger approval: it names no action the forge confirms";

/**
 * Makes the confirmer of one gate in one job. Each approval is confirmed once
 * (by id); a refusal of an approval of the decided digest is logged once.
 * @param options The kinds, whether to ask, and the log.
 * @returns The confirmer.
 * @example
 * ```ts
 * const confirmer = approvalConfirmer({ kinds: [], log: console.error });
 * (await confirmer.confirm([plain], digest)).get(plain.id);
 * // { confirmed: false, why: NAMES_NO_ACTION }
 * ```
 */
export function approvalConfirmer(
  options: ConfirmerOptions,
): ApprovalConfirmer {
  const known = new Map<string, Confirmation>();
  const said = new Set<string>();
  const confirmOne = async (approval: ApprovalRecord) => {
    if (options.notAsked !== undefined) {
      return { confirmed: false, why: options.notAsked } as const;
    }
    for (const kind of options.kinds) {
      const confirmation = await kind.confirm(approval);
      if (confirmation !== undefined) return confirmation;
    }
    return { confirmed: false, why: NAMES_NO_ACTION } as const;
  };
  return {
    async confirm(approvals, digest, ended) {
      const out = new Map<string, Confirmation>();
      const refusals = actionRefusals(approvals, ended);
      for (const approval of approvals) {
        const refused = refusals.get(approval.id);
        let confirmation: Confirmation | undefined = refused === undefined
          ? known.get(approval.id)
          : { confirmed: false, why: refused };
        if (confirmation === undefined) {
          confirmation = await confirmOne(approval);
          known.set(approval.id, confirmation);
        }
        out.set(approval.id, confirmation);
        if (
          !confirmation.confirmed && approval.planDigest === digest &&
          !said.has(approval.id)
        ) {
          said.add(approval.id);
          options.log(
            `the approval by ${approval.by} does not count: ${confirmation.why}`,
          );
        }
      }
      return out;
    },
  };
}

/**
 * The verdict of an unsigned approval on a forge gate (SPEC.md §12, §13.1): it
 * counts when the forge confirmed it in this job, its principal then the login
 * the forge shows, as `login:<name>` (so `approvers.allowed` matches it with
 * `login:` patterns, and `ann` and `login:ann` are one approver); otherwise it
 * does not count, with the reason.
 * @param approval The approval.
 * @param confirmations The job's confirmations (absent: the forge was not asked here).
 * @returns The verdict.
 * @example
 * ```ts
 * forgeVerdict(plain, undefined).why; // NOT_ASKED_HERE
 * ```
 */
export function forgeVerdict(
  approval: ApprovalRecord,
  confirmations: ReadonlyMap<string, Confirmation> | undefined,
): ApprovalVerdict {
  const confirmation = confirmations?.get(approval.id);
  if (confirmation?.confirmed) {
    const login = normalisePrincipal(confirmation.login).replace(/^login:/, "");
    return {
      principal: `login:${login}`,
      display: confirmation.login,
      counts: true,
      identity: login,
    };
  }
  return {
    principal: normalisePrincipal(approval.by),
    display: approval.by,
    counts: false,
    why: confirmation?.why ?? NOT_ASKED_HERE,
  };
}

/** Why an unsigned approval of a forge gate does not count where nobody asks the forge. */
export const NOT_ASKED_HERE =
  "the forge was not asked to confirm it here; the gate's CI jobs ask it";
