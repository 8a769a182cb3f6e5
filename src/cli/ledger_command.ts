/**
 * `chant-wave ledger pull|push|log` (SPEC.md §5.4): lists a ledger's records, and
 * syncs the git-backed ledger by hand.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { InputError } from "../errors.ts";
import { OK } from "../exit_codes.ts";
import { describeRecord } from "../ledger/describe_record.ts";
import { isGitLedger } from "../ledger/git_ledger.ts";
import { summariseSeal } from "../seal/seal_summary.ts";
import type { Command } from "./command.ts";
import { parseFlags } from "./_flags.ts";
import { jsonFlag, LEDGER_FLAG, SPEC_FLAG } from "./_common_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { chooseLedger, openLedger } from "./_open_ledger.ts";

/** The `ledger` command. */
export const ledgerCommand: Command = {
  name: "ledger",
  summary: "list the gate ledger's records, or sync the git ledger",
  usage: [
    "log [NAME [GATE]] [--spec] [--ledger] [--json]",
    "pull|push [--spec] [--ledger] [--json]",
  ],
  about: [
    "log    lists the records of every gate (or of NAME, or of gate GATE of NAME),",
    "       gate by gate, newest last; malformed records are reported, not fatal",
    "pull   fetches the branch chant/ledger and fast-forwards the local one",
    "       (git ledger only)",
    "push   sends the local branch's records the remote lacks (git ledger only)",
  ].join("\n"),
  examples: [
    "chant-wave ledger log   # every gate's records, newest last",
    "chant-wave ledger log demo demo-wave-2 --ledger git",
    "chant-wave ledger pull --ledger git   # fetch the branch chant/ledger",
    "chant-wave ledger push --ledger git --json",
  ],
  flags: [
    {
      ...SPEC_FLAG,
      description:
        'the ledger the spec\'s "ledger" names (log: only its gates)',
    },
    {
      ...LEDGER_FLAG,
      description:
        "a directory (default .chant/ledger, or $CHANT_WAVE_LEDGER),\n" +
        "or git / git:<remote> (the branch chant/ledger, remote origin)",
      default: undefined,
    },
    jsonFlag(
      "log: print { ledger, gates: [{ name, gate, records, problems }] }\n" +
        "on stdout; pull, push: { remote, tip?, records, message }",
    ),
  ],
  words: ["log", "pull", "push"],
  async run(argv, io) {
    const flags = parseFlags("ledger", argv, ledgerCommand.flags);
    const json = flags.booleans.json;
    const [action, named, gate, ...extra] = flags.positionals;
    const file = flags.strings.spec;
    const spec = file === undefined
      ? undefined
      : (await loadSpec(file, io.cwd)).spec;
    const name = named ?? spec?.name;
    const ledger = await openLedger(
      chooseLedger(flags.strings.ledger, io.env, spec?.ledger),
      io,
    );
    if (action === "pull" || action === "push") {
      if (extra.length > 0 || named !== undefined) {
        throw new InputError(
          `"ledger ${action}" takes no arguments; got "${
            flags.positionals.slice(1).join(" ")
          }"`,
        );
      }
      if (isGitLedger(ledger)) {
        const report = action === "pull"
          ? await ledger.pull()
          : await ledger.push();
        lineLog(io.stderr)(report.message);
        if (json) io.stdout.write(JSON.stringify(report) + "\n");
        return OK;
      }
      throw new InputError(
        `"ledger ${action}" syncs the git ledger; ${ledger.describe()} is local, nothing to sync`,
      );
    }
    if (action !== "log" || extra.length > 0) {
      throw new InputError(
        `"ledger" needs pull, push or log [NAME [GATE]]; got "${
          flags.positionals.join(" ")
        }"`,
      );
    }
    const gates = gate === undefined
      ? await ledger.listGates(name)
      : [{ name: name!, gate }];
    if (gates.length === 0) {
      io.stderr.write(`no records in ${ledger.describe()}\n`);
    }
    const out = lineLog(io.stdout);
    const log = lineLog(io.stderr);
    const listed = [];
    for (const ref of gates) {
      const { records, problems } = await ledger.readGate(ref.name, ref.gate);
      if (json) {
        listed.push({ name: ref.name, gate: ref.gate, records, problems });
      } else {
        out(`${ref.name} ${ref.gate}`);
        for (const record of records) {
          const seal = record.kind === "approval" ? record.seal : undefined;
          const extras = seal ? { sealedBy: await summariseSeal(seal) } : {};
          out(`  ${describeRecord(record, extras)}`);
        }
      }
      for (const problem of problems) log(`warning: ${problem}`);
    }
    if (json) {
      io.stdout.write(
        JSON.stringify({ ledger: ledger.describe(), gates: listed }) + "\n",
      );
    }
    return OK;
  },
};
