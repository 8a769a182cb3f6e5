/**
 * The per-wave lock of one checkout: two chant-wave jobs of the same wave in one
 * working directory would remove and rewrite each other's plan files, so a job
 * holds `.chant/waves/<name>/wave-<k>.lock` while it plans, decides and applies.
 * The lock file names its holder's pid and host and is stale once that pid is
 * gone on this host (`src/fs/pid_lock.ts`). It knows nothing of plans or
 * decisions; dry runs plan in a temporary directory and take no lock.
 * @module
 */

import { mkdir } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import type { Clock } from "../clock.ts";
import { InputError } from "../errors.ts";
import { type PidLockOptions, tryPidLock } from "../fs/pid_lock.ts";
import { formatDuration, parseDuration } from "../spec/duration.ts";

/** How long a job waits for another job's lock by default: 60 s. */
export const DEFAULT_LOCK_WAIT_MS = 60_000;
/** The variable that overrides {@linkcode DEFAULT_LOCK_WAIT_MS} (a duration). */
export const LOCK_WAIT_VARIABLE = "CHANT_WAVE_LOCK_WAIT";
const POLL_MS = 100;

/** Options of {@linkcode lockWave}. */
export interface LockWaveOptions
  extends Pick<PidLockOptions, "self" | "isAlive"> {
  /** The wave's folder, `.chant/waves/<name>` (created when missing). */
  dir: string;
  /** The wave's number. */
  k: number;
  /** How long to wait for another holder before giving up. */
  waitMs: number;
  /** Times the wait. */
  clock: Clock;
  /** Receives one line (no newline) when the job starts waiting. */
  log: (line: string) => void;
  /** Called before every wait; throws to stop waiting (an interrupt). */
  checkStop: () => void;
}

/** A held wave lock. */
export interface WaveLock {
  /** Removes the lock file if it is still this holder's. Never throws. */
  release(): Promise<void>;
}

/**
 * Takes wave `k`'s lock of this checkout, waiting (polling) up to `waitMs` while
 * a live process holds it; a stale lock (its pid gone on this host) is removed.
 * @param options The folder, wave, bound, clock, log and stop check.
 * @returns The held lock; release it when the job is done.
 * @throws {InputError} When another run still holds it after `waitMs` (exit 2):
 * `another chant-wave run holds wave <k> in this checkout (pid <p>)`.
 * @throws {Error} Whatever `checkStop` throws, or when the folder is unwritable.
 */
export async function lockWave(options: LockWaveOptions): Promise<WaveLock> {
  const { dir, k, clock } = options;
  const path = join(dir, `wave-${k}.lock`);
  await mkdir(dir, { recursive: true });
  const deadline = clock.now() + options.waitMs;
  let waiting = false;
  for (;;) {
    const got = await tryPidLock({ ...options, path });
    if (got.ok) return { release: got.release };
    const { holder } = got;
    const pid = holder ? String(holder.pid) : "unknown";
    if (clock.now() >= deadline) {
      throw new InputError(
        `another chant-wave run holds wave ${k} in this checkout (pid ${pid}); ` +
          `waited ${formatDuration(options.waitMs)}`,
        [
          `lock: ${path}${
            holder ? ` (host ${holder.host}, since ${holder.since})` : ""
          }`,
          `remove it only if no such run is left; ${LOCK_WAIT_VARIABLE} sets the wait`,
        ],
      );
    }
    if (!waiting) {
      waiting = true;
      options.log(
        `chant-wave: another run holds wave ${k} in this checkout (pid ${pid}); ` +
          `waiting up to ${formatDuration(options.waitMs)}`,
      );
    }
    options.checkStop();
    await sleep(clock, POLL_MS + Math.floor(Math.random() * POLL_MS));
    options.checkStop();
  }
}

/**
 * How long to wait for a wave lock: `CHANT_WAVE_LOCK_WAIT` (a duration such as
 * `90s` or `0`), else 60 s.
 * @param env The environment.
 * @returns Milliseconds.
 * @throws {InputError} When the variable is not a duration.
 * @example
 * ```ts
 * lockWaitMs({ CHANT_WAVE_LOCK_WAIT: "5s" }); // 5000
 * lockWaitMs({}); // 60000
 * ```
 */
export function lockWaitMs(env: Record<string, string | undefined>): number {
  const text = env[LOCK_WAIT_VARIABLE];
  if (text === undefined || text === "") return DEFAULT_LOCK_WAIT_MS;
  try {
    return parseDuration(text);
  } catch (error) {
    throw new InputError(
      `${LOCK_WAIT_VARIABLE}: ${(error as Error).message}`,
    );
  }
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
