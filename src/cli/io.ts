/**
 * The edges the commands use, built once by `cli.ts` and passed down as one `io`
 * object: output writers, the environment, the working directory, the clock,
 * interrupts and git. Tests build their own with memory writers and temporary
 * directories.
 * @module
 */

import process from "node:process";
import { type Clock, realClock } from "../clock.ts";
import { fdWriter, type Writer } from "../console/writer.ts";
import { Interrupts } from "../exec/interrupts.ts";
import { nodeSpawner, type Spawner } from "../exec/spawner.ts";
import { createGit, type Git } from "../git/git.ts";

/** What a command may touch outside itself. */
export interface CliIo {
  /** Machine-readable results only (`--json`, `schema`, tables a user asked for). */
  stdout: Writer;
  /** The human log, errors included. */
  stderr: Writer;
  /** The process environment. */
  env: Record<string, string | undefined>;
  /** The working directory: relative paths and `.chant/` resolve from here. */
  cwd: string;
  clock: Clock;
  /** Stops running steps on SIGINT/SIGTERM; `cli.ts` installs the handlers. */
  interrupts: Interrupts;
  /** Git, with the user's global configuration ignored. */
  git: Git;
  /** Starts the user's commands; the real one by default (tests may leave it out). */
  spawner?: Spawner;
}

/**
 * How often the real spawner collects garbage fully (see
 * `pace_collections.ts`): a collection costs about 10 ms of CPU, 256 steps a
 * second or more and 32 MiB of output through the step console 0.2 s or more;
 * it keeps a long wave's spent streams and pipes, and a loud step's spent
 * buffers, from piling up.
 */
const COLLECT_EVERY = { steps: 256, bytes: 32 * 1024 * 1024 };

/**
 * The real edges: fd 1 and fd 2, the process environment and working directory,
 * the wall clock, a fresh interrupt registry, the isolated git and a spawner
 * that collects garbage between steps.
 * @returns A fresh `CliIo`.
 */
export function realIo(): CliIo {
  const env = { ...process.env };
  // The CLI ends with process.exit: a long-lived cat-file ends with it.
  const git = createGit({ env, longLived: true });
  const steps = nodeSpawner({ collectEvery: COLLECT_EVERY });
  return {
    stdout: fdWriter(1),
    stderr: fdWriter(2),
    env,
    cwd: process.cwd(),
    clock: realClock,
    interrupts: new Interrupts(),
    git,
    spawner: {
      // The change's code must find no git process waiting on a pipe.
      spawn(options) {
        git.endLongLived();
        return steps.spawn(options);
      },
    },
  };
}
