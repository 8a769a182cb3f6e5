/**
 * `chant-wave drift --spec F [--rev R] [--record] [--ledger L] [--json]`
 * (SPEC.md §19): its flag table, and what it makes of `src/drift/`'s findings:
 * the table of drifted runs on stderr, the result object under `--json`, the
 * GitHub job summary and the `drift` webhook events. Exit 5 when drift is
 * found.
 * @module
 */

import { appendFile } from "node:fs/promises";
import { lineLog } from "../console/line_log.ts";
import { maskCredentials } from "../console/visible.ts";
import { driftJob } from "../drift/drift_job.ts";
import type { DriftResult } from "../jobs/drift_result.ts";
import { rememberingParser } from "../gate/base_spec.ts";
import { notifyDrift } from "../notify/notify_outcome.ts";
import { driftRows } from "../plan/drift_report.ts";
import { keepChantIgnored } from "../run/chant_ignore.ts";
import { driftSummary } from "../summary/drift_summary.ts";
import { tableLines } from "../table.ts";
import type { Command } from "./io.ts";
import {
  jsonFlag,
  LEDGER_FLAG,
  parseFlags,
  requireFlag,
  SPEC_FLAG,
} from "./_flags.ts";
import { loadSpec, specParser } from "./_load_spec.ts";
import { ledgerArgument, openLedger, runLedger } from "./_open_ledger.ts";

/** The `drift` command. */
export const driftCommand: Command = {
  name: "drift",
  summary: "plan every wave again and report what drifted",
  usage: ["--spec [--rev] [--record] [--ledger] [--json]"],
  about: [
    "Plans every run of every wave at a revision every wave applied, as each",
    "wave's deciding job would (the policy read at base), and reports each run",
    "whose plan is not empty and each run whose plan differs from the rest of its",
    "wave. Applies nothing and approves nothing. With --record, each drifted",
    "wave's plans are recorded as a pending fact: approving them and running the",
    "wave applies them once, as any rollout.",
  ].join("\n"),
  notes: [
    "exit: 0 no drift, 1 a wave did not plan, 2 invalid input (a wave has not",
    "applied the revision), 5 drift found;",
    'see "chant-wave help exit-codes"',
  ].join("\n"),
  examples: [
    "chant-wave drift --spec waves.jsonc   # the scheduled drift job",
    "chant-wave drift --spec waves.jsonc --record --ledger git",
    "chant-wave drift --spec waves.jsonc --rev HEAD --json",
  ],
  flags: [
    SPEC_FLAG,
    {
      name: "rev",
      value: { name: "REV" },
      description: "the revision to plan; the checkout must be at it",
      default: "the tip of the\ndefault branch the forge names, else HEAD",
    },
    {
      name: "record",
      description:
        "record each drifted wave's plans as a pending fact, for an\n" +
        "ordinary approval; applies nothing",
    },
    {
      ...LEDGER_FLAG,
      default:
        '$CHANT_WAVE_LEDGER, else the\nspec\'s "ledger" at base, else .chant/ledger',
    },
    jsonFlag(
      "print { exitCode, name, revision, recorded, waves, failed }\non stdout",
    ),
  ],
  async run(argv, io) {
    const flags = parseFlags("drift", argv, driftCommand.flags);
    const file = requireFlag("drift", flags, "spec");
    const { spec, text } = await loadSpec(file, io.cwd);
    const parseSpec = rememberingParser(await specParser(), [{ text, spec }]);
    const choice = await runLedger({
      ...(flags.strings.ledger === undefined
        ? {}
        : { flag: flags.strings.ledger }),
      spec,
      specFile: file,
      parse: parseSpec,
    }, io);
    const ledger = await openLedger(choice, io);
    const ledgerArg = ledgerArgument(choice);
    const record = flags.booleans.record;
    if (record) await keepChantIgnored(io.cwd);
    const result = await driftJob({
      spec,
      specFile: file,
      specText: text,
      ...(flags.strings.rev === undefined ? {} : { rev: flags.strings.rev }),
      record,
      ...(ledgerArg === undefined ? {} : { ledgerArg }),
      parseSpec,
    }, { ...io, ledger });
    printTable(result, io.stderr);
    if (flags.booleans.json) io.stdout.write(JSON.stringify(result) + "\n");
    await appendSummary(result, io);
    await notifyDrift({
      spec,
      result,
      env: io.env,
      clock: io.clock,
      log: lineLog(io.stderr),
    });
    return result.exitCode;
  },
};

/** The table of drifted runs, or the line saying nothing drifted. */
function printTable(
  result: DriftResult,
  stderr: Parameters<typeof lineLog>[0],
): void {
  const log = lineLog(stderr);
  const rows = driftRows(result.waves);
  const at = result.revision.slice(0, 12);
  if (rows.length === 1) {
    if (result.failed.length === 0) {
      log(
        `no drift: every run of ${result.waves.length} waves plans no changes at ${at}`,
      );
    }
    return;
  }
  log(`drift at ${at}:`);
  for (const line of tableLines(rows)) log(line);
}

/** Appends the job summary in GitHub Actions; a failure to is a warning. */
async function appendSummary(
  result: DriftResult,
  io: {
    env: Record<string, string | undefined>;
    stderr: Parameters<typeof lineLog>[0];
  },
): Promise<void> {
  const file = io.env.GITHUB_ACTIONS ? io.env.GITHUB_STEP_SUMMARY : undefined;
  if (!file) return;
  await appendFile(file, maskCredentials(driftSummary(result))).catch((
    error,
  ) =>
    lineLog(io.stderr)(
      `warning: cannot append the job summary: ${(error as Error).message}`,
    )
  );
}
