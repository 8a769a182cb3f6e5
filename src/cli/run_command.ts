/**
 * `chant-wave run` (SPEC.md §4): plans, gates and applies one wave, as a whole-wave,
 * deciding, share or group job; with `--record-plans` (§13), plans every wave at
 * HEAD and records the digests; with `--pull-request` (§18), says on the
 * request what each wave will meet. Its flag table (usage, help, parser and
 * completions come from it), and the `.chant/` hygiene check (§9: a warning
 * when the repository does not ignore `.chant/`, where plan files and decisions
 * could be committed by accident). This file turns flags into a job;
 * `src/run/` runs it.
 * @module
 */

import { maskCredentials } from "../console/visible.ts";
import { appendFile } from "node:fs/promises";
import { InputError } from "../errors.ts";
import type { JobResult } from "../jobs/job_result.ts";
import { jobSummary } from "../summary/job_summary.ts";
import { approveClick } from "../summary/approve_link.ts";
import { rememberingParser } from "../gate/base_spec.ts";
import { recordPlans, type RecordPlansResult } from "../run/record_plans.ts";
import { planRequest } from "../run/plan_request.ts";
import { runJob } from "../run/run_job.ts";
import { selectJob } from "../run/select_job.ts";
import { parseDuration } from "../spec/duration.ts";
import type { Spec } from "../spec/types.ts";
import type { CliIo, Command } from "./io.ts";
import {
  type FlagTable,
  jsonFlag,
  LEDGER_FLAG,
  type ParsedFlags,
  parseFlags,
  positiveIntFlag,
  requireFlag,
  SPEC_FLAG,
  WAVE_FLAG,
} from "./_flags.ts";
import { loadSpec, specParser } from "./_load_spec.ts";
import { ledgerArgument, openLedger, runLedger } from "./_open_ledger.ts";
import { DEFAULT_LEDGER_DIR } from "../ledger/dir/dir_ledger.ts";
import { keepChantIgnored } from "../run/chant_ignore.ts";
import {
  childLinesAtBase,
  clearGitlabChild,
  writeGitlabChild,
} from "./_gitlab_child.ts";

/** The flags of `run`, in the order its help lists them. */
export const RUN_FLAGS: FlagTable = [
  SPEC_FLAG,
  { ...WAVE_FLAG, description: "the wave, by number (or name)" },
  {
    name: "decide",
    description:
      "deciding job: plan, decide, write the decision; apply nothing",
  },
  {
    name: "share",
    value: { name: "I" },
    description: "share job I: apply slice I of the decided runs",
  },
  {
    name: "group",
    value: { name: "G" },
    description: "group job: the runs of job group G (sliced by --share)",
  },
  {
    name: "base",
    value: { name: "REV" },
    description: "where the policy is read",
    default:
      "the spec's base, else the push's before, else every version since the last decision",
  },
  {
    name: "parallel",
    value: { name: "N" },
    description: "runs planned or applied at once",
    default: "the spec's",
  },
  {
    ...LEDGER_FLAG,
    default:
      '$CHANT_WAVE_LEDGER, else the\nspec\'s "ledger" at base, else .chant/ledger',
  },
  {
    name: "dry-run",
    description: "plan and decide, record nothing, apply nothing",
  },
  {
    name: "heartbeat",
    value: { name: "DUR" },
    description: "print a still-running line after DUR of quiet (0 = off)",
  },
  {
    name: "timeout",
    value: { name: "DUR" },
    description: "stop a plan or apply command after DUR (0 = none)",
  },
  {
    name: "out-of-order",
    value: { name: "REASON" },
    description: "run even though the wave before has not applied this commit",
  },
  {
    name: "record-plans",
    description:
      "the pull-request job: plan every wave at HEAD and hand each\n" +
      "wave's digest to the forge for review approvals (a commit\n" +
      "status, or GitLab's artifact); write no ledger, apply nothing",
  },
  {
    name: "pull-request",
    description:
      "the plan job of pull and merge requests: plan every wave at HEAD,\n" +
      "state the gate each meets as read at base, and keep one comment\n" +
      "on the request and a commit status per wave up to date (the job\n" +
      "summary only for a fork); with --record-plans, record them too;\n" +
      "write no ledger, apply nothing, approve nothing",
  },
  {
    name: "gitlab-child",
    description:
      "the deciding job of the rendered GitLab pipeline: write the wave's\n" +
      "child pipeline (.chant/waves/<name>/wave-<k>.gitlab-ci.yml), which\n" +
      "its gate job runs: the wave's jobs, after the manual approve jobs\n" +
      "when it waits",
  },
  jsonFlag("print the result object on stdout"),
];

/** The `run` command. */
export const runCommand: Command = {
  name: "run",
  summary: "plan, gate and apply one wave",
  usage: [
    "--spec --wave [--decide | --share | --group [--share]]\n" +
    "[--base] [--parallel] [--ledger] [--dry-run]\n" +
    "[--heartbeat] [--timeout] [--out-of-order] [--gitlab-child] [--json]",
    "--spec --record-plans [--parallel] [--json]",
    "--spec --pull-request [--record-plans] [--base] [--parallel] [--json]",
  ],
  about: [
    "Plans every run of wave K, binds the gate to the set digest of the plans, reads",
    "the gate policy from the spec at the base commit, waits (exit 3) until a matching",
    "approval stands in the ledger, then applies. Share and group jobs read the",
    "deciding job's decision and refuse runs whose plan moved (exit 4).",
  ].join("\n"),
  notes: [
    "exit: 0 done, 1 a run failed, 2 invalid input, 3 waiting (an approval, the",
    "wave before, a hold), 4 plans moved;",
    'see "chant-wave help exit-codes"',
  ].join("\n"),
  examples: [
    "chant-wave run --spec waves.jsonc --wave 1   # whole wave: plan, gate, apply",
    "chant-wave run --spec waves.jsonc --wave 2 --decide --ledger git   # deciding job",
    "chant-wave run --spec waves.jsonc --wave prod --decide --dry-run   # would it wait?",
    "chant-wave run --spec waves.jsonc --pull-request --record-plans   # pull-request job",
  ],
  flags: RUN_FLAGS,
  async run(argv, io) {
    const flags = parseFlags("run", argv, runCommand.flags);
    const json = flags.booleans.json;
    try {
      const file = requireFlag("run", flags, "spec");
      // What git answers whatever the spec says runs while its parser loads.
      io.git.topLevel(io.cwd).catch(() => {});
      const { spec, text } = await loadSpec(file, io.cwd);
      // What parsing a spec of many runs left is freed before the job starts.
      io.pacer?.settle(
        spec.waves.reduce((runs, wave) => runs + wave.runs.length, 0),
      );
      if (flags.booleans["pull-request"]) {
        return await runPlanRequest(spec, file, flags, io);
      }
      if (flags.booleans["record-plans"]) {
        return await runRecordPlans(spec, flags, io);
      }
      const selection = selectJob(spec, file, {
        wave: requireFlag("run", flags, "wave"),
        decide: flags.booleans.decide,
        share: positiveIntFlag(flags, "share"),
        group: flags.strings.group,
      });
      const { wave } = selection;
      const settings = {
        parallel: positiveIntFlag(flags, "parallel") ?? wave.parallel,
        timeoutMs: durationFlag(flags, "timeout") ?? wave.timeoutMs,
        heartbeatMs: durationFlag(flags, "heartbeat") ?? spec.heartbeatMs,
      };
      // One parser for the ledger's choice and the job: the spec at base is
      // parsed once, and not at all when it is the working copy's text.
      const parseSpec = rememberingParser(await specParser(), [{ text, spec }]);
      const choice = await runLedger({
        ...(flags.strings.ledger === undefined
          ? {}
          : { flag: flags.strings.ledger }),
        spec,
        specFile: file,
        parse: parseSpec,
        ...(flags.strings.base === undefined
          ? {}
          : { baseFlag: flags.strings.base }),
      }, io);
      const ledger = await openLedger(choice, io);
      const ledgerArg = ledgerArgument(choice);
      if (!flags.booleans["dry-run"]) await keepChantIgnored(io.cwd);
      const child = flags.booleans["gitlab-child"]
        ? { spec, specFile: file, selection }
        : undefined;
      if (child) await clearGitlabChild(child, flags.booleans["dry-run"], io);
      const result = await runJob({
        ...(child
          ? { onBase: (bases) => childLinesAtBase(child, bases, io) }
          : {}),
        spec,
        specFile: file,
        specText: text,
        selection,
        ...(flags.strings.base === undefined
          ? {}
          : { baseFlag: flags.strings.base }),
        settings,
        dryRun: flags.booleans["dry-run"],
        ...(ledgerArg === undefined ? {} : { ledgerArg }),
        ...(flags.strings["out-of-order"] === undefined
          ? {}
          : { outOfOrder: outOfOrderReason(flags.strings["out-of-order"]) }),
        parseSpec,
      }, { ...io, ledger });
      if (child) await writeGitlabChild(child, result, io);
      if (json) io.stdout.write(JSON.stringify(orderedResult(result)) + "\n");
      const summaryFile = io.env.GITHUB_ACTIONS
        ? io.env.GITHUB_STEP_SUMMARY
        : undefined;
      if (summaryFile) {
        const summary = maskCredentials(
          jobSummary(
            result,
            wave.name,
            approveClick(
              spec.name,
              wave,
              io.env,
              (result.waiting?.approvals.counted ?? 0) + 1,
            ),
          ),
        );
        await appendFile(summaryFile, summary).catch((
          error,
        ) =>
          io.stderr.write(
            `warning: cannot append the job summary: ${
              (error as Error).message
            }\n`,
          )
        );
      }
      return result.exitCode;
    } catch (error) {
      if (json && error instanceof InputError) {
        io.stdout.write(
          JSON.stringify({ exitCode: error.exitCode, error: error.message }) +
            "\n",
        );
      }
      throw error;
    }
  },
};

/**
 * Flags that choose or shape a wave's job, which `--record-plans` does not
 * take, nor `--ledger`: it writes no ledger (SPEC.md §13).
 */
const WAVE_FLAGS = [
  "wave",
  "share",
  "group",
  "base",
  "out-of-order",
  "ledger",
] as const;

/**
 * Refuses the flags of a wave's job on a job that plans every wave.
 * @throws {InputError} Naming the first such flag.
 */
function refuseWaveFlags(
  flags: ParsedFlags,
  lead: string,
  allowed: readonly string[] = [],
): void {
  const taken = [
    ...WAVE_FLAGS.filter((name) =>
      flags.strings[name] !== undefined && !allowed.includes(name)
    ),
    ...(["decide", "dry-run", "gitlab-child"] as const).filter((name) =>
      flags.booleans[name]
    ),
  ];
  if (taken.length > 0) {
    throw new InputError(
      `"--${lead}" plans every wave and takes no "--${taken[0]}"`,
    );
  }
}

/** How every wave's runs plan in a job that plans them all. */
function everyWaveSettings(spec: Spec, flags: ParsedFlags) {
  return {
    parallel: positiveIntFlag(flags, "parallel") ?? spec.parallel,
    timeoutMs: durationFlag(flags, "timeout") ?? spec.timeoutMs,
    heartbeatMs: durationFlag(flags, "heartbeat") ?? spec.heartbeatMs,
  };
}

/** The edges of a job that plans every wave: a ledger it never writes. */
async function everyWaveIo(io: CliIo) {
  return {
    ...io,
    // Never written: the pull request's code runs here (SPEC.md §13).
    ledger: await openLedger(
      { where: DEFAULT_LEDGER_DIR, from: "default" },
      io,
    ),
  };
}

/**
 * `run --pull-request`: the plan job of a request (SPEC.md §18); with
 * `--record-plans`, the same pass records the plans too.
 */
async function runPlanRequest(
  spec: Spec,
  file: string,
  flags: ParsedFlags,
  io: CliIo,
): Promise<number> {
  refuseWaveFlags(flags, "pull-request", ["base"]);
  await keepChantIgnored(io.cwd);
  const result = await planRequest({
    spec,
    specFile: file,
    ...(flags.strings.base === undefined
      ? {}
      : { baseFlag: flags.strings.base }),
    parseSpec: await specParser(),
    record: flags.booleans["record-plans"],
    settings: everyWaveSettings(spec, flags),
  }, await everyWaveIo(io));
  if (flags.booleans.json) {
    const { exitCode, name, head, waves, said, recorded } = result;
    io.stdout.write(
      JSON.stringify({
        exitCode,
        name,
        head,
        waves,
        said,
        ...(recorded ? { recorded: recordedJson(recorded) } : {}),
      }) + "\n",
    );
  } else if (!result.request) {
    io.stdout.write(result.comment);
  }
  return result.exitCode;
}

/** What `--json` says of recorded plans: the waves, the file, what was handed. */
function recordedJson(result: RecordPlansResult) {
  const { waves, file, handed } = result;
  return { waves, ...(file ? { file } : {}), ...(handed ? { handed } : {}) };
}

/** `run --record-plans`: plans every wave at HEAD and records the digests. */
async function runRecordPlans(
  spec: Spec,
  flags: ParsedFlags,
  io: CliIo,
): Promise<number> {
  refuseWaveFlags(flags, "record-plans");
  await keepChantIgnored(io.cwd);
  const result = await recordPlans({
    spec,
    settings: everyWaveSettings(spec, flags),
  }, await everyWaveIo(io));
  if (flags.booleans.json) {
    const { exitCode, name, head } = result;
    io.stdout.write(
      JSON.stringify({ exitCode, name, head, ...recordedJson(result) }) + "\n",
    );
  }
  return result.exitCode;
}

/** The result with its keys in the order of SPEC.md §4.8 (and `rest`, §11). */
function orderedResult(result: JobResult): JobResult {
  const {
    exitCode,
    wave,
    job,
    decision,
    applied,
    failed,
    moved,
    untried,
    skipped,
    rest,
    waitsFor,
  } = result;
  return {
    exitCode,
    wave,
    job,
    ...(decision ? { decision } : {}),
    applied,
    failed,
    moved,
    untried,
    skipped,
    ...(rest ? { rest } : {}),
    ...(waitsFor ? { waitsFor } : {}),
  };
}

/** The reason of `--out-of-order`, which must say something. */
function outOfOrderReason(reason: string): string {
  if (reason.trim() === "") {
    throw new InputError(
      'flag "--out-of-order" needs a reason: --out-of-order "hotfix for INC-42"',
    );
  }
  return reason;
}

function durationFlag(flags: ParsedFlags, name: string): number | undefined {
  const value = flags.strings[name];
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (error) {
    throw new InputError(`flag "--${name}": ${(error as Error).message}`);
  }
}
