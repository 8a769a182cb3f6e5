/**
 * `chant-wave revoke NAME GATE` (SPEC.md §5.3): records an `expired` fact, so every
 * earlier approval and pending fact of the gate stops counting.
 * @module
 */

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
    const ledger = openLedger(flags.strings.ledger, io);
    const note = flags.strings.note;
    await ledger.write(
      expiredRecord(
        { name, gate, ...(note === undefined ? {} : { note }) },
        newStamp(io.clock),
      ),
    );
    io.stderr.write(`${revokedLine(name, gate)}\n`);
    return OK;
  },
};
