/**
 * The git ledger's refs and its view of the remote: the state one ledger keeps,
 * fetching the remote's branch (retrying while a sibling process holds a ref's
 * lock), the tip to read, moving refs forward by compare-and-swap, the retry
 * backoff, and the one-line error for a stale lock. Publishing new records is
 * `_git_ledger_publish.ts`'s job. Private to the git ledger.
 * @module
 */

import { stat } from "node:fs/promises";
import type { Clock } from "../clock.ts";
import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { isAncestor, readRefs, updateRef } from "../git/git_plumbing.ts";
import { fetchRef } from "../git/git_transport.ts";
import { addedFiles } from "./_git_ledger_tree.ts";
import type { RandomBytes } from "./random_hex.ts";

/** The ledger branch's short name. */
export const LEDGER_BRANCH = "chant/ledger";
/** The ledger branch's full ref, locally and on the remote. */
export const LEDGER_REF = "refs/heads/chant/ledger";
/** A lock file older than this is stale (git holds its locks for milliseconds). */
export const STALE_LOCK_MS = 10_000;

/** The state one git ledger keeps between calls. */
export interface LedgerContext {
  git: Git;
  cwd: string;
  clock: Clock;
  random: RandomBytes;
  log: (line: string) => void;
  /** Publish attempts before giving up. */
  attempts: number;
  /** The remote, once known to exist; `undefined` in local mode. */
  remote?: string;
  /** `refs/remotes/<remote>/chant/ledger`. */
  tracking?: string;
  /** The newest tip this process pushed or read; reads never go older. */
  lastKnown?: string;
  /** Notes already logged (each is logged once). */
  noted: Set<string>;
}

/** Logs `line` once per ledger. */
export function noteOnce(ctx: LedgerContext, line: string): void {
  if (ctx.noted.has(line)) return;
  ctx.noted.add(line);
  ctx.log(line);
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/**
 * Waits a random time ("full jitter") in [0, bound): the bound doubles with each
 * attempt from 50 ms, is at least twice as long as the attempt that just lost
 * took (so writers that collided spread out instead of colliding again), and at
 * most 5 s.
 */
export function backoff(
  ctx: LedgerContext,
  attempt: number,
  lastMs = 0,
): Promise<void> {
  const [a, b] = ctx.random(2);
  const fraction = ((a << 8) | b) / 65536;
  const bound = Math.min(5000, Math.max(50 * 2 ** (attempt - 1), 2 * lastMs));
  return sleep(ctx.clock, Math.floor(fraction * bound));
}

/**
 * Fails with a clear message when `lockPath` has been there for a while (or the
 * attempts are `exhausted`); a fresh lock of a running git passes.
 * @throws {InputError} Naming the lock file and what to do.
 */
export async function failIfStale(
  ctx: LedgerContext,
  lockPath: string | undefined,
  exhausted: boolean,
): Promise<void> {
  if (lockPath === undefined) return;
  const since = await stat(lockPath).then((s) => s.mtimeMs, () => undefined);
  if (since === undefined) return;
  const age = ctx.clock.now() - since;
  if (age < STALE_LOCK_MS && !exhausted) return;
  throw new InputError(
    `cannot update the ledger branch ${LEDGER_BRANCH}: the lock file "${lockPath}" ` +
      `is in the way (${Math.round(age / 1000)}s old); if no git process is ` +
      `running in this repository, remove it and run again`,
  );
}

export function remoteName(ctx: LedgerContext): string {
  return `"${ctx.remote}"`;
}

/**
 * Fetches the remote's ledger branch into the remote-tracking ref, retrying while
 * another process of this clone holds the ref's lock. Does nothing in local mode.
 * @throws {InputError} When the remote cannot be read or a lock is stale.
 */
export async function fetchLedger(ctx: LedgerContext): Promise<void> {
  if (ctx.remote === undefined || ctx.tracking === undefined) return;
  for (let attempt = 1;; attempt++) {
    const got = await fetchRef(
      ctx.git,
      ctx.cwd,
      ctx.remote,
      LEDGER_REF,
      ctx.tracking,
    );
    if (got.ok || got.reason === "absent") return;
    if (got.reason === "failed") {
      throw new InputError(
        `cannot fetch the ledger branch ${LEDGER_BRANCH} from ${
          remoteName(ctx)
        }: ${got.detail}; check the remote's URL and that the job may read it`,
      );
    }
    const exhausted = attempt >= ctx.attempts;
    await failIfStale(ctx, got.lockPath, exhausted);
    if (exhausted) {
      throw new InputError(
        `cannot fetch the ledger branch ${LEDGER_BRANCH} from ${
          remoteName(ctx)
        }: ${got.detail}`,
      );
    }
    await backoff(ctx, attempt);
  }
}

/** The newer of two tips of one linear history (either may be absent). */
async function newer(
  ctx: LedgerContext,
  a: string | undefined,
  b: string | undefined,
): Promise<string | undefined> {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  return await isAncestor(ctx.git, ctx.cwd, a, b) ? b : a;
}

/**
 * Finds the tip to read: in local mode the local branch; with a remote, the
 * remote's branch as just fetched (never older than a tip this process already
 * pushed or read), and the local branch fast-forwarded to it when it can be.
 * @returns The tip, or `undefined` when there is no ledger branch yet.
 * @throws {InputError} When fetching fails.
 */
export async function currentTip(
  ctx: LedgerContext,
): Promise<string | undefined> {
  await fetchLedger(ctx);
  const refs = await readRefs(ctx.git, ctx.cwd, [
    LEDGER_REF,
    ...(ctx.tracking ? [ctx.tracking] : []),
  ]);
  const local = refs.get(LEDGER_REF);
  if (ctx.tracking === undefined) return local;
  const tip = await newer(ctx, refs.get(ctx.tracking), ctx.lastKnown);
  ctx.lastKnown = tip;
  if (tip === undefined || await follow(ctx, LEDGER_REF, local, tip)) {
    return tip;
  }
  noteOnce(
    ctx,
    `git ledger: the local branch ${LEDGER_BRANCH} has records that are not on ` +
      `${
        remoteName(ctx)
      }; the next write or "chant-wave ledger push" sends them`,
  );
  return tip;
}

/**
 * Moves `ref` from `from` to `tip` by compare-and-swap when it loses nothing: a
 * fast-forward (known when `from` is `tip`'s `parent`), or a branch whose
 * records `tip` all has.
 * @returns `false` when `ref` holds records `tip` lacks and was left alone.
 */
export async function follow(
  ctx: LedgerContext,
  ref: string,
  from: string | undefined,
  tip: string,
  parent?: string,
): Promise<boolean> {
  const { git, cwd } = ctx;
  if (from === tip) return true;
  if (
    from !== undefined && from !== parent &&
    !await isAncestor(git, cwd, from, tip) &&
    (await addedFiles(git, cwd, tip, from)).length > 0
  ) {
    return false;
  }
  await updateRef(git, cwd, ref, tip, from, "chant-wave: follow the remote");
  return true;
}
