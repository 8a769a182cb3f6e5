/**
 * `chant-wave plan-file opentofu|terraform SHOW_JSON PLAN_FILE [--json]` turns
 * the saved output of `tofu show -json` / `terraform show -json` into a plan
 * file (SPEC.md §15); `chant-wave plan-file sqitch DIR TARGET PLAN_FILE` plans
 * a database's pending sqitch changes into one. Both are for plan scripts that
 * run the tool themselves; a spec with `tool` needs neither.
 * @module
 */

import { readFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { lineLog } from "../console/line_log.ts";
import { maskCredentials } from "../console/visible.ts";
import { InputError, OutcomeError } from "../errors.ts";
import { OK, RUN_FAILED } from "../exit_codes.ts";
import { runUserStep } from "../exec/run_user_step.ts";
import { suggest } from "../spec/did_you_mean.ts";
import { TOOL_KINDS } from "../spec/types.ts";
import { DEFAULT_SQITCH } from "../sqitch/sqitch_at_base.ts";
import { planWithSqitch } from "../sqitch/sqitch_steps.ts";
import { parsePlanFile } from "../plan/plan_file.ts";
import {
  ShowJsonError,
  writeToolPlanFile,
} from "../tofu/write_tool_plan_file.ts";
import type { StepRunner } from "../exec/run_tool_step.ts";
import type { CliIo, Command } from "./io.ts";
import { jsonFlag, type ParsedFlags, parseFlags } from "./_flags.ts";

/** The `plan-file` command. */
export const planFileCommand: Command = {
  name: "plan-file",
  summary: "turn an OpenTofu, Terraform or sqitch plan into a plan file",
  usage: [
    "opentofu|terraform SHOW_JSON PLAN_FILE [--json]",
    "sqitch DIR TARGET PLAN_FILE [--binary] [--honour-marks] [--json]",
  ],
  about: [
    'opentofu, terraform: reads SHOW_JSON, the output of "tofu show -json <saved',
    'plan>" (or "terraform show -json <saved plan>"), and writes PLAN_FILE, the',
    "plan file a plan command writes: { planDigest, destructive, empty, summary }.",
    "The digest covers what the apply would do (resource_changes and",
    "output_changes, keys sorted), never the plan's timestamp, tool version or",
    "prior state, so planning the same change twice gives the same digest.",
    "destructive: some resource is deleted or replaced. empty: nothing but no-op",
    "and read, no move or import, and no output change. Sensitive values are",
    "never printed.",
    "",
    "sqitch: asks the database TARGET (a URI such as db:pg://host/db, or a",
    "sqitch target name) what the project in DIR has deployed, and writes the",
    "changes it has not, in plan order: the digest covers the change it is at,",
    "each pending change's name and id and the SHA-256 of its deploy script;",
    "destructive: a deploy script drops, truncates, deletes or updates without",
    "WHERE, changes a column's type or renames (comments and strings do not",
    'count); "changes" lists them; "sqitch" holds what an apply needs. Deploy',
    'exactly those with: sqitch deploy --target TARGET --to "$(jq -r .sqitch.deployTo PLAN_FILE)"',
    "after checking that the database still is at .sqitch.deployed.",
  ].join("\n"),
  notes: [
    'A spec with "tool" does all of this without a script. In a plan script',
    "whose plan file is $CHANT_WAVE_PLAN:",
    '  tofu -chdir=live/prod plan -input=false -out="$PWD/prod.tfplan"',
    '  tofu -chdir=live/prod show -json "$PWD/prod.tfplan" > prod.show.json',
    '  chant-wave plan-file opentofu prod.show.json "$CHANT_WAVE_PLAN"',
  ].join("\n"),
  examples: [
    "chant-wave plan-file opentofu prod.show.json prod.plan.json",
    'chant-wave plan-file terraform show.json "$CHANT_WAVE_PLAN" --json',
    'chant-wave plan-file sqitch db db:pg://db.internal/tenant_eu "$CHANT_WAVE_PLAN"',
  ],
  flags: [
    jsonFlag("also print the plan file on stdout"),
    {
      name: "binary",
      value: { name: "B" },
      description: "the sqitch program",
      default: '"sqitch"',
    },
    {
      name: "honour-marks",
      description: 'let a "-- chant-wave: not destructive" line in a deploy\n' +
        "script clear it (in a spec with tool, the policy at base\n" +
        "decides: destructiveOverrides)",
    },
  ],
  words: TOOL_KINDS,
  files: true,
  run(argv, io) {
    const flags = parseFlags("plan-file", argv, planFileCommand.flags);
    const kind = kindOf(flags.positionals[0]);
    return kind === "sqitch"
      ? sqitchPlanFile(flags, io)
      : tofuPlanFile(flags, io);
  },
};

/** `plan-file opentofu|terraform SHOW_JSON PLAN_FILE`: both write the same plan format. */
async function tofuPlanFile(flags: ParsedFlags, io: CliIo): Promise<number> {
  for (const flag of ["binary", "honour-marks"]) {
    if (flags.strings[flag] !== undefined || flags.booleans[flag]) {
      throw new InputError(`"--${flag}" is for "plan-file sqitch"`);
    }
  }
  const [, showJson, planFile] = wordsOf(flags.positionals, [
    "SHOW_JSON",
    "PLAN_FILE",
  ], "opentofu show.json plan.json");
  let plan;
  try {
    plan = await writeToolPlanFile({
      showJson: resolve(io.cwd, showJson),
      planFile: resolve(io.cwd, planFile),
      showJsonShownAs: showJson,
      planFileShownAs: planFile,
    });
  } catch (error) {
    if (error instanceof ShowJsonError) throw new InputError(error.message);
    throw error;
  }
  if (flags.booleans.json) io.stdout.write(`${JSON.stringify(plan)}\n`);
  io.stderr.write(`wrote ${JSON.stringify(planFile)}: ${plan.summary}\n`);
  return OK;
}

/** `plan-file sqitch DIR TARGET PLAN_FILE`: runs sqitch, exit 1 when a step fails. */
async function sqitchPlanFile(flags: ParsedFlags, io: CliIo): Promise<number> {
  const [, dir, target, planFile] = wordsOf(flags.positionals, [
    "DIR",
    "TARGET",
    "PLAN_FILE",
  ], "sqitch db db:pg://localhost/app plan.json");
  const binary = flags.strings.binary ?? "sqitch";
  if (binary === "") throw new InputError('"--binary" needs a program');
  const step = await planWithSqitch(
    { dir, target },
    planFile,
    {
      honourMarks: flags.booleans["honour-marks"] === true,
      settings: { ...DEFAULT_SQITCH, program: binary },
    },
    cliRunner(io.env.CHANT_WAVE_TARGET ?? maskCredentials(target), io),
  );
  const code = io.interrupts.exitCode;
  if (code !== undefined) {
    throw new OutcomeError(code, "interrupted: stopped sqitch; wrote nothing");
  }
  const log = lineLog(io.stderr);
  if (!step.ok) {
    log(`error: ${step.failure ?? `plan of ${JSON.stringify(target)} failed`}`);
    for (const line of step.tail) log(`  | ${line}`);
    return RUN_FAILED;
  }
  const text = await readFile(resolve(io.cwd, planFile), "utf8");
  const plan = parsePlanFile(text);
  if (flags.booleans.json) io.stdout.write(text);
  log(`wrote ${JSON.stringify(planFile)}: ${plan.summary}`);
  return OK;
}

/**
 * Runs steps in the command's own environment (no wave: no `CHANT_WAVE_*`
 * variable is set or dropped), printed as `[plan] <label> | …` (the run's
 * `CHANT_WAVE_TARGET` in a plan command, else the database), through the one
 * runner of user commands.
 */
function cliRunner(label: string, io: CliIo): StepRunner {
  return {
    label,
    cwd: io.cwd,
    env: io.env,
    run: (step) => runUserStep({ ...step, label }, {}, io),
  };
}

/** The tool word, checked. */
function kindOf(kind: string | undefined): (typeof TOOL_KINDS)[number] {
  if (kind === undefined) {
    throw new InputError(
      '"plan-file" needs the tool, SHOW_JSON and PLAN_FILE (e.g. "chant-wave plan-file opentofu show.json plan.json"); got none',
    );
  }
  if (!(TOOL_KINDS as readonly string[]).includes(kind)) {
    const near = suggest(kind, TOOL_KINDS);
    const hint = near ? `; did you mean "${near}"?` : "";
    throw new InputError(
      `unknown tool "${kind}": use opentofu, terraform or sqitch${hint}`,
    );
  }
  return kind as (typeof TOOL_KINDS)[number];
}

/** The positionals after the tool, exactly `names`. */
function wordsOf(
  positionals: readonly string[],
  names: readonly string[],
  example: string,
): string[] {
  if (positionals.length !== names.length + 1) {
    const needs = ["the tool", ...names];
    throw new InputError(
      `"plan-file" needs ${needs.slice(0, -1).join(", ")} and ${
        needs[needs.length - 1]
      } (e.g. "chant-wave plan-file ${example}"); got "${
        positionals.join(" ")
      }"`,
    );
  }
  return [...positionals];
}
