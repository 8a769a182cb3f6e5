/**
 * `chant-wave ledger pull|push|log|compact` (SPEC.md §5.4): lists a ledger's
 * records (folded ones included), folds what no decision reads again, and syncs
 * the git-backed ledger by hand.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { InputError } from "../errors.ts";
import { countOf } from "../count_of.ts";
import { OK } from "../exit_codes.ts";
import { describeRecord } from "../gate/describe_record.ts";
import { isGitLedger } from "../ledger/git/git_ledger.ts";
import { summariseSeal } from "../seal/seal_summary.ts";
import type { CliIo, Command } from "./io.ts";
import { jsonFlag, LEDGER_FLAG, parseFlags, SPEC_FLAG } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import {
  commandLedger,
  type LedgerChoice,
  openLedger,
} from "./_open_ledger.ts";
import type { Ledger } from "../ledger/ledger.ts";

/** The `ledger` command. */
export const ledgerCommand: Command = {
  name: "ledger",
  summary: "list, compact or sync the gate ledger",
  usage: [
    "log [NAME [GATE]] [--spec] [--ledger] [--json]",
    "compact [NAME [GATE]] [--spec] [--ledger] [--dry-run] [--json]",
    "pull|push [--spec] [--ledger] [--json]",
  ],
  about: [
    "log    lists the records of every gate (or of NAME, or of gate GATE of NAME),",
    "       gate by gate, newest last, folded ones too; malformed records are",
    "       reported, not fatal. It says which ledger it read: --spec F reads",
    "       the one the spec names",
    "compact  moves what no decision reads again out of each gate (approvals",
    "       a revoke ended whose claims all settled, pending facts, outcomes a",
    "       newer one replaced, before the gate's newest revoke) into one",
    "       summary record per gate, so jobs read less; log still lists all of",
    "       it. A gate whose every approval since its newest revoke is spent",
    "       (applied, or its targets applied since) and where nothing waits is",
    "       first settled: a revoke ends those approvals, then they fold. Run",
    "       it now and then, e.g. from a scheduled CI job; it is safe beside",
    "       running jobs: a record written while it runs never folds, and a",
    "       lost race to the branch is rebuilt and retried",
    "pull   fetches the branch chant/ledger and fast-forwards the local one",
    "       (git ledger only)",
    "push   sends the local branch's records the remote lacks (git ledger only)",
  ].join("\n"),
  examples: [
    "chant-wave ledger log   # every gate's records, newest last",
    "chant-wave ledger log demo demo-wave-2 --spec waves.jsonc   # the spec's ledger",
    "chant-wave ledger pull --ledger git   # fetch the branch chant/ledger",
    "chant-wave ledger compact --ledger git   # e.g. nightly, from a scheduled job",
  ],
  flags: [
    {
      ...SPEC_FLAG,
      description:
        'the ledger the spec\'s "ledger" names (log, compact: only its gates)',
    },
    {
      ...LEDGER_FLAG,
      description:
        "a directory (default .chant/ledger, or $CHANT_WAVE_LEDGER),\n" +
        "or git / git:<remote> (the branch chant/ledger, remote origin)",
      default: undefined,
    },
    {
      name: "dry-run",
      description: "compact: say what would fold, move nothing",
    },
    jsonFlag(
      "log: print { ledger, gates: [{ name, gate, records, folded,\n" +
        "problems }] } on stdout; compact: { ledger, dryRun, gates:\n" +
        "[{ name, gate, records, sets, summary? }] }; pull, push:\n" +
        "{ remote, tip?, records, message }",
    ),
  ],
  words: ["log", "pull", "push", "compact"],
  async run(argv, io) {
    const flags = parseFlags("ledger", argv, ledgerCommand.flags);
    const json = flags.booleans.json;
    const [action, named, gate, ...extra] = flags.positionals;
    const file = flags.strings.spec;
    const spec = file === undefined
      ? undefined
      : (await loadSpec(file, io.cwd)).spec;
    const name = named ?? spec?.name;
    const choice = await commandLedger(
      "ledger",
      flags.strings.ledger,
      file === undefined || spec === undefined ? undefined : { file, spec },
      io,
    );
    const ledger = await openLedger(choice, io);
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
    if (action === "compact" && extra.length === 0) {
      return await compact(ledger, { named: name, gate, json, io, flags });
    }
    if (action !== "log" || extra.length > 0) {
      throw new InputError(
        `"ledger" needs pull, push, log or compact [NAME [GATE]]; got "${
          flags.positionals.join(" ")
        }"`,
      );
    }
    const log = lineLog(io.stderr);
    log(`reading the ${ledger.describe()} (${chosenBy(choice, file)})`);
    const gates = gate === undefined
      ? await ledger.listGates(name)
      : [{ name: name!, gate }];
    if (gates.length === 0) log(`no records in ${ledger.describe()}`);
    const out = lineLog(io.stdout);
    const listed = [];
    for (const ref of gates) {
      const { records, problems, folded } = await ledger.readAll(
        ref.name,
        ref.gate,
      );
      if (json) {
        listed.push({
          name: ref.name,
          gate: ref.gate,
          records,
          folded: records.filter((r) => folded.has(r)).map((r) => r.id),
          problems,
        });
      } else {
        if (records.length === 0) {
          log(`no records of ${ref.name} ${ref.gate} in ${ledger.describe()}`);
        }
        out(`${ref.name} ${ref.gate}`);
        for (const record of records) {
          const seal = record.kind === "approval" ? record.seal : undefined;
          const extras = seal ? { sealedBy: await summariseSeal(seal) } : {};
          const mark = folded.has(record) ? " (folded)" : "";
          out(`  ${describeRecord(record, extras)}${mark}`);
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

/**
 * Says what chose the ledger a listing reads, and, for the default, how to
 * read the one a spec names.
 */
function chosenBy(choice: LedgerChoice, file: string | undefined): string {
  switch (choice.from) {
    case "flag":
      return "--ledger";
    case "environment":
      return "$CHANT_WAVE_LEDGER";
    case "spec":
      return `the "ledger" of ${file}`;
    default:
      return 'the default; --spec F reads the ledger the spec names, as "run" does';
  }
}

/** `ledger compact [NAME [GATE]]`: folds, and says what per gate. */
async function compact(
  ledger: Ledger,
  args: {
    named?: string;
    gate?: string;
    json: boolean;
    io: CliIo;
    flags: { booleans: Record<string, boolean> };
  },
): Promise<number> {
  const { named, gate, json, io } = args;
  const dryRun = args.flags.booleans["dry-run"] === true;
  const report = await ledger.compact({
    ...(named === undefined ? {} : { name: named }),
    ...(gate === undefined ? {} : { gate }),
    dryRun,
    settle: true,
  });
  const log = lineLog(io.stderr);
  if (report.gates.length === 0) {
    log(`nothing to fold in ${ledger.describe()}`);
  }
  for (const folded of report.gates) {
    const what = `${folded.records} record${
      folded.records === 1 ? "" : "s"
    } and ${folded.sets} plan set${
      folded.sets === 1 ? "" : "s"
    } of ${folded.name} ${folded.gate}`;
    if (folded.settled) {
      const ended = folded.settled.approvals?.length ?? 0;
      log(
        `${dryRun ? "would settle" : "settled"} ${folded.name} ${folded.gate}` +
          `: ${countOf(ended, "approval")} spent, ended by revoke ` +
          folded.settled.id.slice(0, 12),
      );
    }
    log(
      dryRun
        ? `would fold ${what}`
        : `folded ${what} into summary ${folded.summary?.id.slice(0, 12)}`,
    );
  }
  if (json) {
    io.stdout.write(
      JSON.stringify({ ledger: ledger.describe(), dryRun, ...report }) + "\n",
    );
  }
  return OK;
}
