/**
 * The `chant-wave` executable's entry: builds the real edges, stops children and
 * exits 130/143 on SIGINT/SIGTERM, runs the command line and exits with its code.
 * The only module that reads argv or exits.
 * @module
 */

import process from "node:process";
import { installSignalHandlers } from "./src/exec/interrupts.ts";
import { realIo } from "./src/cli/io.ts";
import { main } from "./src/cli/main.ts";

const io = realIo();
installSignalHandlers(io.interrupts, (code) => process.exit(code));
main(process.argv.slice(2), io).then((code) => process.exit(code));
