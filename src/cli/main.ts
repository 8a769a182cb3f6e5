/**
 * The command line's front door: picks the command, prints help and the version,
 * and maps every error to its one-line message (`error:` in red on a terminal)
 * and exit code (SPEC.md §2.1), also as JSON on stdout under `--json`.
 * It never exits the process; `cli.ts` does, with the code `main` returns.
 * @module
 */

import { styled } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { maskingWriter } from "../console/masking_writer.ts";
import type { Writer } from "../console/writer.ts";
import { InputError, OutcomeError } from "../errors.ts";
import { INVALID_INPUT, OK, RUN_FAILED } from "../exit_codes.ts";
import { suggest } from "../spec/did_you_mean.ts";
import { VERSION } from "../version.ts";
import { approveCommand } from "./approve_command.ts";
import { checkCommand } from "./check_command.ts";
import type { CliIo, Command } from "./io.ts";
import { completionCommand } from "./completion_command.ts";
import { driftCommand } from "./drift_command.ts";
import { helpCommand } from "./help_command.ts";
import { jobsCommand } from "./jobs_command.ts";
import { ledgerCommand } from "./ledger_command.ts";
import { pipelineCommand } from "./pipeline_command.ts";
import { planFileCommand } from "./plan_file_command.ts";
import { resumeCommand } from "./resume_command.ts";
import { revokeCommand } from "./revoke_command.ts";
import { runCommand } from "./run_command.ts";
import { schemaCommand } from "./schema_command.ts";
import { showCommand } from "./show_command.ts";
import { statusCommand } from "./status_command.ts";
import { commandHelpText, overviewText } from "./_help_text.ts";
import { environmentError } from "./_environment_error.ts";

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  approveCommand,
  showCommand,
  resumeCommand,
  revokeCommand,
  statusCommand,
  driftCommand,
  checkCommand,
  jobsCommand,
  pipelineCommand,
  planFileCommand,
  schemaCommand,
  ledgerCommand,
  completionCommand(() => COMMANDS),
  helpCommand(() => COMMANDS),
];

/**
 * Runs the command line `argv` (the words after the executable). With `--json`
 * among the words, a command that fails before it printed anything on stdout
 * prints `{ "exitCode": N, "error": "…" }` there. Everything printed on stdout
 * and stderr goes through `maskingWriter`, so no URL shows a credential.
 * @param argv The arguments.
 * @param io The edges.
 * @returns The exit code.
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  const stdout = watchedWriter(maskingWriter(io.stdout));
  const masked = { ...io, stdout, stderr: maskingWriter(io.stderr) };
  try {
    return await dispatch([...argv], masked);
  } catch (thrown) {
    const error = await environmentError(thrown, masked) ?? thrown;
    const code = report(error, masked);
    if (argv.includes("--json") && !stdout.written) {
      const message = error instanceof InputError ||
          error instanceof OutcomeError
        ? error.message
        : `internal error: ${errorMessage(error)}`;
      stdout.write(JSON.stringify({ exitCode: code, error: message }) + "\n");
    }
    return code;
  }
}

function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h") {
    io.stdout.write(overviewText(COMMANDS));
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
    const hint = near ? `; did you mean "${near}"?` : '; see "chant-wave help"';
    throw new InputError(`unknown command "${name}"${hint}`);
  }
  if (words.includes("--help") || words.includes("-h")) {
    io.stdout.write(commandHelpText(command));
    return Promise.resolve(OK);
  }
  return command.run(words, io);
}

/** A writer that remembers whether anything was written through it. */
interface WatchedWriter extends Writer {
  readonly written: boolean;
}

function watchedWriter(writer: Writer): WatchedWriter {
  let written = false;
  return {
    ...(writer.isTerminal === undefined
      ? {}
      : { isTerminal: writer.isTerminal }),
    write(text: string): void {
      written ||= text.length > 0;
      writer.write(text);
    },
    get written() {
      return written;
    },
  };
}

function report(error: unknown, io: CliIo): number {
  const log = terminalLog(io.stderr, io.env);
  const headline = styled("error", "error:");
  if (error instanceof InputError || error instanceof OutcomeError) {
    log([headline, ` ${error.message}`]);
    for (const line of error.details) log(`  ${line}`);
    return error.exitCode;
  }
  log([headline, ` internal error: ${errorMessage(error)}`]);
  if (
    io.env.CHANT_WAVE_DEBUG === "1" && error instanceof Error && error.stack
  ) {
    io.stderr.write(`${error.stack}\n`);
  } else {
    io.stderr.write("  set CHANT_WAVE_DEBUG=1 for a stack trace\n");
  }
  return RUN_FAILED;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
