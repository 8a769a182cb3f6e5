/**
 * What `chant-wave status` shows (SPEC.md §10, §12, §12.1): for a gate whose
 * pending fact stands, the rules its job met at base, the tally of who counts
 * for its plans and each approval's verdict (the verified signer of a sealed
 * one), as `decidePending` answers; and the lines for people: a table with one
 * row per wave (its decision here, the revision it last completed, the plans it
 * still waits for, digests shortened), the details of the waves that have any,
 * and a last line naming the next step that works.
 * @module
 */

import { shortDigest } from "../gate/describe_record.ts";
import type { BaseRule } from "../base/resolve_base.ts";
import type { Decision } from "../gate/decision.ts";
import type { ApprovalStatus, GateStatus } from "../gate/gate_status.ts";
import { countOf } from "../count_of.ts";
import { shellLine } from "../shell_words.ts";
import { formatTable } from "../table.ts";
import {
  describeApprovers,
  describeMode,
  describeTrust,
} from "../gate/approval_at_base.ts";
import type { PlanSets } from "../gate/decide_gate.ts";
import { type ApprovalVerdict, tallyLine } from "../gate/gate_tally.ts";
import type { LedgerRecord, PendingRecord } from "../gate/records.ts";
import { summariseSeal } from "../seal/seal_summary.ts";
import type { ApprovalMode } from "../spec/types.ts";
import { decidePending, type PendingRulesIo } from "../base/pending_rules.ts";

/** One wave's status. */
export interface WaveStatus extends Omit<GateStatus, "approvals"> {
  wave: number;
  name: string;
  gate: string;
  /** The approvals since the last revoke, with their seals and verdicts. */
  approvals: ApprovalLine[];
  /** The rules the pending job met at base. */
  rules?: RulesStatus;
  /** Who counts for the pending plans. */
  tally?: TallyStatus;
  /** Why the rules could not be read here. */
  rulesUnread?: string;
  decision?: Pick<
    Decision,
    | "decisionId"
    | "status"
    | "digest"
    | "createdAt"
    | "policy"
    | "approvedBy"
    | "base"
    | "baseRule"
  >;
  /** The newest commit at which every applying job of the wave succeeded (§4.11). */
  completed?: { head: string; at: string };
  /** Whether the wave is complete at this checkout's HEAD, and the jobs missing. */
  atHead?: { head: string; complete: boolean; missing: string[] };
  /** The newest run of the wave out of order (`--out-of-order`). */
  outOfOrder?: { head: string; by: string; reason: string; at: string };
  /**
   * Its job waits until a time still to come (SPEC.md §19): its soak or a
   * freeze window's end, as the newest wait recorded says.
   */
  waitsUntil?: { for: "soak" | "freeze"; head: string; until: string };
  /** The freeze window of this spec holding now, in words. */
  freeze?: string;
}

/** How the commands a next-step line prints are completed. */
export interface NextStepContext {
  /** The spec file as the user named it. */
  specFile: string;
  /** The `--ledger` argument to print, when not the default. */
  ledgerArg?: string;
}

/** How status names the rule that chose a decision's base. */
const BASE_RULES: Record<BaseRule, string> = {
  flag: "--base",
  spec: "the spec's base",
  push: "the commit before the push",
  chain: "the strictest since the last decision",
};

/**
 * The lines of `status`: the table, each wave's details, the next step.
 * @param waves The waves shown, in order.
 * @param context The spec file and ledger the printed commands name.
 * @returns The lines, without newlines.
 * @example
 * ```ts
 * statusLines([{ wave: 1, name: "dev", gate: "tf-wave-1", approvals: [] }],
 *   { specFile: "waves.json" }).at(-1);
 * // 'next: run wave 1 "dev": chant-wave run --spec waves.json --wave 1'
 * ```
 */
export function statusLines(
  waves: readonly WaveStatus[],
  context: NextStepContext,
): string[] {
  const table = formatTable([
    ["wave", "name", "decision here", "completed", "waits for an approval of"],
    ...waves.map(tableRow),
  ]).trimEnd().split("\n");
  return [...table, ...waves.flatMap(details), nextStep(waves, context)];
}

function tableRow(wave: WaveStatus): string[] {
  const d = wave.decision;
  return [
    String(wave.wave),
    wave.name,
    d ? `${d.status}${d.approvedBy ? ` by ${d.approvedBy}` : ""}` : "none",
    wave.completed ? `at ${wave.completed.head.slice(0, 12)}` : "never",
    wave.pending
      ? `${shortDigest(wave.pending.planDigest)} (${
        countOf(wave.pending.members, "plan")
      })`
      : "-",
  ];
}

/** A wave's details, under a heading; none when there is nothing to add. */
function details(wave: WaveStatus): string[] {
  const lines: string[] = [];
  const d = wave.decision;
  if (d) {
    lines.push(
      `  decision: ${d.status}, ${
        shortDigest(d.digest)
      }, policy ${d.policy}, ${d.createdAt}${
        d.base
          ? `, base ${d.base.slice(0, 12)}${
            d.baseRule ? ` (${BASE_RULES[d.baseRule]})` : ""
          }`
          : ""
      }`,
    );
  }
  if (wave.completed) {
    const c = wave.completed;
    lines.push(`  completed: at ${c.head.slice(0, 12)}, ${c.at}`);
  }
  if (wave.outOfOrder) {
    const o = wave.outOfOrder;
    lines.push(
      `  out of order: at ${
        o.head.slice(0, 12)
      } by ${o.by}: ${o.reason} (${o.at})`,
    );
  }
  if (wave.waitsUntil) {
    const w = wave.waitsUntil;
    lines.push(
      `  waits for its ${w.for} at ${
        w.head.slice(0, 12)
      } until ${w.until} (chant-wave resume restarts its job then)`,
    );
  }
  if (wave.freeze) lines.push(`  freeze: ${wave.freeze}`);
  if (wave.revokedAt) lines.push(`  revoked: ${wave.revokedAt}`);
  if (wave.settledAt) {
    lines.push(
      `  settled: ${wave.settledAt} (every approval before it was spent: its plans applied)`,
    );
  }
  if (wave.pending) {
    const p = wave.pending;
    lines.push(
      `  waiting: ${
        shortDigest(p.planDigest)
      } since ${p.timestamp}, until ${p.expiresAt}`,
    );
  }
  if (wave.rules) lines.push(`  rules: ${describeRules(wave.rules)}`);
  if (wave.rulesUnread) {
    lines.push(`  rules: not read here: ${wave.rulesUnread}`);
  }
  if (wave.tally) lines.push(`  tally: ${describeTally(wave.tally)}`);
  for (const a of wave.approvals) {
    const plans = a.plans
      ? `plans: ${a.plans.applied} applied, ${a.plans.failed} failed, ${a.plans.unsettled} unsettled, ${a.plans.left} left`
      : "covers its digest as a whole";
    const seal = a.seal
      ? `, ${
        a.seal.verified ? "sealed" : "signed, not verified here,"
      } by ${a.seal.principal} (${a.seal.fingerprint})`
      : "";
    const counts = a.counts === false ? `, not counted: ${a.why}` : "";
    lines.push(
      `  approval: ${
        shortDigest(a.planDigest)
      } by ${a.by}${seal} at ${a.timestamp}${counts}, ${plans}`,
    );
  }
  if (lines.length === 0) return [];
  return [`wave ${wave.wave} "${wave.name}" (gate ${wave.gate})`, ...lines];
}

/**
 * The step that moves the rollout on, judged as the jobs judge it: the first
 * wave not complete at HEAD (ever completed, when HEAD is not known) waits for
 * approvers (the tally short of the rules; or no tally, when the rules its job
 * met cannot be read here, and why), holds a plan claimed with no
 * outcome (its job runs, or died: approve the plan again), or is to be run.
 */
function nextStep(
  waves: readonly WaveStatus[],
  context: NextStepContext,
): string {
  const ledger = context.ledgerArg === undefined
    ? []
    : ["--ledger", context.ledgerArg];
  const command = (verb: string, k: number, extra: string[] = []) =>
    shellLine([
      "chant-wave",
      verb,
      "--spec",
      context.specFile,
      "--wave",
      String(k),
      ...ledger,
      ...extra,
    ]);
  const head = waves.find((wave) => wave.atHead)?.atHead?.head;
  for (const wave of waves) {
    const done = wave.atHead
      ? wave.atHead.complete
      : wave.completed !== undefined;
    if (done) continue;
    const what = `wave ${wave.wave} "${wave.name}"`;
    const sign = wave.rules?.mode === "sealed" ? ["--sign"] : [];
    if (wave.pending && wave.rulesUnread) {
      return `next: ${what} waits for ${
        shortDigest(wave.pending.planDigest)
      }, whose approvals cannot be judged here: ${wave.rulesUnread}`;
    }
    if (wave.pending) {
      const t = wave.tally;
      const tally = t && t.digest === wave.pending.planDigest &&
          t.counted.length + t.refused.length > 0
        ? ` (${describeTally(t)})`
        : "";
      return `next: review and approve ${what}${tally}: ${
        command("show", wave.wave)
      }, then ${command("approve", wave.wave, sign)}`;
    }
    const stuck = wave.approvals.findLast((a) => (a.plans?.unsettled ?? 0) > 0);
    if (stuck) {
      const approve = command("approve", wave.wave, [
        "--plan",
        stuck.planDigest,
        ...sign,
      ]);
      return `next: ${what} has ${
        countOf(stuck.plans!.unsettled, "plan")
      } claimed under the approval by ${stuck.by} with no outcome: if its job still runs, wait for it; if it died, approve the plan again: ${approve}`;
    }
    const why = wave.atHead && wave.completed
      ? ` (completed at ${wave.completed.head.slice(0, 12)}, not at HEAD ${
        wave.atHead.head.slice(0, 12)
      })`
      : "";
    return `next: run ${what}${why}: ${command("run", wave.wave)}`;
  }
  return `next: nothing waits for an approval, and every wave has completed${
    head ? ` at ${head.slice(0, 12)}` : ""
  }`;
}

/** The rules at base, as status shows them. */
export interface RulesStatus {
  /** The base commit (full sha). */
  base: string;
  mode: ApprovalMode;
  /** The signers files a seal must verify against. */
  signers: string[];
  required: number;
  /** Each list must allow an approver; empty: anyone. */
  allowed: string[][];
  selfApproval: boolean;
  /** Which base waves governed. */
  reason: string;
}

/** Who counts for the pending plans. */
export interface TallyStatus {
  /** The pending digest. */
  digest: string;
  /** Whether enough distinct principals approved its plans. */
  approved: boolean;
  required: number;
  /** The principals that count, once each. */
  counted: string[];
  /** Approvals of its plans that do not count, and why. */
  refused: { principal: string; why: string }[];
}

/** An approval as status shows it: its seal, and whether it counts. */
export interface ApprovalLine extends ApprovalStatus {
  /** The seal's principal and key fingerprint; `verified` under the rules at base. */
  seal?: { principal: string; fingerprint: string; verified: boolean };
  /** Whether it counts under the rules at base (when they could be read). */
  counts?: boolean;
  /** Why it does not count. */
  why?: string;
}

/** What status knows about a gate's rules. */
export interface GateRulesStatus {
  rules?: RulesStatus;
  tally?: TallyStatus;
  /** Each approval's verdict under the rules, by id. */
  verdicts?: ReadonlyMap<string, ApprovalVerdict>;
  /** Why the rules could not be read here. */
  unread?: string;
}

/**
 * The rules of a gate's standing pending fact, the tally of its approvals and
 * each approval's verdict, as its waiting job would judge them
 * (`decidePending`).
 * @param pending The standing pending fact, if any.
 * @param records The gate's records, oldest first.
 * @param sets The plan sets of the counting approvals' digests.
 * @param io Git, the working directory, the clock, the ledger and the parser.
 * @returns Nothing without a pending fact; the rules, the tally and the
 *   verdicts; or why the rules could not be read.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function statusRules(
  pending: PendingRecord | undefined,
  records: readonly LedgerRecord[],
  sets: PlanSets,
  io: PendingRulesIo,
): Promise<GateRulesStatus> {
  if (pending === undefined) return {};
  const read = await decidePending(pending, records, sets, io);
  if (read.status === "unread") return { unread: read.why };
  const { rules: atBase, judged, decision } = read;
  const rules: RulesStatus = {
    base: read.base,
    mode: atBase.mode,
    signers: atBase.signers.map((ref) => ref.path),
    required: atBase.required,
    allowed: atBase.allowed,
    selfApproval: atBase.selfApproval,
    reason: atBase.reason,
  };
  if (read.set.length === 0) return { rules, verdicts: judged.verdicts };
  const tally = decision.tally ??
    { required: judged.required, counted: [], refused: [] };
  return {
    rules,
    verdicts: judged.verdicts,
    tally: {
      digest: pending.planDigest,
      approved: decision.status === "approved",
      required: tally.required,
      counted: tally.counted,
      refused: tally.refused.map((r) => ({ principal: r.display, why: r.why })),
    },
  };
}

/**
 * Adds each approval's seal and verdict under the rules at base: `sealed by`
 * for a seal verified there, `signed, not verified here` for one that was not.
 * @param approvals The gate's counting approvals as `gateStatus` lists them.
 * @param records The gate's records (for the seals).
 * @param rules What `statusRules` read.
 * @returns The approvals with their seals and verdicts.
 * @throws {Error} Only when WebCrypto lacks SHA-256 (a bug of the build).
 */
export async function approvalLines(
  approvals: readonly ApprovalStatus[],
  records: readonly LedgerRecord[],
  rules: GateRulesStatus,
): Promise<ApprovalLine[]> {
  const lines: ApprovalLine[] = [];
  for (const approval of approvals) {
    const record = records.find((r) => r.id === approval.id);
    const stored = record?.kind === "approval" ? record.seal : undefined;
    const verdict = rules.verdicts?.get(approval.id);
    const seal = verdict?.sealedBy
      ? { ...verdict.sealedBy, verified: true }
      : stored
      ? { ...await summariseSeal(stored), verified: false }
      : undefined;
    lines.push({
      ...approval,
      ...(seal ? { seal } : {}),
      ...(verdict ? { counts: verdict.counts } : {}),
      ...(verdict?.why ? { why: verdict.why } : {}),
    });
  }
  return lines;
}

/**
 * The rules line: the mode (a ledger gate's approvers are whoever `--by`
 * names, SPEC.md §12.1), the approver rules, and where they were read.
 * @param rules The rules at base.
 * @returns `sealed by <path>, 2 distinct approvers, … (read at …)`.
 */
export function describeRules(rules: RulesStatus): string {
  const mode = describeMode({
    mode: rules.mode,
    signers: rules.signers.map((path) => ({ sha: rules.base, path })),
  });
  return `${mode}, ${describeApprovers(rules)} (${rules.reason}); ${
    describeTrust(rules.mode)
  }`;
}

/**
 * The tally line of status, its digest shortened as status shortens them.
 * @param tally The tally of the pending plans.
 * @returns `1 of 2 approvals of sha256:<12 hex>: ann; not counted: eve (…)`,
 *   with ` (approved)` once enough count.
 */
export function describeTally(tally: TallyStatus): string {
  const line = tallyLine(
    {
      required: tally.required,
      counted: tally.counted,
      refused: tally.refused.map((r) => ({ display: r.principal, why: r.why })),
    },
    shortDigest(tally.digest),
  );
  return tally.approved ? `${line} (approved)` : line;
}
