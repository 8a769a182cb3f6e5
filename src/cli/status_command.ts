/**
 * `chant-wave status --spec F`: per wave, the last decision (when its record is
 * here), the standing pending fact, and the approvals with whether they are spent.
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
import { type GateStatus, gateStatus } from "../run/gate_status.ts";
import type { Command } from "./command.ts";
import { parseFlags, requireFlag } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { openLedger } from "./_open_ledger.ts";

/** One wave's status. */
interface WaveStatus extends GateStatus {
  wave: number;
  name: string;
  gate: string;
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
    "pending plan that waits for an approval, and each approval since the last",
    "revoke with the decision that spent it.",
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
    for (const wave of spec.waves) {
      const gate = gateName(spec, wave.k);
      const { records, problems } = await ledger.readGate(spec.name, gate);
      for (const problem of problems) lineLog(io.stderr)(`warning: ${problem}`);
      const decision = await readDecision(
        resolve(io.cwd, decisionRecordPath(spec.name, wave.k)),
      );
      waves.push({
        wave: wave.k,
        name: wave.name,
        gate,
        ...(decision ? { decision } : {}),
        ...gateStatus(records, io.clock.now()),
      });
    }
    if (flags.booleans.json) {
      io.stdout.write(JSON.stringify({ name: spec.name, waves }) + "\n");
    } else waves.flatMap(describeWave).forEach(lineLog(io.stdout));
    return OK;
  },
};

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
  for (const a of wave.approvals) {
    const spent = a.appliedBy.length
      ? `spent by decision ${a.appliedBy[0]}`
      : "not spent";
    lines.push(
      `  approval: ${a.planDigest} by ${a.by} at ${a.timestamp}, ${spent}`,
    );
  }
  return lines;
}
