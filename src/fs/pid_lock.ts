/**
 * A lock file that names its holder: created exclusively (written to a temporary
 * name, then hard-linked into place, so it is never seen half-written), holding
 * the holder's pid, host, start time and a nonce; stale once that pid is gone on
 * this host. One try at a time: callers decide how long to wait and what to say.
 * It knows nothing of what the lock guards.
 * @module
 */

import { JsonReader, parseJson } from "../input/json_reader.ts";
import { ShapeError } from "../input/shape_error.ts";
import { constants } from "node:fs";
import { link, open, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import process from "node:process";
import type { Clock } from "../clock.ts";

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

/** Options of {@linkcode tryPidLock}. */
export interface PidLockOptions {
  /** The lock file; its folder must exist. */
  path: string;
  /** Dates the holding and ages a breaker's marker. */
  clock: Clock;
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

/** What one try got: the lock, or who holds it. */
export type PidLockTry =
  | { ok: true; release: () => Promise<void> }
  /** `holder` is absent when the file is not a lock file this code wrote. */
  | { ok: false; holder?: LockHolder };

/**
 * Tries once to take the lock. A lock whose holder's pid is gone on this host
 * (or is this process's own pid, reused) is stale: it is removed, under a
 * short-lived marker (`<path>.break`) so that two processes never both break
 * it and remove each other's fresh lock, and the take is tried again.
 * @param options The file, clock and (for tests) this process and its probe.
 * @returns The lock with its `release` (which never throws and removes the file
 * only while it is still this holding's), or the live holder.
 * @throws {Error} When the folder cannot be written.
 */
export async function tryPidLock(options: PidLockOptions): Promise<PidLockTry> {
  const { path, clock } = options;
  const self = options.self ?? { pid: process.pid, host: hostname() };
  const isAlive = options.isAlive ?? pidAlive;
  const mine: LockHolder = {
    ...self,
    since: new Date(clock.now()).toISOString(),
    nonce: crypto.randomUUID(),
  };
  for (let tries = 0; tries < 3; tries++) {
    if (await createExclusive(path, `${JSON.stringify(mine)}\n`)) {
      return { ok: true, release: () => releaseLock(path, mine.nonce) };
    }
    const holder = await readHolder(path);
    if (holder === undefined) {
      if (await exists(path)) return { ok: false };
      continue;
    }
    const stale = holder.host === self.host &&
      (holder.pid === self.pid || !isAlive(holder.pid));
    if (!stale) return { ok: false, holder };
    await breakStale(path, holder.nonce, clock);
  }
  const holder = await readHolder(path);
  return holder ? { ok: false, holder } : { ok: false };
}

/** Publishes `text` at `path` only if nothing is there, never half-written. */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${
    crypto.randomUUID().replaceAll("-", "").slice(0, 12)
  }.tmp`;
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
  let text: string;
  try {
    const handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      const buffer = new Uint8Array(4096);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      text = new TextDecoder().decode(buffer.subarray(0, bytesRead));
    } finally {
      await handle.close();
    }
  } catch {
    return undefined; // absent, or not ours to read: the caller waits
  }
  try {
    const holder = new JsonReader(parseJson(text)).object();
    return {
      pid: holder.get("pid").integer(),
      host: holder.get("host").string(),
      since: holder.get("since").string(),
      nonce: holder.get("nonce").string(),
    };
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return undefined; // half written, or not a lock file: the caller waits
  }
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

/**
 * Removes the stale lock holding `nonce`, under the marker `<lock>.break` so
 * that only one process breaks it; a marker older than a few seconds was left
 * by a crashed breaker and is removed.
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
