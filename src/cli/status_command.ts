/**
 * `chant-wave status --spec F`: per wave, the last decision (when its record is
 * here), the standing pending fact, the approval rules its job met at base and
 * the tally of who counts (SPEC.md §12.1), and the approvals with whether they
 * are spent and who sealed them.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { readFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { OK } from "../exit_codes.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { type Decision, parseDecision } from "../run/decision.ts";
import { gateName } from "../run/decide_wave.ts";
import {
  type ApprovalStatus,
  type GateStatus,
  gateStatus,
} from "../run/gate_status.ts";
import { loadPlanSets } from "../run/read_gate.ts";
import { newestPending } from "../ledger/decide_gate.ts";
import { tallyLine } from "../ledger/gate_tally.ts";
import type { LedgerRecord } from "../ledger/records.ts";
import { describeApprovers, describeMode } from "../policy/approval_at_base.ts";
import { summariseSeal } from "../seal/seal_summary.ts";
import {
  type GateRulesStatus,
  type RulesStatus,
  statusRules,
  type TallyStatus,
} from "./_status_rules.ts";
import type { Command } from "./command.ts";
import { parseFlags, requireFlag } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { openLedger } from "./_open_ledger.ts";

/** An approval as status shows it: its seal, and whether it counts. */
interface ApprovalLine extends ApprovalStatus {
  /** The seal's principal and key fingerprint; `verified` under the rules at base. */
  seal?: { principal: string; fingerprint: string; verified: boolean };
  /** Whether it counts under the rules at base (when they could be read). */
  counts?: boolean;
  /** Why it does not count. */
  why?: string;
}

/** One wave's status. */
interface WaveStatus extends Omit<GateStatus, "approvals"> {
  wave: number;
  name: string;
  gate: string;
  approvals: ApprovalLine[];
  /** The rules the pending job met at base. */
  rules?: RulesStatus;
  /** Who counts for the pending plans. */
  tally?: TallyStatus;
  /** Why the rules could not be read here. */
  rulesUnread?: string;
  decision?: Pick<
    Decision,
    "decisionId" | "status" | "digest" | "createdAt" | "policy" | "approvedBy"
  >;
}

/** The `status` command. */
export const statusCommand: Command = {
  name: "status",
  summary: "show each wave's decision, pending plan and approvals",
  usage: "chant-wave status --spec F [--ledger L] [--json]",
  help: [
    "For every wave: the last decision recorded in this working directory, the",
    "pending plan that waits for an approval, the approval rules at its base and",
    "the tally of who counts, and each approval since the last revoke with the",
    "decision that spent it and who sealed it.",
    "",
    "  --spec F     the waves file",
    "  --ledger L   git[:remote] or a directory (default .chant/ledger; $CHANT_WAVE_LEDGER)",
    "  --json       print { name, waves: [...] } on stdout",
    "",
    "example: chant-wave status --spec waves.jsonc",
  ].join("\n"),
  async run(argv, io) {
    const flags = parseFlags("status", argv, {
      strings: ["spec", "ledger"],
      booleans: ["json"],
    });
    const file = requireFlag("status", flags, "spec");
    const { spec } = await loadSpec(file, io.cwd);
    const ledger = await openLedger(flags.strings.ledger, io);
    const waves: WaveStatus[] = [];
    for (const wave of spec.waves) {
      const gate = gateName(spec, wave.k);
      const { records, problems } = await ledger.readGate(spec.name, gate);
      for (const problem of problems) lineLog(io.stderr)(`warning: ${problem}`);
      const decision = await readDecision(
        resolve(io.cwd, decisionRecordPath(spec.name, wave.k)),
      );
      const sets = await loadPlanSets(ledger, spec.name, gate, records);
      const standing = gateStatus(records, sets, io.clock.now());
      const rules = await statusRules(
        newestPending(records, io.clock.now()),
        records,
        sets,
        { ...io, ledger },
      );
      waves.push({
        wave: wave.k,
        name: wave.name,
        gate,
        ...(decision ? { decision } : {}),
        ...standing,
        approvals: await approvalLines(standing.approvals, records, rules),
        ...(rules.rules ? { rules: rules.rules } : {}),
        ...(rules.tally ? { tally: rules.tally } : {}),
        ...(rules.unread ? { rulesUnread: rules.unread } : {}),
      });
    }
    if (flags.booleans.json) {
      io.stdout.write(JSON.stringify({ name: spec.name, waves }) + "\n");
    } else waves.flatMap(describeWave).forEach(lineLog(io.stdout));
    return OK;
  },
};

/** Adds each approval's seal and verdict under the rules at base. */
async function approvalLines(
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

async function readDecision(path: string): Promise<WaveStatus["decision"]> {
  try {
    const { decisionId, status, digest, createdAt, policy, approvedBy } =
      parseDecision(await readFile(path, "utf8"));
    return {
      decisionId,
      status,
      digest,
      createdAt,
      policy,
      ...(approvedBy ? { approvedBy } : {}),
    };
  } catch {
    return undefined;
  }
}

function describeWave(wave: WaveStatus): string[] {
  const lines = [`wave ${wave.wave} "${wave.name}"  gate ${wave.gate}`];
  const d = wave.decision;
  lines.push(
    d
      ? `  decision: ${d.status}${
        d.approvedBy ? ` by ${d.approvedBy}` : ""
      }, ${d.digest}, policy ${d.policy}, ${d.createdAt}`
      : "  decision: none here",
  );
  if (wave.revokedAt) lines.push(`  revoked: ${wave.revokedAt}`);
  if (wave.pending) {
    lines.push(
      `  pending: ${wave.pending.planDigest} since ${wave.pending.timestamp}, until ${wave.pending.expiresAt}`,
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
      `  approval: ${a.planDigest} by ${a.by}${seal} at ${a.timestamp}${counts}, ${plans}`,
    );
  }
  return lines;
}

/**
 * The rules line: the mode (a ledger gate's approvers are whoever `--by`
 * names, SPEC.md §12.1), the approver rules, and where they were read.
 */
function describeRules(rules: RulesStatus): string {
  const mode = describeMode({
    mode: rules.mode,
    signers: rules.signers.map((path) => ({ sha: rules.base, path })),
  });
  const caveat = rules.mode === "sealed"
    ? ""
    : " (an approver is whoever --by names)";
  return `${mode}${caveat}, ${describeApprovers(rules)} (${rules.reason})`;
}

/** The tally line: `1 of 2 approvals of D: ann; not counted: eve (…)`. */
function describeTally(tally: TallyStatus): string {
  const line = tallyLine(
    {
      required: tally.required,
      counted: tally.counted,
      refused: tally.refused.map((r) => ({ display: r.principal, why: r.why })),
    },
    tally.digest,
  );
  return tally.approved ? `${line} (approved)` : line;
}
