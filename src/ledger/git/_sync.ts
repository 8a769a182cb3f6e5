/**
 * The git ledger's refs and its view of the remote: the state one ledger keeps,
 * fetching the remote's branch (retrying while a sibling process holds a ref's
 * lock), the tip to read, moving refs forward by compare-and-swap, the retry
 * schedule (jittered exponential waits within a time budget), the one-line
 * errors for a stale lock and a budget spent; before every fetch after the
 * first, the check that the clone's git settings did not change
 * (`_settings.ts`). Publishing is `_publish.ts`'s job. Private to the git
 * ledger.
 * @module
 */

import { stat } from "node:fs/promises";
import type { Clock } from "../../clock.ts";
import { InputError, OutcomeError } from "../../errors.ts";
import { RUN_FAILED } from "../../exit_codes.ts";
import type { Git } from "../../git/git.ts";
import { isAncestor, readRefs, updateRef } from "../../git/git_plumbing.ts";
import { fetchRef } from "../../git/git_transport.ts";
import { blobText, type ObjectReader } from "./_objects.ts";
import { parseCounter, SEQ_PATH } from "./_order.ts";
import { localOnlyFiles } from "./_local.ts";
import type { RandomBytes } from "../../gate/random_hex.ts";
import { checkSettings } from "./_settings.ts";

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
  /** The clone's objects, each checked against its name when read. */
  objects: ObjectReader;
  clock: Clock;
  random: RandomBytes;
  log: (line: string) => void;
  /** Milliseconds a write (or a fetch) keeps retrying before giving up. */
  budgetMs: number;
  /** Attempts made before giving up even when the budget is spent. */
  minAttempts: number;
  /** The remote, once known to exist; `undefined` in local mode. */
  remote?: string;
  /** `refs/remotes/<remote>/chant/ledger`. */
  tracking?: string;
  /** The newest tip this process pushed or read; reads never go older. */
  lastKnown?: string;
  /** Tips seen on the remote: a local branch at one of them has nothing to send. */
  remoteTips: Set<string>;
  /** Notes already logged (each is logged once). */
  noted: Set<string>;
  /** Whether the remote-tracking ref exists (then fetches need no `--depth`). */
  fetchedBefore?: boolean;
  /** Fetch the tip once, for every read after ({@linkcode fetchLedger}). */
  fetchOnce: boolean;
  /** Whether this ledger fetched the tip already. */
  fetched?: boolean;
  /** The first fetch of a `fetchOnce` ledger, while it runs and after. */
  fetching?: Promise<void>;
  /**
   * The clone's git settings when the ledger was opened, with the state of
   * the files they come from; every fetch after the first and every push
   * checks them (`_settings.ts`).
   */
  settings?: string;
  /**
   * The tip {@linkcode currentTip} found after the last fetch, while nothing
   * was pushed since (`lastKnown` is still it): with `fetchOnce`, the refs are
   * not read again.
   */
  tipRead?: string;
}

/** Logs `line` once per ledger. */
export function noteOnce(ctx: LedgerContext, line: string): void {
  if (ctx.noted.has(line)) return;
  ctx.noted.add(line);
  ctx.log(line);
}

/** Waits `ms` milliseconds on the ledger's clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/** The longest single wait between two attempts. */
const MAX_WAIT_MS = 1_000;

/**
 * How long to wait before retry number `attempt` (1 for the first retry): a
 * random time ("full jitter") in [0, bound), where the bound doubles with each
 * retry from 50 ms, is at least as long as the attempt that just lost took (so
 * writers that collided spread out instead of colliding again), and at most
 * 1 s (a writer that lost often must not sleep while fresh writers win).
 */
function retryWait(
  ctx: LedgerContext,
  attempt: number,
  lastMs = 0,
): number {
  const [a, b] = ctx.random(2);
  const fraction = ((a << 8) | b) / 65536;
  const bound = Math.min(
    MAX_WAIT_MS,
    Math.max(50 * 2 ** Math.min(attempt - 1, 16), lastMs),
  );
  return Math.floor(fraction * bound);
}

/** What {@linkcode waitToRetry} needs to know about the attempts so far. */
export interface RetryState {
  /** The retry's number, from 1. */
  attempt: number;
  /** How long the lost attempt took. */
  lastMs: number;
  /** When the budget ends (the clock's milliseconds). */
  deadline: number;
  /** What failed, for the error: `cannot record in the ledger branch …`. */
  doing: string;
  /** Why the attempts failed, for the error. */
  why: string;
}

/**
 * Waits before another attempt, or gives up when the wait would end past the
 * deadline and at least `ctx.minAttempts` attempts were made (so a machine so
 * loaded that one attempt takes many seconds is not cut short after a few).
 * @param ctx The ledger.
 * @param state The attempts so far.
 * @throws {OutcomeError} Exit 1 when the budget is spent:
 * `<doing> within 120s (9 attempts): <why>; run it again`.
 */
export async function waitToRetry(
  ctx: LedgerContext,
  state: RetryState,
): Promise<void> {
  const wait = retryWait(ctx, state.attempt, state.lastMs);
  if (
    ctx.clock.now() + wait > state.deadline &&
    state.attempt >= ctx.minAttempts
  ) {
    throw new OutcomeError(
      RUN_FAILED,
      `${state.doing} within ${Math.round(ctx.budgetMs / 1000)}s ` +
        `(${state.attempt} attempt${state.attempt === 1 ? "" : "s"}): ` +
        `${state.why}; run it again`,
    );
  }
  await sleep(ctx.clock, wait);
}

/**
 * Fails with a clear message when `lockPath` has been there for a while; a
 * fresh lock of a running git passes (the caller retries).
 * @throws {InputError} Naming the lock file and what to do.
 */
export async function failIfStale(
  ctx: LedgerContext,
  lockPath: string | undefined,
): Promise<void> {
  if (lockPath === undefined) return;
  const since = await stat(lockPath).then((s) => s.mtimeMs, () => undefined);
  if (since === undefined) return;
  const age = ctx.clock.now() - since;
  if (age < STALE_LOCK_MS) return;
  throw new InputError(
    `cannot update the ledger branch ${LEDGER_BRANCH}: the lock file "${lockPath}" ` +
      `is in the way (${Math.round(age / 1000)}s old); if no git process is ` +
      `running in this repository, remove it and run again`,
  );
}

/** The remote's name, quoted, for messages. */
export function remoteName(ctx: LedgerContext): string {
  return `"${ctx.remote}"`;
}

/** `--depth` of a fetch of the whole history (git's own "unlimited"). */
const WHOLE_HISTORY = 2147483647;

/**
 * Fetches the remote's ledger branch into the remote-tracking ref, retrying while
 * another process of this clone holds the ref's lock, within the ledger's time
 * budget. Does nothing in local mode. A clone without the branch fetches only
 * its tip (`--depth 1`); one with it, only the commits since (records are
 * ordered by the numbers in the tip's tree, so no reader needs the branch's
 * history; `whole` fetches all of it, for the records only the local branch
 * holds).
 *
 * With `ctx.fetchOnce` (a command's ledger) the tip is fetched once and
 * every later read uses it: one snapshot, in which what reached the remote
 * since can only be missed, never forged. A write is a compare-and-swap push
 * on the remote's tip and a lost race fetches `again`, so a claim, written
 * then read back, still sees every revoke that landed before it.
 * @param ctx The ledger.
 * @param whole Fetch the branch's whole history.
 * @param again Fetch even when this ledger fetched already.
 * @throws {InputError} When the remote cannot be read or a lock is stale.
 * @throws {OutcomeError} Exit 1 when the lock stays busy past the budget.
 */
export async function fetchLedger(
  ctx: LedgerContext,
  whole = false,
  again = false,
): Promise<void> {
  if (ctx.remote === undefined || ctx.tracking === undefined) return;
  if (ctx.fetchOnce && !whole && !again) {
    if (ctx.fetched) return;
    // Fetched once, however many reads ask at the same time.
    ctx.fetching ??= fetchFromRemote(ctx, false);
    return await ctx.fetching;
  }
  await fetchFromRemote(ctx, whole);
}

/** {@linkcode fetchLedger}'s fetch, whatever fetched before. */
async function fetchFromRemote(
  ctx: LedgerContext,
  whole: boolean,
): Promise<void> {
  if (ctx.remote === undefined || ctx.tracking === undefined) return;
  ctx.tipRead = undefined;
  // With the tip already here, a plain fetch sends only what is new; only a
  // clone without it asks for the tip alone (`--depth 1` would send it again).
  // (Asked of the command's long-lived cat-file: no process of its own.)
  ctx.fetchedBefore ??=
    await ctx.git.resolveCommit(ctx.tracking, ctx.cwd) !== undefined;
  const depth = whole
    ? `--depth=${WHOLE_HISTORY}` as const
    : ctx.fetchedBefore
    ? undefined
    : "--depth=1" as const;
  if (ctx.fetched) {
    await checkSettings(ctx, `fetch the ledger branch ${LEDGER_BRANCH}`);
  }
  const deadline = ctx.clock.now() + ctx.budgetMs;
  for (let attempt = 1;; attempt++) {
    const got = await fetchRef(
      ctx.git,
      ctx.cwd,
      ctx.remote,
      LEDGER_REF,
      ctx.tracking,
      depth,
    );
    if (got.ok) ctx.fetchedBefore = true;
    if (got.ok || got.reason === "absent") {
      ctx.fetched = true;
      return;
    }
    if (got.reason === "failed") {
      throw new InputError(
        `cannot fetch the ledger branch ${LEDGER_BRANCH} from ${
          remoteName(ctx)
        }: ${got.detail}; check the remote's URL and that the job may read it`,
      );
    }
    await failIfStale(ctx, got.lockPath);
    await waitToRetry(ctx, {
      attempt,
      lastMs: 0,
      deadline,
      doing: `cannot fetch the ledger branch ${LEDGER_BRANCH} from ${
        remoteName(ctx)
      }`,
      why: got.detail,
    });
  }
}

/**
 * The newer of two tips of one branch (either may be absent): the one whose
 * counter is higher (their history may be cut by shallow fetches), else by
 * ancestry on a branch without counters.
 */
async function newer(
  ctx: LedgerContext,
  a: string | undefined,
  b: string | undefined,
): Promise<string | undefined> {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  const [na, nb] = await Promise.all(
    [a, b].map(async (tip) =>
      parseCounter(blobText((await ctx.objects.at(tip, [SEQ_PATH]))[0]))
    ),
  );
  if (na !== undefined && nb !== undefined) return nb > na ? b : a;
  return await isAncestor(ctx.git, ctx.cwd, a, b).catch(() => true) ? b : a;
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
  const read = ctx.tipRead;
  if (read !== undefined && ctx.fetchOnce && ctx.lastKnown === read) {
    return read;
  }
  const refs = await readRefs(ctx.git, ctx.cwd, [
    LEDGER_REF,
    ...(ctx.tracking ? [ctx.tracking] : []),
  ]);
  const local = refs.get(LEDGER_REF);
  if (ctx.tracking === undefined) return local;
  const tip = await newer(ctx, refs.get(ctx.tracking), ctx.lastKnown);
  ctx.lastKnown = tip;
  if (tip === undefined || await follow(ctx, LEDGER_REF, local, tip)) {
    ctx.tipRead = tip;
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
 * fast-forward (known when `from` is `tip`'s `parent`), or a branch with no
 * record that never reached the remote ({@linkcode localOnlyFiles}).
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
    !await isAncestor(git, cwd, from, tip).catch(() => false) &&
    (await localOnlyFiles(ctx, tip, from, () => fetchLedger(ctx, true)))
        .length > 0
  ) {
    return false;
  }
  await updateRef(git, cwd, ref, tip, from, "chant-wave: follow the remote");
  return true;
}
