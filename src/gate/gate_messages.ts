/**
 * The gate's name and words (SPEC.md §4.5, §5.3): `<gate>-wave-<k>`, which
 * every stage, command and record that names a gate takes from here; why a gate
 * waits, the command that approves a digest, and what `approve` and `revoke`
 * print. Pure strings; the decision itself is `decideGate`'s.
 * @module
 */

import { shellWord } from "../shell_words.ts";
import type { LedgerRecord } from "./records.ts";
import type { Spec } from "../spec/types.ts";

/**
 * Says that the gate stands approved for another digest than this plan's.
 * @param gate The gate, `<gate>-wave-<k>`.
 * @param approved The digest the approval is for.
 * @param by Who approved it.
 * @param digest This plan's set digest.
 * @returns `gate "<G>" is approved for <D_old> by <who>, but this plan is <D>`.
 * @example
 * ```ts
 * approvedForAnotherMessage("tf-wave-2", "sha256:1…", "ann", "sha256:2…");
 * // 'gate "tf-wave-2" is approved for sha256:1… by ann, but this plan is sha256:2…'
 * ```
 */
export function approvedForAnotherMessage(
  gate: string,
  approved: string,
  by: string,
  digest: string,
): string {
  return `gate "${gate}" is approved for ${approved} by ${by}, but this plan is ${digest}`;
}

/**
 * Says why an approval does not cover one member: its plan moved since the
 * approval (the approval names another plan of the target), or the approval
 * names no plan of the target at all.
 * @param member The member's target and plan digest.
 * @param approved The plan digest the approval names for the target, if any.
 * @param approval Who approved which digest.
 * @returns `<target>: its plan moved since the approval of <D> by <who>: approved
 *   <d1>, planned now <d2>`, or `<target>: the approval of <D> by <who> does not
 *   cover it`.
 * @example
 * ```ts
 * uncoveredMessage({ target: "eu", planDigest: d2 }, d1, { planDigest: D, by: "ann" });
 * // "eu: its plan moved since the approval of sha256:… by ann: approved sha256:…, planned now sha256:…"
 * ```
 */
export function uncoveredMessage(
  member: { target: string; planDigest: string },
  approved: string | undefined,
  approval: { planDigest: string; by: string },
): string {
  const of = `the approval of ${approval.planDigest} by ${approval.by}`;
  return approved === undefined
    ? `${member.target}: ${of} does not cover it`
    : `${member.target}: its plan moved since ${of}: approved ${approved}, planned now ${member.planDigest}`;
}

/**
 * Says that a target plans again, unchanged, a plan it already applied under
 * an approval (SPEC.md §17): what applied is gone (reverted by hand), and an
 * approval covers each plan's one successful apply, so it waits for a new one.
 * @param member The target and the plan it planned again.
 * @param approval Who approved it, when it applied.
 * @returns `<target>: moved back since it applied this plan (<d>) under the
 *   approval by <who> at <time>; applying it again needs a new approval`.
 * @example
 * ```ts
 * movedBackMessage({ target: "eu-01", planDigest: d }, { by: "ann", timestamp: t });
 * // "eu-01: moved back since it applied this plan (sha256:…) under the approval by ann at …; applying it again needs a new approval"
 * ```
 */
export function movedBackMessage(
  member: { target: string; planDigest: string },
  approval: { by: string; timestamp: string },
): string {
  return `${member.target}: moved back since it applied this plan (${member.planDigest}) ` +
    `under the approval by ${approval.by} at ${approval.timestamp}; applying it again needs a new approval`;
}

/**
 * Says that the approval of this digest was revoked (an `expired` record is newer).
 * @param digest The set digest.
 * @param by Who approved it.
 * @param revokedAt The `expired` record's timestamp.
 * @returns `the approval of <D> by <who> was revoked at <time>; approve again`.
 * @example
 * ```ts
 * revokedMessage("sha256:1…", "ann", "2026-11-30T09:15:02.123Z");
 * // "the approval of sha256:1… by ann was revoked at 2026-11-30T09:15:02.123Z; approve again"
 * ```
 */
export function revokedMessage(
  digest: string,
  by: string,
  revokedAt: string,
): string {
  return `the approval of ${digest} by ${by} was revoked at ${revokedAt}; approve again`;
}

/**
 * Who a revoke that settles a gate (`spent_cut.ts`) says wrote it: a job that
 * starts a new rollout, or `ledger compact`.
 */
export const SETTLED_BY = "chant-wave";

/** What a revoke that settles a gate says. */
export const SETTLED_NOTE = "settled: every approval before it was spent";

/**
 * Whether a revoke is one that settled its gate: only which words a message
 * uses, the record's `by` and `note` being whatever its writer put there.
 * @param record A record, if any.
 * @returns `true` for an `expired` record with the settle's `by` and `note`.
 * @example
 * ```ts
 * isSettleRevoke(undefined); // false
 * ```
 */
export function isSettleRevoke(record: LedgerRecord | undefined): boolean {
  return record?.kind === "expired" && record.by === SETTLED_BY &&
    record.note === SETTLED_NOTE;
}

/**
 * Says that the approval of this digest was spent and the gate was settled
 * after it (its plans applied, so planning them again asks anew).
 * @param digest The set digest.
 * @param by Who approved it.
 * @param settledAt The settling revoke's timestamp.
 * @returns `the approval of <D> by <who> was spent: its plans applied, and the gate was settled at <time>; approve again`.
 * @example
 * ```ts
 * settledMessage("sha256:1…", "ann", "2026-11-30T09:15:02.123Z");
 * ```
 */
export function settledMessage(
  digest: string,
  by: string,
  settledAt: string,
): string {
  return `the approval of ${digest} by ${by} was spent: its plans applied, and the gate was settled at ${settledAt}; approve again`;
}

/**
 * Says that nothing approves this digest.
 * @param gate The gate.
 * @param digest The set digest.
 * @returns `gate "<G>" has no approval for <D>`.
 * @example
 * ```ts
 * noApprovalMessage("tf-wave-2", "sha256:1…"); // 'gate "tf-wave-2" has no approval for sha256:1…'
 * ```
 */
export function noApprovalMessage(gate: string, digest: string): string {
  return `gate "${gate}" has no approval for ${digest}`;
}

/** How a printed approve command must reach and seal the approval. */
export interface ApproveCommandOptions {
  /** The `--ledger` argument, when the job's ledger is not the default. */
  ledger?: string;
  /** The gate is sealed (SPEC.md §12): only a signed approval counts. */
  sign?: boolean;
  /** A freeze window holds (SPEC.md §19): only `--during-freeze` lets it through. */
  duringFreeze?: boolean;
}

/**
 * The command that approves exactly this digest (SPEC.md §4.5), with the ledger
 * the job used and, on a sealed gate, `--sign`, so that it works as printed.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param digest The set digest.
 * @param options The ledger argument, and whether the gate is sealed.
 * @returns `chant-wave approve <name> <gate> --plan <D> [--ledger <L>] [--sign]`.
 * @example
 * ```ts
 * approveCommand("tf", "tf-wave-2", "sha256:1…", { ledger: "git", sign: true });
 * // "chant-wave approve tf tf-wave-2 --plan sha256:1… --ledger git --sign"
 * ```
 */
export function approveCommand(
  name: string,
  gate: string,
  digest: string,
  options: ApproveCommandOptions = {},
): string {
  const words = [`chant-wave approve ${name} ${gate} --plan ${digest}`];
  if (options.ledger !== undefined) {
    words.push(`--ledger ${shellWord(options.ledger)}`);
  }
  if (options.sign) words.push("--sign");
  if (options.duringFreeze) words.push("--during-freeze");
  return words.join(" ");
}

/**
 * What `chant-wave approve` prints once the approval is recorded (SPEC.md §5.3).
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param digest The approved digest.
 * @param by Who approved.
 * @returns Two lines, without newlines.
 * @example
 * ```ts
 * approvedLines("tf", "tf-wave-2", "sha256:1…", "ann")[0];
 * // "approved tf-wave-2 of tf for sha256:1… by ann"
 * ```
 */
export function approvedLines(
  name: string,
  gate: string,
  digest: string,
  by: string,
): string[] {
  return [
    `approved ${gate} of ${name} for ${digest} by ${by}`,
    "this approves that plan only; a job whose fresh plan differs refuses it",
  ];
}

/**
 * What `chant-wave revoke` prints once the `expired` record is written.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @returns One line.
 * @example
 * ```ts
 * revokedLine("tf", "tf-wave-2");
 * // "revoked tf-wave-2 of tf: earlier approvals and pending facts no longer count"
 * ```
 */
export function revokedLine(name: string, gate: string): string {
  return `revoked ${gate} of ${name}: earlier approvals and pending facts no longer count`;
}

/**
 * Says, under "no approval", that the gate was settled: the approvals before
 * it were spent, and folded.
 * @param settledAt The settling revoke's timestamp.
 * @returns `the gate was settled at <time>: every approval before it was spent (its plans applied)`.
 * @example
 * ```ts
 * settledNote("2026-11-30T09:15:02.123Z");
 * ```
 */
export function settledNote(settledAt: string): string {
  return `the gate was settled at ${settledAt}: every approval before it was spent (its plans applied)`;
}

/**
 * The gate of wave `k`: `<gate>-wave-<k>`.
 * @param spec The spec (its `gate` prefix).
 * @param k The wave's number.
 * @returns The gate's name.
 * @example
 * ```ts
 * gateName({ gate: "tf" }, 2); // "tf-wave-2"
 * ```
 */
export function gateName(spec: Pick<Spec, "gate">, k: number): string {
  return `${spec.gate}-wave-${k}`;
}
