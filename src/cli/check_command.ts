/**
 * `chant-wave check --spec F [--json]`: validates a spec and reports every problem
 * (SPEC.md §3.7); for a valid one, its gated waves and, per forge, the click
 * that approves a waiting wave and the token it needs (§13.1).
 * @module
 */

import { styled } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { OK } from "../exit_codes.ts";
import { SpecError } from "../errors.ts";
import type { Command } from "./io.ts";
import { jsonFlag, parseFlags, requireFlag, SPEC_FLAG } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { describeTrust } from "../gate/approval_at_base.ts";
import { FORGE_NAMES, FORGES } from "../ci/forges.ts";
import { clickNeeds } from "../jobs/approve_job.ts";

/** The `check` command. */
export const checkCommand: Command = {
  name: "check",
  summary: "validate a spec and report every problem",
  usage: ["--spec [--json]"],
  about: [
    "Reads the spec and runs every check of the spec format; each problem is",
    "reported as <file>:<line>:<col>: <where>: <what>. Exit 0 when valid, 2 when not.",
    "A valid spec's gated waves are listed with their approval mode and what it",
    "withstands (as written here; a job reads these rules at base), then on each",
    "forge the click that approves a waiting wave and the token it needs.",
  ].join("\n"),
  examples: [
    "chant-wave check --spec waves.jsonc",
    "chant-wave check --spec waves.jsonc --json   # every problem as JSON, for scripts",
  ],
  flags: [
    { ...SPEC_FLAG, description: "the waves file (JSON or JSONC)" },
    jsonFlag(
      "print { ok, file, waves, runs } or { ok: false, problems } on stdout",
    ),
  ],
  async run(argv, io) {
    const flags = parseFlags("check", argv, checkCommand.flags);
    const file = requireFlag("check", flags, "spec");
    try {
      const { spec } = await loadSpec(file, io.cwd);
      const runs = spec.waves.reduce((sum, wave) => sum + wave.runs.length, 0);
      if (flags.booleans.json) {
        io.stdout.write(
          JSON.stringify({ ok: true, file, waves: spec.waves.length, runs }) +
            "\n",
        );
      }
      const log = terminalLog(io.stderr, io.env);
      log([
        styled("ok", "ok:"),
        ` ${file}: ${spec.waves.length} waves, ${runs} runs`,
      ]);
      for (const wave of spec.waves.filter((w) => w.gate !== "never")) {
        const required = wave.approvers.required;
        log(
          `  wave ${wave.k} "${wave.name}": gate ${wave.gate}, ${
            required > 1 ? `${required} distinct approvers, ` : ""
          }approval ${wave.approval}: ${describeTrust(wave.approval)}`,
        );
      }
      for (const forge of FORGES) {
        const click = clickNeeds(forge, spec);
        if (click) {
          log(
            `  a click on ${FORGE_NAMES[forge]}: ${click.how}; ${click.token}`,
          );
        }
      }
      return OK;
    } catch (error) {
      if (error instanceof SpecError && flags.booleans.json) {
        io.stdout.write(
          JSON.stringify({ ok: false, file, problems: error.problems }) + "\n",
        );
      }
      throw error;
    }
  },
};
