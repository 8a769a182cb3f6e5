/**
 * `chant-wave show NAME GATE | --spec F --wave K`: the plans a waiting wave would
 * apply — targets, destructive marks, summaries — read from the ledger's plan set
 * of the standing pending fact, so an approver approves plans, not a bare digest.
 * Whether an approval covers them is judged under the rules at the base the
 * waiting job met (SPEC.md §12, §12.1), when this checkout holds it.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { InputError } from "../errors.ts";
import { OK } from "../exit_codes.ts";
import { type GateDecision, newestPending } from "../gate/decide_gate.ts";
import { approveCommand } from "../gate/gate_messages.ts";
import { tallyLine } from "../gate/gate_tally.ts";
import { loadPlanSets } from "../ledger/read_gate.ts";
import { decidePending, type PendingAnswer } from "../base/pending_rules.ts";
import { specParser } from "./_load_spec.ts";
import type { Command } from "./io.ts";
import {
  GATE_SPEC_FLAG,
  jsonFlag,
  LEDGER_FLAG,
  parseFlags,
  WAVE_FLAG,
} from "./_flags.ts";
import { gateTarget, requireKnownGate } from "./_gate_target.ts";
import {
  commandLedger,
  fetchRemote,
  ledgerArgument,
  openLedger,
} from "./_open_ledger.ts";
import { formatTable } from "../table.ts";
import {
  changesLine,
  MAX_KEPT_CHANGES,
  statementLines,
} from "../plan/plan_changes.ts";
import { driftNote, groupLabel, groupPlans } from "../plan/plan_groups.ts";

/** The `show` command. */
export const showCommand: Command = {
  name: "show",
  summary: "show the plans a waiting wave would apply",
  usage: ["NAME GATE | --spec --wave [--ledger] [--json]"],
  about: [
    "Prints the plans the gate's standing pending fact waits for: the runs",
    "with one identical plan together (a run whose plan differs from the one",
    "most of the wave shares named as drifted), whether it destroys something",
    "or changes nothing, its summary, what will change (when the plan lists it)",
    "and the statements that make it destructive; then",
    "whether approvals cover them under the rules at the waiting",
    "job's base, and the command that approves exactly these plans.",
  ].join("\n"),
  examples: [
    "chant-wave show demo demo-wave-2",
    "chant-wave show --spec waves.jsonc --wave prod --ledger git",
    "chant-wave show demo demo-wave-2 --json",
  ],
  flags: [
    GATE_SPEC_FLAG,
    WAVE_FLAG,
    LEDGER_FLAG,
    jsonFlag(
      "print { name, gate, digest, since, expiresAt, approved, plans } on stdout",
    ),
  ],
  async run(argv, io) {
    const flags = parseFlags("show", argv, showCommand.flags);
    const target = await gateTarget("show", flags, io);
    const { name, gate } = target;
    const choice = await commandLedger(
      "show",
      flags.strings.ledger,
      target.named,
      io,
    );
    const ledger = await openLedger(choice, io);
    await requireKnownGate(target, ledger);
    const { records } = await ledger.readGate(name, gate);
    const pending = newestPending(records, io.clock.now());
    if (pending === undefined) {
      throw new InputError(
        `gate "${gate}" of "${name}" has no pending plan in ${ledger.describe()}: nothing waits`,
      );
    }
    const digest = pending.planDigest;
    const plans = await ledger.readPlanSet(name, gate, digest) ?? [];
    const sets = await loadPlanSets(ledger, name, gate, records);
    // Judged only under the rules the waiting job met, never under others.
    const read = await decidePending(pending, records, sets, {
      ...io,
      ledger,
      remote: fetchRemote(choice),
      specParser,
    });
    const state = read.status === "read" ? read.decision : undefined;
    const approvedBy = state?.status === "approved"
      ? state.approvedBy
      : undefined;
    if (flags.booleans.json) {
      io.stdout.write(
        JSON.stringify({
          name,
          gate,
          digest,
          since: pending.timestamp,
          expiresAt: pending.expiresAt,
          approved: approvedBy !== undefined,
          ...(approvedBy ? { approvedBy } : {}),
          plans,
        }) + "\n",
      );
      return OK;
    }
    const out = lineLog(io.stdout);
    const ledgerArg = ledgerArgument(choice);
    out(`${gate} of ${name} waits for ${digest}`);
    out(`  since ${pending.timestamp}, until ${pending.expiresAt}`);
    if (plans.length === 0) {
      out(`  ${pending.members} plans; their list is not in the ledger`);
    } else {
      const groups = groupPlans(plans);
      const rows = [
        ["target", "plan", "summary"],
        ...groups.map((group) => [
          groupLabel(group),
          group.plan.destructive
            ? "DESTROYS"
            : group.plan.empty
            ? "no changes"
            : "changes",
          (group.plan.summary ?? "") + driftNote(group),
        ]),
      ];
      for (const line of formatTable(rows).trimEnd().split("\n")) {
        out(`  ${line}`);
      }
      const changes = groups.flatMap((group) => {
        const line = changesLine(
          groupLabel(group),
          group.plan,
          MAX_KEPT_CHANGES,
        );
        return line === undefined ? [] : [
          `  ${line}`,
          ...statementLines(group.plan).map((quoted) => `    ${quoted}`),
        ];
      });
      if (changes.length > 0) out("what will change:");
      for (const line of changes) out(line);
    }
    const approve = approveCommand(name, gate, digest, {
      ...(ledgerArg === undefined ? {} : { ledger: ledgerArg }),
      sign: read.status === "read" && read.rules.mode === "sealed",
    });
    if (read.status === "read") {
      for (const rule of read.decided) out(`rule: ${rule}`);
    }
    verdictLines(read, state, digest, approve).forEach(out);
    return OK;
  },
};

/**
 * What `show` says of the approvals: why they are not judged here, or how far
 * they are, then the approve command; or who approved, and the plans claimed
 * with no outcome under that approval.
 */
function verdictLines(
  read: PendingAnswer,
  state: GateDecision | undefined,
  digest: string,
  approve: string,
): string[] {
  if (read.status === "unread") {
    return [`not judged here: ${read.why}`, `then approve: ${approve}`];
  }
  if (state?.status !== "approved") {
    const tally = state?.tally ? [`not approved yet: ${state.reasons[0]}`] : [];
    return [...tally, `then approve: ${approve}`];
  }
  const lines = [
    `approved by ${state.approvedBy}: a job goes on with these plans`,
  ];
  if (state.stuck) {
    lines.push(
      `  but a plan is claimed under it with no outcome: if that job died, approve again (${
        tallyLine(state.stuck, digest)
      }): ${approve}`,
    );
  }
  return lines;
}
