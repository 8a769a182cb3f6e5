/**
 * `chant-wave plan-file opentofu|terraform SHOW_JSON PLAN_FILE [--json]`: turns
 * the saved output of `tofu show -json` / `terraform show -json` into a plan
 * file (SPEC.md §15), for plan scripts that run the tool themselves.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { OK } from "../exit_codes.ts";
import { suggest } from "../spec/did_you_mean.ts";
import { TOOL_KINDS, type ToolKind } from "../spec/types.ts";
import {
  ShowJsonError,
  writeToolPlanFile,
} from "../tofu/write_tool_plan_file.ts";
import type { Command } from "./command.ts";
import { parseFlags } from "./_flags.ts";

/** The `plan-file` command. */
export const planFileCommand: Command = {
  name: "plan-file",
  summary: "turn an OpenTofu or Terraform plan into a plan file",
  usage: "chant-wave plan-file opentofu|terraform SHOW_JSON PLAN_FILE [--json]",
  help: [
    'Reads SHOW_JSON, the output of "tofu show -json <saved plan>" (or',
    '"terraform show -json <saved plan>"), and writes PLAN_FILE, the plan file a',
    "plan command writes: { planDigest, destructive, empty, summary }.",
    "",
    "The digest covers what the apply would do (resource_changes and",
    "output_changes, keys sorted), never the plan's timestamp, tool version or",
    "prior state, so planning the same change twice gives the same digest.",
    "destructive: some resource is deleted or replaced. empty: nothing but no-op",
    "and read, no move or import, and no output change. Sensitive values are",
    'never printed. A spec with "tool" does all of this without a script.',
    "",
    "  --json   also print the plan file on stdout",
    "",
    "In a plan script whose plan file is $CHANT_WAVE_PLAN:",
    '  tofu -chdir=live/prod plan -input=false -out="$PWD/prod.tfplan"',
    '  tofu -chdir=live/prod show -json "$PWD/prod.tfplan" > prod.show.json',
    '  chant-wave plan-file opentofu prod.show.json "$CHANT_WAVE_PLAN"',
  ].join("\n"),
  examples: [
    "chant-wave plan-file opentofu prod.show.json prod.plan.json",
    'chant-wave plan-file terraform show.json "$CHANT_WAVE_PLAN" --json',
  ],
  flags: { booleans: ["json"] },
  words: TOOL_KINDS,
  files: true,
  async run(argv, io) {
    const flags = parseFlags("plan-file", argv, planFileCommand.flags);
    // Both tools write the same plan format: the kind is checked, not used.
    const [, showJson, planFile] = wordsOf(flags.positionals);
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
  },
};

function wordsOf(positionals: readonly string[]): [ToolKind, string, string] {
  if (positionals.length !== 3) {
    const got = positionals.length
      ? `got "${positionals.join(" ")}"`
      : "got none";
    throw new InputError(
      `"plan-file" needs the tool, SHOW_JSON and PLAN_FILE (e.g. "chant-wave plan-file opentofu show.json plan.json"); ${got}`,
    );
  }
  const [kind, showJson, planFile] = positionals;
  if (!(TOOL_KINDS as readonly string[]).includes(kind)) {
    const near = suggest(kind, TOOL_KINDS);
    const hint = near ? `; did you mean "${near}"?` : "";
    throw new InputError(
      `unknown tool "${kind}": use ${TOOL_KINDS.join(" or ")}${hint}`,
    );
  }
  return [kind as ToolKind, showJson, planFile];
}
