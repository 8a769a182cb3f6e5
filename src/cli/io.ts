/**
 * What every command is, and what it works through: the shape every command
 * file exports (so `main` can dispatch, list, explain and complete them
 * uniformly; its flags are one table), and the edges built once by `cli.ts`
 * and passed down as one `io` object (output writers, the environment, the
 * working directory, the clock, interrupts and git). Tests build their own with
 * memory writers and temporary directories.
 * @module
 */

import process from "node:process";
import { type Clock, realClock } from "../clock.ts";
import { fdWriter, pacedWriter, type Writer } from "../console/writer.ts";
import { Interrupts } from "../exec/interrupts.ts";
import {
  type CollectionPacer,
  paceCollections,
} from "../exec/pace_collections.ts";
import { nodeSpawner, type Spawner } from "../exec/spawner.ts";
import { createGit, type Git } from "../git/git.ts";
import { jitPolicy } from "../proc/jit_policy.ts";
import type { FlagTable } from "./_flags.ts";

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
  /**
   * Told of text built outside the log (a large record) and of the end of
   * each stage of a job, to collect garbage between them; the real one by
   * default (tests may leave it out).
   */
  pacer?: CollectionPacer;
}

/**
 * How often the real process collects garbage fully (see
 * `pace_collections.ts`): a collection costs 10 to 20 ms of CPU, 1,024 steps
 * a few seconds and 32 MiB of output through the step console 0.2 s or more;
 * it keeps a long wave's spent processes and pipes, and a loud step's spent
 * buffers, from piling up. (A step started through `Bun.spawn` leaves far
 * less behind than one through `node:child_process` did: collecting every
 * 256 steps, as then, cost a 1,000-run wave some 80 ms of CPU and left a
 * 30,000-run wave's peak memory where every 1,024 steps leaves it.)
 * Bun frees the strings a synchronous stretch made
 * only at a collection, and collects by itself only after some 30 MB: a
 * million characters of text built (a log line counting `LINE_CHARS` more)
 * leave 1 to 2 MB behind, and a wave of 30,000 runs builds about 36 million
 * (its member lines, progress lines and summary, its digest and decision
 * record), some 35 collections. A stage of fewer than 2,048 runs leaves a
 * megabyte or two behind, not worth a collection at its end (some 50 ms of
 * CPU in a 1,000-run wave, whose two stages made half of its collections'
 * cost); a 30,000-run wave's stages each make one.
 */
const COLLECT_EVERY = {
  steps: 1024,
  bytes: 32 * 1024 * 1024,
  chars: 1024 * 1024,
  stageRuns: 2048,
};

/**
 * The real edges: fd 1 and fd 2 (fd 2 paced), the process environment and
 * working directory, the wall clock, a fresh interrupt registry, the isolated
 * git, and a spawner and a pacer that collect garbage between steps and as
 * text is built; the spawner gives bun its normal JIT policy back once the
 * command's steps show it is a long one (`src/proc/jit_policy.ts`).
 * @returns A fresh `CliIo`.
 */
export function realIo(): CliIo {
  const env = { ...process.env };
  // The CLI ends with process.exit: a long-lived cat-file ends with it.
  const git = createGit({ env, cwd: process.cwd(), longLived: true });
  const pacer = paceCollections(COLLECT_EVERY);
  const steps = nodeSpawner({ pacer, jit: jitPolicy() });
  return {
    stdout: fdWriter(1),
    stderr: pacedWriter(fdWriter(2), pacer.built),
    env,
    cwd: process.cwd(),
    clock: realClock,
    interrupts: new Interrupts(),
    git,
    spawner: {
      // The change's code must find no git process waiting on a pipe: each
      // has ended before the command starts.
      async spawn(options) {
        await git.endLongLived();
        return steps.spawn(options);
      },
    },
    pacer,
  };
}

/** One `chant-wave` command. */
export interface Command {
  /** The word that selects it. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /**
   * Its usage forms, each after `chant-wave NAME`: positional words, `[`, `]`,
   * `|` and the flags as `--name`, which the usage shows with their values
   * from {@linkcode Command.flags}; a `\n` continues a form on the next line.
   */
  usage: readonly string[];
  /** The help's lines before the flag list: what it does. */
  about: string;
  /** The help's lines after the flag list, if any. */
  notes?: string;
  /**
   * Two to four real command lines for the EXAMPLES block of `--help`, each
   * `chant-wave …`, optionally followed by `  # what it does`.
   */
  examples: readonly string[];
  /** Its flags, in the order the help lists them. */
  flags: FlagTable;
  /** The words its first positional takes, offered by shell completion. */
  words?: readonly string[];
  /** Whether its other positionals are files (shell completion offers files). */
  files?: boolean;
  /**
   * Runs the command.
   * @param argv The words after the command.
   * @param io The edges.
   * @returns The exit code.
   * @throws {InputError} On bad input (exit 2); other errors are bugs (exit 1).
   */
  run(argv: string[], io: CliIo): Promise<number>;
}
