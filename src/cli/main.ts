/**
 * The command line's front door: picks the command, prints help and the version,
 * and maps every error to its one-line message and exit code (SPEC.md §2.1).
 * It never exits the process; `cli.ts` does, with the code `main` returns.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { InputError, OutcomeError } from "../errors.ts";
import { INVALID_INPUT, OK, RUN_FAILED } from "../exit_codes.ts";
import { suggest } from "../spec/did_you_mean.ts";
import { VERSION } from "../version.ts";
import { approveCommand } from "./approve_command.ts";
import { checkCommand } from "./check_command.ts";
import type { Command } from "./command.ts";
import type { CliIo } from "./io.ts";
import { jobsCommand } from "./jobs_command.ts";
import { ledgerCommand } from "./ledger_command.ts";
import { pipelineCommand } from "./pipeline_command.ts";
import { planFileCommand } from "./plan_file_command.ts";
import { revokeCommand } from "./revoke_command.ts";
import { runCommand } from "./run_command.ts";
import { schemaCommand } from "./schema_command.ts";
import { statusCommand } from "./status_command.ts";

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  approveCommand,
  revokeCommand,
  statusCommand,
  checkCommand,
  jobsCommand,
  pipelineCommand,
  planFileCommand,
  schemaCommand,
  ledgerCommand,
];

/**
 * Runs the command line `argv` (the words after the executable).
 * @param argv The arguments.
 * @param io The edges.
 * @returns The exit code.
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  try {
    return await dispatch([...argv], io);
  } catch (error) {
    return report(error, io);
  }
}

function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (
    first === undefined || first === "--help" || first === "-h" ||
    first === "help"
  ) {
    io.stdout.write(overview());
    return Promise.resolve(first === undefined ? INVALID_INPUT : OK);
  }
  if (first === "--version" || first === "-V") {
    io.stdout.write(`${VERSION}\n`);
    return Promise.resolve(OK);
  }
  // `chant-wave --spec F --wave K …` with no command means `run`.
  const [name, words] = first.startsWith("-") ? ["run", argv] : [first, rest];
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    const near = suggest(name, COMMANDS.map((candidate) => candidate.name));
    const hint = near
      ? `; did you mean "${near}"?`
      : `; see "chant-wave --help"`;
    throw new InputError(`unknown command "${name}"${hint}`);
  }
  if (words.includes("--help") || words.includes("-h")) {
    io.stdout.write(`usage: ${command.usage}\n\n${command.help}\n`);
    return Promise.resolve(OK);
  }
  return command.run(words, io);
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = [
    `chant-wave ${VERSION}: apply one change in ordered, gated waves`,
    "",
    "usage: chant-wave <command> [flags]   (chant-wave --spec F --wave K … means run)",
    "",
    ...COMMANDS.map((command) =>
      `  ${command.name.padEnd(width)}  ${command.summary}`
    ),
    "",
    'Run "chant-wave <command> --help" for its flags. Exit codes: 0 done, 1 a run failed,',
    "2 invalid input, 3 waiting for an approval, 4 plans moved, 130/143 interrupted.",
  ];
  return lines.join("\n") + "\n";
}

function report(error: unknown, io: CliIo): number {
  if (error instanceof InputError || error instanceof OutcomeError) {
    const log = lineLog(io.stderr);
    log(`error: ${error.message}`);
    for (const line of error.details) log(`  ${line}`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  lineLog(io.stderr)(`error: internal error: ${message}`);
  if (
    io.env.CHANT_WAVE_DEBUG === "1" && error instanceof Error && error.stack
  ) {
    io.stderr.write(`${error.stack}\n`);
  } else {
    io.stderr.write("  set CHANT_WAVE_DEBUG=1 for a stack trace\n");
  }
  return RUN_FAILED;
}
