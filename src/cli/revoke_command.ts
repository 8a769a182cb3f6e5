/**
 * `chant-wave revoke NAME GATE` (SPEC.md §5.3): records an `expired` fact, so every
 * earlier approval and pending fact of the gate stops counting.
 * @module
 */

import type { GateRecords } from "../ledger/ledger_store.ts";
import { lineLog } from "../console/line_log.ts";
import { OK } from "../exit_codes.ts";
import { revokedLine } from "../ledger/gate_messages.ts";
import { expiredRecord, newStamp } from "../ledger/records.ts";
import type { Command } from "./command.ts";
import { parseFlags } from "./_flags.ts";
import { openLedger } from "./_open_ledger.ts";
import { nameAndGate } from "./_positionals.ts";

/** The `revoke` command. */
export const revokeCommand: Command = {
  name: "revoke",
  summary: "clear a gate's approvals and pending facts",
  usage: "chant-wave revoke NAME GATE [--note TEXT] [--ledger L]",
  help: [
    "Records that gate GATE of rollout NAME is cleared: every earlier approval and",
    "pending fact stops counting; the next run waits for a fresh approval.",
    "",
    "  --note TEXT  why",
    "  --ledger L   git[:remote] or a directory (default .chant/ledger; $CHANT_WAVE_LEDGER)",
    "",
    'example: chant-wave revoke demo demo-wave-3 --note "wrong plan approved"',
  ].join("\n"),
  async run(argv, io) {
    const flags = parseFlags("revoke", argv, { strings: ["note", "ledger"] });
    const { name, gate } = nameAndGate("revoke", flags);
    const ledger = await openLedger(flags.strings.ledger, io);
    const note = flags.strings.note;
    const approvals = endingApprovals(await ledger.readGate(name, gate));
    await ledger.write(
      expiredRecord(
        {
          name,
          gate,
          ...(note === undefined ? {} : { note }),
          ...(approvals.length ? { approvals } : {}),
        },
        newStamp(io.clock),
      ),
    );
    const log = lineLog(io.stderr);
    log(revokedLine(name, gate));
    if (approvals.length) {
      log(`  ended approvals: ${approvals.join(", ")}`);
    }
    return OK;
  },
};

/** How many approval ids one `expired` record lists, to stay within 64 KiB. */
const MAX_ENDED = 1000;

/**
 * The approvals a revoke ends by id: those after the newest earlier revoke, and
 * any dated too far ahead to count yet (they would otherwise sort after it).
 */
function endingApprovals(read: GateRecords): string[] {
  const { records, future = [] } = read;
  let start = 0;
  records.forEach((record, i) => {
    if (record.kind === "expired") start = i + 1;
  });
  return [...records.slice(start), ...future]
    .filter((record) => record.kind === "approval")
    .map((record) => record.id)
    .slice(-MAX_ENDED);
}
