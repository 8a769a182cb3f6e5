/**
 * `chant-wave jobs --spec F [--json]`: the CI jobs a spec expands to (SPEC.md §6.1),
 * as a table or as JSON.
 * @module
 */

import { OK } from "../exit_codes.ts";
import { expandJobs, type Job } from "../jobs/expand_jobs.ts";
import { ciCommand } from "../jobs/job_ledger.ts";
import type { Command } from "./io.ts";
import { jsonFlag, parseFlags, requireFlag, SPEC_FLAG } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { formatTable } from "../table.ts";
import { shellLine } from "../shell_words.ts";

/** The `jobs` command. */
export const jobsCommand: Command = {
  name: "jobs",
  summary: "list the CI jobs a spec expands to",
  usage: ["--spec [--json]"],
  about: [
    "Expands the spec into its CI jobs: one job per wave, or a deciding job plus",
    "share jobs or job groups, each needing the last jobs of the wave before.",
    "Each command is the one the pipelines run, with the spec's ledger (else",
    "--ledger git), so it works as printed.",
    'A rest wave shows as "<k>+": its whole-wave job goes on through further waves.',
  ].join("\n"),
  examples: [
    "chant-wave jobs --spec waves.jsonc   # a table: job, kind, wave, needs, command",
    "chant-wave jobs --spec waves.jsonc --json",
  ],
  flags: [SPEC_FLAG, jsonFlag("print the jobs as a JSON array on stdout")],
  async run(argv, io) {
    const flags = parseFlags("jobs", argv, jobsCommand.flags);
    const file = requireFlag("jobs", flags, "spec");
    const { spec } = await loadSpec(file, io.cwd);
    const jobs = expandJobs(spec, file).map((job) => ({
      ...job,
      command: ciCommand(job, spec),
    }));
    io.stdout.write(
      flags.booleans.json
        ? JSON.stringify(jobs, null, 2) + "\n"
        : jobsTable(jobs),
    );
    return OK;
  },
};

function jobsTable(jobs: readonly Job[]): string {
  const header = ["JOB", "KIND", "WAVE", "SHARE", "GROUP", "NEEDS", "COMMAND"];
  const rows = jobs.map((job) => [
    job.name,
    job.kind,
    `${job.wave}${job.rest ? "+" : ""} ${job.waveName}`,
    job.share === undefined ? "-" : `${job.share}/${job.shares}`,
    job.group ?? "-",
    job.needs.length === 0 ? "-" : job.needs.join(","),
    shellLine(job.command),
  ]);
  return formatTable([header, ...rows]);
}
