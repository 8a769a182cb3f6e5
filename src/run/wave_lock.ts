/**
 * The per-wave lock of one checkout: two chant-wave jobs of the same wave in one
 * working directory would remove and rewrite each other's plan files, so a job
 * holds `.chant/waves/<name>/wave-<k>.lock` while it plans, decides and applies.
 * The file is created exclusively (written to a temporary name, then hard-linked
 * into place, so it is never seen half-written) and names its holder's pid and
 * host; it is stale once that pid is gone on this host. It knows nothing of
 * plans or decisions; dry runs plan in a temporary directory and take no lock.
 * @module
 */

import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, mkdir, open, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import process from "node:process";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import type { Clock } from "../clock.ts";
import { InputError } from "../errors.ts";
import { formatDuration, parseDuration } from "../spec/duration.ts";

/** How long a job waits for another job's lock by default: 60 s. */
export const DEFAULT_LOCK_WAIT_MS = 60_000;
/** The variable that overrides {@linkcode DEFAULT_LOCK_WAIT_MS} (a duration). */
export const LOCK_WAIT_VARIABLE = "CHANT_WAVE_LOCK_WAIT";
const POLL_MS = 100;
/** A lock breaker holds its marker for milliseconds; older ones crashed. */
const STALE_BREAK_MS = 10_000;

/** Who holds a lock, as its file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time it was taken. */
  since: string;
  /** Tells this holding apart from a later one of the same pid. */
  nonce: string;
}

/** Options of {@linkcode lockWave}. */
export interface LockWaveOptions {
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
  /**
   * This process, as the lock file names it.
   * @default {{ pid: process.pid, host: os.hostname() }}
   */
  self?: { pid: number; host: string };
  /**
   * Whether a pid of this host is running.
   * @default {signal 0 through process.kill}
   */
  isAlive?: (pid: number) => boolean;
}

/** A held wave lock. */
export interface WaveLock {
  /** Removes the lock file if it is still this holder's. Never throws. */
  release(): Promise<void>;
}

/**
 * Takes wave `k`'s lock of this checkout, waiting (polling) up to `waitMs` while
 * a live process holds it. A lock whose holder's pid is gone on this host (or
 * is this process's own pid, reused) is stale and removed, under a short-lived marker so that two waiters never both
 * break it and remove each other's fresh lock.
 * @param options The folder, wave, bound, clock, log and stop check.
 * @returns The held lock; release it when the job is done.
 * @throws {InputError} When another run still holds it after `waitMs` (exit 2):
 * `another chant-wave run holds wave <k> in this checkout (pid <p>)`.
 * @throws {Error} Whatever `checkStop` throws, or when the folder is unwritable.
 */
export async function lockWave(options: LockWaveOptions): Promise<WaveLock> {
  const { dir, k, clock } = options;
  const self = options.self ?? { pid: process.pid, host: hostname() };
  const isAlive = options.isAlive ?? pidAlive;
  const path = join(dir, `wave-${k}.lock`);
  const mine: LockHolder = {
    ...self,
    since: new Date(clock.now()).toISOString(),
    nonce: randomBytes(8).toString("hex"),
  };
  await mkdir(dir, { recursive: true });
  const deadline = clock.now() + options.waitMs;
  let waiting = false;
  for (;;) {
    if (await createExclusive(path, `${JSON.stringify(mine)}\n`)) {
      return { release: () => releaseLock(path, mine.nonce) };
    }
    const holder = await readHolder(path);
    if (
      holder !== undefined && holder.host === self.host &&
      (holder.pid === self.pid || !isAlive(holder.pid))
    ) {
      await breakStale(path, holder.nonce, clock);
      continue;
    }
    if (holder === undefined && !await exists(path)) continue;
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

/** Publishes `text` at `path` only if nothing is there, never half-written. */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temp, text, { flag: "wx" });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * The lock file's holder; `undefined` when absent or not a lock file. Opened
 * without following a link and without blocking (a FIFO in its place).
 */
async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      const buffer = new Uint8Array(4096);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const text = new TextDecoder().decode(buffer.subarray(0, bytesRead));
      const value = JSON.parse(text) as Partial<LockHolder>;
      if (
        typeof value.pid === "number" && typeof value.host === "string" &&
        typeof value.nonce === "string" && typeof value.since === "string"
      ) {
        return value as LockHolder;
      }
    } finally {
      await handle.close();
    }
  } catch {
    // absent, or not ours to read: the caller waits
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

/**
 * Removes the stale lock holding `nonce`, under the marker `<lock>.break` so
 * that only one waiter breaks it; a marker older than a few seconds was left by
 * a crashed breaker and is removed.
 */
async function breakStale(
  path: string,
  nonce: string,
  clock: Clock,
): Promise<void> {
  const marker = `${path}.break`;
  if (!await createExclusive(marker, "")) {
    const age = await stat(marker).then(
      (s) => clock.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_BREAK_MS) await rm(marker, { force: true });
    await sleep(clock, POLL_MS);
    return;
  }
  try {
    if ((await readHolder(path))?.nonce === nonce) await rm(path);
  } finally {
    await rm(marker, { force: true });
  }
}

async function releaseLock(path: string, nonce: string): Promise<void> {
  try {
    if ((await readHolder(path))?.nonce === nonce) await rm(path);
  } catch {
    // a lock left behind is stale once this process is gone
  }
}

/** Whether `pid` runs on this host (a process of another user counts). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
