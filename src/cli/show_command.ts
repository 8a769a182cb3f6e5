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
import { decideGate, newestPending } from "../ledger/decide_gate.ts";
import { approveCommand } from "../ledger/gate_messages.ts";
import { loadPlanSets } from "../run/read_gate.ts";
import { pendingRules } from "./_pending_rules.ts";
import type { Command } from "./command.ts";
import { parseFlags } from "./_flags.ts";
import { gateTarget, requireKnownGate } from "./_gate_target.ts";
import { chooseLedger, ledgerArgument, openLedger } from "./_open_ledger.ts";
import { formatTable } from "../table.ts";
import { changesLine, MAX_KEPT_CHANGES } from "../run/plan_changes.ts";

/** The `show` command. */
export const showCommand: Command = {
  name: "show",
  summary: "show the plans a waiting wave would apply",
  usage: "chant-wave show NAME GATE | --spec F --wave K [--ledger L] [--json]",
  help: [
    "Prints the plans the gate's standing pending fact waits for: each run's",
    "target, whether its plan destroys something or changes nothing, and its",
    "summary, and per target what will change (when the plan lists it); then",
    "whether approvals cover them under the rules at the waiting",
    "job's base, and the command that approves exactly these plans.",
    "",
    "  --spec F     with --wave: the gate of wave K of this spec, instead of NAME GATE",
    "  --wave K     the wave, by number or name",
    "  --ledger L   git[:remote] or a directory (default: $CHANT_WAVE_LEDGER, else",
    '               the spec\'s "ledger" with --spec, else .chant/ledger)',
    "  --json       print { name, gate, digest, since, expiresAt, approved, plans } on stdout",
  ].join("\n"),
  examples: [
    "chant-wave show demo demo-wave-2",
    "chant-wave show --spec waves.jsonc --wave prod --ledger git",
    "chant-wave show demo demo-wave-2 --json",
  ],
  flags: { strings: ["spec", "wave", "ledger"], booleans: ["json"] },
  async run(argv, io) {
    const flags = parseFlags("show", argv, showCommand.flags);
    const target = await gateTarget("show", flags, io.cwd);
    const { name, gate } = target;
    const choice = chooseLedger(
      flags.strings.ledger,
      io.env,
      target.spec?.ledger,
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
    const read = await pendingRules(pending, undefined, { ...io, ledger });
    const rules = read.status === "read"
      ? await read.judge.judge(records, digest)
      : undefined;
    const state = decideGate(records, sets, {
      gate,
      digest,
      members: plans,
      now: io.clock.now(),
      ...(rules ? { rules } : {}),
    });
    const approvedBy = state.status === "approved"
      ? state.approvedBy
      : undefined;
    if (approvedBy && read.status === "unread") {
      lineLog(io.stderr)(
        `note: not checked against the rules at base: ${read.why}`,
      );
    }
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
      const rows = [
        ["target", "plan", "summary"],
        ...plans.map((plan) => [
          plan.target,
          plan.destructive ? "DESTROYS" : plan.empty ? "no changes" : "changes",
          plan.summary ?? "",
        ]),
      ];
      for (const line of formatTable(rows).trimEnd().split("\n")) {
        out(`  ${line}`);
      }
      const changes = plans.flatMap((plan) =>
        changesLine(plan.target, plan, MAX_KEPT_CHANGES) ?? []
      );
      if (changes.length > 0) out("what will change:");
      for (const line of changes) out(`  ${line}`);
    }
    if (state.status === "waiting" && state.tally) {
      out(`not approved yet: ${state.reasons[0]}`);
    }
    out(
      approvedBy
        ? `approved by ${approvedBy}: a job goes on with these plans`
        : `then approve: ${
          approveCommand(name, gate, digest, {
            ...(ledgerArg === undefined ? {} : { ledger: ledgerArg }),
            sign: read.status === "read" && read.judge.rules.mode === "sealed",
          })
        }`,
    );
    return OK;
  },
};
