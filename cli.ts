/**
 * The `chant-wave` executable's entry: builds the real edges, runs the command
 * line and exits with its code. The only module that reads argv or exits.
 *
 * On SIGINT/SIGTERM the running children are stopped (see `installSignalHandlers`);
 * the command then sees the interrupt, records nothing more and ends with 130/143.
 * Should it not end within a short grace period (it is waiting on something that
 * is not a child), the process exits with that code anyway.
 * @module
 */

import process from "node:process";
import { installSignalHandlers } from "./src/exec/interrupts.ts";
import { useSmallPipeBuffers } from "./src/exec/spawner.ts";
import { realIo } from "./src/cli/io.ts";
import { main } from "./src/cli/main.ts";

const BACKSTOP_MS = 2_000;
await useSmallPipeBuffers();
const io = realIo();
const interrupted = (code: number) => {
  io.stderr.write(
    `error: interrupted (${
      code === 130 ? "SIGINT" : "SIGTERM"
    }): recorded nothing more\n`,
  );
  process.exit(code);
};

installSignalHandlers(io.interrupts, (code) => {
  setTimeout(() => interrupted(code), BACKSTOP_MS).unref();
});
main(process.argv.slice(2), io).then((code) => {
  const signalled = io.interrupts.exitCode;
  if (signalled !== undefined && code !== signalled) interrupted(signalled);
  process.exit(code);
});
