/**
 * `chant-wave status --spec F [--wave K]`: gathers, per wave, the last decision
 * (when its record is here), the revision it last completed, the pending fact
 * while it still waits, the approval rules its job met at base and the tally of
 * who counts (SPEC.md §12.1), and the approvals with where their plans stand and
 * who sealed them; prints them as JSON or through `_status_lines.ts`.
 * @module
 */

import { loadSpec, specParser } from "./_load_spec.ts";
import { lineLog } from "../console/line_log.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { OK } from "../exit_codes.ts";
import { readBounded } from "../fs/read_bounded.ts";
import { MAX_DECISION_BYTES } from "../limits.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { ShapeError } from "../input/shape_error.ts";
import { parseDecision } from "../gate/decision.ts";
import { gateName } from "../gate/gate_messages.ts";
import { gateStatus } from "../gate/gate_status.ts";
import { loadPlanSets } from "../ledger/read_gate.ts";
import {
  jobLabel,
  lastCompleted,
  waveCompletion,
} from "../order/wave_completion.ts";
import type { CliIo, Command } from "./io.ts";
import {
  jsonFlag,
  LEDGER_FLAG,
  parseFlags,
  requireFlag,
  SPEC_FLAG,
  WAVE_FLAG,
} from "./_flags.ts";
import {
  commandLedger,
  fetchRemote,
  ledgerArgument,
  openLedger,
} from "./_open_ledger.ts";
import { findWave } from "./_gate_target.ts";
import {
  approvalLines,
  type GateRulesStatus,
  statusLines,
  statusRules,
  type WaveStatus,
} from "./_status_lines.ts";
import { newestPending } from "../gate/decide_gate.ts";
import { decideTimedResume } from "../resume/timed_resume.ts";
import { freezeHold } from "../gate/freeze_hold.ts";
import type { Ledger } from "../ledger/ledger.ts";
import type { LedgerRecord, PendingRecord, PlanPair } from "../gate/records.ts";
import { type Spec, type Wave, waveAt } from "../spec/types.ts";

/** The `status` command. */
export const statusCommand: Command = {
  name: "status",
  summary: "show each wave's decision, pending plan and approvals",
  usage: ["--spec [--wave] [--ledger] [--json]"],
  about: [
    "A table of the waves: the last decision recorded in this working directory,",
    "the revision each wave last completed, and the plans it still waits for an",
    "approval of; then each wave's details (its base, the approvals since the",
    "last revoke, where their plans stand and who sealed them, the approval rules",
    "at the waiting job's base and the tally of who counts) and the next step.",
  ].join("\n"),
  examples: [
    "chant-wave status --spec waves.jsonc",
    "chant-wave status --spec waves.jsonc --wave prod",
    "chant-wave status --spec waves.jsonc --ledger git --json",
  ],
  flags: [
    SPEC_FLAG,
    { ...WAVE_FLAG, description: "only wave K (its number or name)" },
    LEDGER_FLAG,
    jsonFlag("print { name, waves: [...] } on stdout"),
  ],
  async run(argv, io) {
    const flags = parseFlags("status", argv, statusCommand.flags);
    const file = requireFlag("status", flags, "spec");
    const { spec } = await loadSpec(file, io.cwd);
    const only = flags.strings.wave === undefined
      ? undefined
      : findWave(spec, flags.strings.wave, file);
    const choice = await commandLedger("status", flags.strings.ledger, {
      file,
      spec,
    }, io);
    const ledger = await openLedger(choice, io);
    const head = await checkedOutHead(io);
    const waves: WaveStatus[] = [];
    for (const wave of only ? [only] : await wavesOf(spec, ledger)) {
      const gate = gateName(spec, wave.k);
      const { records, problems } = await ledger.readGate(spec.name, gate);
      for (const problem of problems) lineLog(io.stderr)(`warning: ${problem}`);
      const decision = await readDecision(
        resolve(io.cwd, decisionRecordPath(spec.name, wave.k)),
      );
      const now = io.clock.now();
      const sets = await statusPlanSets(ledger, spec.name, gate, records, now);
      const standing = gateStatus(records, sets, now);
      const newest = newestPending(records, now);
      const rules = await statusRules(newest, records, sets, {
        ...io,
        ledger,
        remote: fetchRemote(choice),
        specParser,
      });
      const pending = standing.pending ?? shortOfApprovers(newest, rules) ??
        unjudged(newest, rules);
      const completed = lastCompleted(records, wave);
      const override = records.findLast((r) => r.kind === "out-of-order");
      const timed = decideTimedResume(records, now);
      const hold = freezeHold(wave.freeze, now);
      waves.push({
        wave: wave.k,
        name: wave.name,
        gate,
        ...(decision ? { decision } : {}),
        ...(completed ? { completed } : {}),
        ...(head ? { atHead: atHead(records, wave, head) } : {}),
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
        ...(timed?.status === "not-yet"
          ? {
            waitsUntil: {
              for: timed.waiting.why,
              head: timed.waiting.head,
              until: timed.waiting.until,
            },
          }
          : {}),
        ...(hold
          ? {
            freeze:
              `${hold.line} (this spec's windows; a job reads them at base)`,
          }
          : {}),
        ...standing,
        ...(pending ? { pending } : {}),
        approvals: await approvalLines(standing.approvals, records, rules),
        ...(rules.rules ? { rules: rules.rules } : {}),
        ...(rules.tally ? { tally: rules.tally } : {}),
        ...(rules.unread ? { rulesUnread: rules.unread } : {}),
      });
    }
    if (flags.booleans.json) {
      io.stdout.write(JSON.stringify({ name: spec.name, waves }) + "\n");
    } else {
      statusLines(waves, {
        specFile: file,
        ledgerArg: ledgerArgument(choice),
      }).forEach(lineLog(io.stdout));
    }
    return OK;
  },
};

/**
 * The spec's waves, and past them the rest wave again for every further wave
 * whose gate the ledger holds (SPEC.md §11).
 */
async function wavesOf(spec: Spec, ledger: Ledger): Promise<Wave[]> {
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

/** This checkout's HEAD, or `undefined` outside a repository (or before a commit). */
async function checkedOutHead(io: CliIo): Promise<string | undefined> {
  const top = await io.git.topLevel(io.cwd).catch(() => undefined);
  return top === undefined
    ? undefined
    : await io.git.resolveCommit("HEAD", top).catch(() => undefined);
}

/** Whether the wave is complete at `head`, and the jobs missing there. */
function atHead(
  records: readonly LedgerRecord[],
  wave: Wave,
  head: string,
): NonNullable<WaveStatus["atHead"]> {
  const { complete, missing } = waveCompletion(records, wave, head);
  return { head, complete, missing: missing.map(jobLabel) };
}

/**
 * The pending fact when approvals cover its plans but fewer approvers count
 * than the rules at base require: it still waits, as the job would.
 */
function shortOfApprovers(
  pending: PendingRecord | undefined,
  rules: GateRulesStatus,
): WaveStatus["pending"] {
  const tally = rules.tally;
  if (pending === undefined || tally === undefined || tally.approved) {
    return undefined;
  }
  if (tally.digest !== pending.planDigest) return undefined;
  const { planDigest, timestamp, expiresAt, members } = pending;
  return { planDigest, timestamp, expiresAt, members };
}

/**
 * The pending fact when the rules its job met cannot be read here: whether
 * approvals stand for it is not known here, so it still waits.
 */
function unjudged(
  pending: PendingRecord | undefined,
  rules: GateRulesStatus,
): WaveStatus["pending"] {
  if (pending === undefined || rules.unread === undefined) return undefined;
  const { planDigest, timestamp, expiresAt, members } = pending;
  return { planDigest, timestamp, expiresAt, members };
}

/** The decision at `path`, or `undefined` when it cannot be read or is malformed. */
async function readDecision(path: string): Promise<WaveStatus["decision"]> {
  let text: string;
  try {
    text = await readBounded(path, { maxBytes: MAX_DECISION_BYTES });
  } catch {
    return undefined;
  }
  try {
    const d = parseDecision(text);
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
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return undefined;
  }
}

/** The plan sets of the counting approvals' digests and of the newest pending one. */
async function statusPlanSets(
  ledger: Ledger,
  name: string,
  gate: string,
  records: readonly LedgerRecord[],
  now: number,
): Promise<Map<string, PlanPair[]>> {
  const sets = await loadPlanSets(ledger, name, gate, records);
  const pending = newestPending(records, now);
  if (pending && !sets.has(pending.planDigest)) {
    const pairs = await ledger.readPlanSet(name, gate, pending.planDigest);
    if (pairs) sets.set(pending.planDigest, pairs);
  }
  return sets;
}
