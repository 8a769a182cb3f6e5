/**
 * `chant-wave status --spec F`: per wave, the last decision (when its record is
 * here), the standing pending fact, the approval rules its job met at base and
 * the tally of who counts (SPEC.md §12.1), and the approvals with whether they
 * are spent and who sealed them.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { OK } from "../exit_codes.ts";
import { readBounded } from "../fs/read_bounded.ts";
import { MAX_DECISION_BYTES } from "../limits.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { type Decision, parseDecision } from "../run/decision.ts";
import { gateName } from "../run/decide_wave.ts";
import { type GateStatus, gateStatus } from "../run/gate_status.ts";
import { loadPlanSets } from "../run/read_gate.ts";
import { newestPending } from "../ledger/decide_gate.ts";
import {
  type ApprovalLine,
  approvalLines,
  describeRules,
  describeTally,
  type RulesStatus,
  statusRules,
  type TallyStatus,
} from "./_status_rules.ts";
import { lastCompleted } from "../order/wave_completion.ts";
import type { BaseRule } from "../policy/resolve_base.ts";

import type { Command } from "./command.ts";
import { parseFlags, requireFlag } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { openLedger } from "./_open_ledger.ts";
import type { LedgerStore } from "../ledger/ledger_store.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { waveAt } from "../spec/wave_at.ts";

/** How status names the rule that chose a decision's base. */
const BASE_RULES: Record<BaseRule, string> = {
  flag: "--base",
  spec: "the spec's base",
  push: "the commit before the push",
  parent: "HEAD^1",
};

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
  /** The newest run of the wave out of order (`--out-of-order`). */
  outOfOrder?: { head: string; by: string; reason: string; at: string };
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
  ].join("\n"),
  examples: [
    "chant-wave status --spec waves.jsonc",
    "chant-wave status --spec waves.jsonc --ledger git --json",
  ],
  flags: { strings: ["spec", "ledger"], booleans: ["json"] },
  async run(argv, io) {
    const flags = parseFlags("status", argv, statusCommand.flags);
    const file = requireFlag("status", flags, "spec");
    const { spec } = await loadSpec(file, io.cwd);
    const ledger = await openLedger(flags.strings.ledger, io);
    const waves: WaveStatus[] = [];
    for (const wave of await wavesOf(spec, ledger)) {
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
      const completed = lastCompleted(records, wave);
      const override = records.findLast((r) => r.kind === "out-of-order");
      waves.push({
        wave: wave.k,
        name: wave.name,
        gate,
        ...(decision ? { decision } : {}),
        ...(completed ? { completed } : {}),
        ...(override?.kind === "out-of-order"
          ? {
            outOfOrder: {
              head: override.head,
              by: override.by,
              reason: override.reason,
              at: override.timestamp,
            },
          }
          : {}),
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

/**
 * The spec's waves, and past them the rest wave again for every further wave
 * whose gate the ledger holds (SPEC.md §11).
 */
async function wavesOf(spec: Spec, ledger: LedgerStore): Promise<Wave[]> {
  const waves = [...spec.waves];
  if (!waves[waves.length - 1].rest) return waves;
  const gates = new Set(
    (await ledger.listGates(spec.name)).map((ref) => ref.gate),
  );
  for (let k = waves.length + 1; gates.has(gateName(spec, k)); k++) {
    waves.push(waveAt(spec, k)!);
  }
  return waves;
}

async function readDecision(path: string): Promise<WaveStatus["decision"]> {
  try {
    const d = parseDecision(
      await readBounded(path, { maxBytes: MAX_DECISION_BYTES }),
    );
    return {
      decisionId: d.decisionId,
      status: d.status,
      digest: d.digest,
      createdAt: d.createdAt,
      policy: d.policy,
      base: d.base,
      ...(d.baseRule ? { baseRule: d.baseRule } : {}),
      ...(d.approvedBy ? { approvedBy: d.approvedBy } : {}),
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
  if (d?.base) {
    lines.push(
      `  base: ${d.base.slice(0, 12)}${
        d.baseRule ? ` (${BASE_RULES[d.baseRule]})` : ""
      }`,
    );
  }
  lines.push(
    wave.completed
      ? `  completed: at ${
        wave.completed.head.slice(0, 12)
      }, ${wave.completed.at}`
      : "  completed: never",
  );
  if (wave.outOfOrder) {
    const o = wave.outOfOrder;
    lines.push(
      `  out of order: at ${
        o.head.slice(0, 12)
      } by ${o.by}: ${o.reason} (${o.at})`,
    );
  }
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
