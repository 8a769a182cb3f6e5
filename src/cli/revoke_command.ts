/**
 * `chant-wave revoke NAME GATE` (SPEC.md §5.3): records an `expired` fact, so every
 * earlier approval and pending fact of the gate stops counting.
 * @module
 */

import type { Ledger } from "../ledger/ledger.ts";
import { countOf } from "../count_of.ts";
import { lineLog } from "../console/line_log.ts";
import { OK } from "../exit_codes.ts";
import { revokedLine } from "../gate/gate_messages.ts";
import {
  type ActionsThrough,
  type ApprovalRecord,
  expiredRecord,
  newStamp,
} from "../gate/records.ts";
import { actionsThrough } from "../gate/action_floor.ts";
import { revokeFloor } from "../gate/revoke_floor.ts";
import { MAX_ENDED } from "../gate/spent_cut.ts";
import type { Command } from "./io.ts";
import {
  GATE_SPEC_FLAG,
  jsonFlag,
  LEDGER_FLAG,
  parseFlags,
  WAVE_FLAG,
} from "./_flags.ts";
import { whoRuns } from "../ci/who_runs.ts";
import { commandLedger, openLedger } from "./_open_ledger.ts";
import { gateTarget } from "./_gate_target.ts";
import type { GateRecords } from "../gate/screen_records.ts";

/** The `revoke` command. */
export const revokeCommand: Command = {
  name: "revoke",
  summary: "clear a gate's approvals and pending facts",
  usage: ["NAME GATE | --spec --wave [--by] [--note] [--ledger] [--json]"],
  about: [
    "Records that gate GATE of rollout NAME is cleared: every earlier approval and",
    "pending fact stops counting; the next run waits for a fresh approval.",
  ].join("\n"),
  examples: [
    'chant-wave revoke demo demo-wave-3 --note "wrong plan approved"',
    "chant-wave revoke demo demo-wave-3 --by ann@example.com --ledger git",
    "chant-wave revoke --spec waves.jsonc --wave prod --json",
  ],
  flags: [
    GATE_SPEC_FLAG,
    WAVE_FLAG,
    {
      name: "by",
      value: { name: "WHO" },
      description: "who revokes, kept in the record",
      default: "the CI actor,\ngit user.email, $USER",
    },
    { name: "note", value: { name: "TEXT" }, description: "why" },
    LEDGER_FLAG,
    jsonFlag(
      "print { ledger, record } on stdout: the expired record as written",
    ),
  ],
  async run(argv, io) {
    const flags = parseFlags("revoke", argv, revokeCommand.flags);
    const target = await gateTarget("revoke", flags, io);
    const { name, gate } = target;
    const ledger = await openLedger(
      await commandLedger(
        "revoke",
        flags.strings.ledger,
        target.named,
        io,
      ),
      io,
    );
    const note = flags.strings.note;
    const by = flags.strings.by ?? await whoRuns(io);
    const ending = endingApprovals(await ledger.readGate(name, gate));
    const approvals = ending.approvals.map((approval) => approval.id)
      .slice(-MAX_ENDED);
    const through = actionsThrough(ending.approvals, ending.before);
    const record = expiredRecord(
      {
        name,
        gate,
        by,
        note,
        approvals: approvals.length ? approvals : undefined,
        actionsThrough: through,
      },
      newStamp(io.clock),
    );
    await ledger.write(record);
    if (flags.booleans.json) {
      io.stdout.write(
        JSON.stringify({ ledger: ledger.describe(), record }) + "\n",
      );
    }
    const log = lineLog(io.stderr);
    log(revokedLine(name, gate));
    if (approvals.length) {
      log(`  ended approvals: ${approvals.join(", ")}`);
    }
    await foldBehind(ledger, name, gate, log);
    return OK;
  },
};

/**
 * Folds what the revoke before this one ended (docs/ledger.md, "Compacting
 * the ledger"): a gate's tip then keeps what still counts, what this revoke
 * ended (so a job can say which approval it revoked) and what never folds,
 * without a scheduled `ledger compact`. The revoke stands whatever the fold
 * does: a fold that cannot be written is a warning, and the next revoke or
 * `ledger compact` folds it.
 */
async function foldBehind(
  ledger: Ledger,
  name: string,
  gate: string,
  log: (line: string) => void,
): Promise<void> {
  try {
    const report = await ledger.compact({ name, gate, through: "previous" });
    for (const folded of report.gates) {
      log(
        `  folded ${countOf(folded.records, "record")} the revoke before ` +
          `this one ended into summary ${folded.summary?.id.slice(0, 12)}`,
      );
    }
  } catch (error) {
    log(
      `warning: the revoke stands, but what the one before it ended was not ` +
        `folded: ${(error as Error).message}`,
    );
  }
}

/**
 * The approvals a revoke ends: those after the newest earlier revoke, and any
 * dated too far ahead to count yet (they would otherwise sort after it); and
 * the forge actions that earlier revoke ended, which this one carries on.
 */
function endingApprovals(
  read: GateRecords,
): { approvals: ApprovalRecord[]; before?: ActionsThrough } {
  const { records, future = [] } = read;
  let start = 0;
  records.forEach((record, i) => {
    if (record.kind === "expired") start = i + 1;
  });
  // Every revoke's floor goes on, not only the newest's (`revoke_floor.ts`).
  const before = revokeFloor(records).actions;
  const approvals = [...records.slice(start), ...future]
    .filter((record): record is ApprovalRecord => record.kind === "approval");
  return before === undefined ? { approvals } : { approvals, before };
}
