/**
 * The git-backed ledger (SPEC.md §5.4): the directory ledger's files
 * (`gates/<name>/<gate>/<file>.json`) kept on the branch `chant/ledger`, shared
 * through a remote so every runner and approver sees the same records. Writes use
 * plumbing only and never touch the user's work tree, index or HEAD. The store
 * (`LedgerStore`) and the ledger over it, with `pull` and `push`; it decides
 * nothing about gates.
 *
 * Refs: `refs/remotes/<remote>/chant/ledger` is the remote's branch as last
 * fetched, and what is read. `refs/heads/chant/ledger` is the local branch: it
 * follows the remote's (fast-forwarded on every read and write) and, with no
 * remote, is the only copy. Records the local branch holds that the remote lacks
 * (written while there was no remote) are carried onto the remote's tip by the
 * next write or by `push()`.
 * @module
 */

import type { Clock } from "../../clock.ts";
import { InputError } from "../../errors.ts";
import type { Git } from "../../git/git.ts";
import { parsePlanSet } from "../../gate/plan_set_file.ts";
import { checkLedgerSegment } from "../../gate/record_name.ts";
import { type RandomBytes, webRandomBytes } from "../../gate/random_hex.ts";
import type { ClaimRecord } from "../../gate/records.ts";
import { type Ledger, ledgerOver } from "../ledger.ts";
import type {
  GateListing,
  GateRef,
  LedgerStore,
  ListOptions,
} from "../ledger_store.ts";
import { foldGit } from "./_fold.ts";
import { checkClaim } from "./_history.ts";
import { objectReader } from "./_objects.ts";
import {
  ledgerWrites,
  pullBranch,
  pushBranch,
  type SyncReport,
} from "./_publish.ts";
import { listGatesAt, readSetsAt } from "./_read.ts";
import { gateReads, type GitMark } from "./_reads.ts";
import {
  commonGitDir,
  DEFAULT_LEDGER_REMOTE,
  resolveRemote,
  withCloneLock,
} from "./_remote.ts";
import {
  currentTip,
  fetchLedger,
  LEDGER_BRANCH,
  type LedgerContext,
} from "./_sync.ts";

export { LEDGER_BRANCH };

export { DEFAULT_LEDGER_REMOTE };

/** How long a write keeps retrying against other writers: 120 s. */
export const DEFAULT_BUDGET_MS = 120_000;

/** Attempts a write makes before giving up, however long they took: 40. */
export const DEFAULT_MIN_ATTEMPTS = 40;

/** A remote's name as `--ledger git:<remote>` accepts it. */
export const REMOTE_NAME: RegExp = /^[A-Za-z0-9_][A-Za-z0-9._\/-]*$/;

/** Options of {@linkcode gitLedger}. */
export interface GitLedgerOptions {
  /** The git seam. */
  git: Git;
  /** A directory inside the repository (the checkout). */
  cwd: string;
  /**
   * The remote to share the branch through. Named, it must exist; omitted,
   * `origin` is used when it exists, and with no remote at all the records stay
   * on the local branch.
   */
  remote?: string;
  /** Times the retry backoff (its `setTimeout`) and lock ages. */
  clock: Clock;
  /**
   * The jitter's random source.
   * @default {webRandomBytes}
   */
  random?: RandomBytes;
  /** Receives notes for the human log, one line each, without a newline. */
  log: (line: string) => void;
  /**
   * How long (milliseconds) a write keeps retrying while other writers push
   * first, before it gives up (exit 1).
   * @default {120000}
   */
  budgetMs?: number;
  /**
   * Attempts a write makes before giving up, even once `budgetMs` is spent.
   * @default {40}
   */
  minAttempts?: number;
  /**
   * Fetch the remote's tip once, at the first read, and read every later
   * call at it (a write still pushes on the remote's newest tip): for a
   * ledger that lives for one command. Otherwise every read fetches.
   * @default {false}
   */
  fetchOnce?: boolean;
  /**
   * With `fetchOnce`: start that fetch as the ledger opens, not at the first
   * read (a command's ledger, read moments later: the fetch then runs while
   * the command reads git and its spec).
   * @default {false}
   */
  fetchAtOpen?: boolean;
}

export type { SyncReport };

/** The git ledger: a ledger plus syncing by hand. */
export interface GitLedger extends Ledger {
  /** Always `chant/ledger`. */
  readonly branch: string;
  /**
   * Fetches the remote's branch and fast-forwards the local branch to it.
   * @throws {InputError} With no remote, or when the remote cannot be read.
   */
  pull(): Promise<SyncReport>;
  /**
   * Sends the local branch's records the remote lacks (see `publish` for how).
   * @throws {InputError} With no remote, or when the remote refuses.
   */
  push(): Promise<SyncReport>;
}

const GIT_LEDGER = Symbol("chant-wave git ledger");

/**
 * Tells whether a ledger is the git ledger (and so can `pull` and `push`).
 * @param ledger Any ledger.
 * @returns `true` for a ledger made by {@linkcode gitLedger}.
 */
export function isGitLedger(ledger: Ledger): ledger is GitLedger {
  return (ledger as { [GIT_LEDGER]?: boolean })[GIT_LEDGER] === true;
}

/**
 * Opens the git ledger of the repository containing `cwd`. Nothing runs until the
 * first call; the first call finds the remote (and logs once when there is none).
 * @param options The git seam, the checkout, the remote, clock, randomness, log.
 * @returns The ledger.
 * @throws {InputError} When the remote name is not a valid name.
 * @example
 * ```ts
 * const ledger = gitLedger({ git, cwd, clock: realClock, log: console.error });
 * await ledger.write(record);
 * const { records } = await ledger.readGate("tf", "tf-wave-2");
 * ```
 */
export function gitLedger(options: GitLedgerOptions): GitLedger {
  const { store, ctx, sync } = gitStore(options);
  return {
    ...ledgerOver(store, { clock: ctx.clock, random: ctx.random }),
    [GIT_LEDGER]: true,
    branch: LEDGER_BRANCH,
    pull: sync.pull,
    push: sync.push,
  } as GitLedger;
}

/**
 * The git ledger's store (see the module), its state, and syncing by hand.
 * @throws {InputError} When the remote name is not a valid name.
 */
function gitStore(options: GitLedgerOptions): {
  store: LedgerStore;
  ctx: LedgerContext;
  sync: Pick<GitLedger, "pull" | "push">;
} {
  const { remote } = options;
  if (remote !== undefined && !REMOTE_NAME.test(remote)) {
    throw new InputError(`ledger "git:${remote}": not a valid remote name`);
  }
  const ctx: LedgerContext = {
    git: options.git,
    cwd: options.cwd,
    objects: objectReader(options.git, options.cwd),
    clock: options.clock,
    random: options.random ?? webRandomBytes,
    log: options.log,
    budgetMs: Math.max(0, options.budgetMs ?? DEFAULT_BUDGET_MS),
    minAttempts: Math.max(1, options.minAttempts ?? DEFAULT_MIN_ATTEMPTS),
    remoteTips: new Set(),
    noted: new Set(),
    fetchOnce: options.fetchOnce ?? false,
  };
  let ready: Promise<void> | undefined;
  /** Whether the remote was looked for (then `ctx.remote` says if it is there). */
  let opened = false;
  const open = () =>
    ready ??= resolveRemote(ctx, remote).then(() => {
      opened = true;
    });
  let common: Promise<string | undefined> | undefined;
  const gitDir = () => common ??= commonGitDir(ctx.cwd);
  /** The ids of the records this store published. */
  const published = new Set<string>();
  let marked: Promise<GitMark> | undefined;
  /** The tip the last read fetched: plan sets are read there, without fetching again. */
  let lastTip: Promise<string | undefined> | undefined;
  /** A read of the tip under way: reads that ask meanwhile share it. */
  let reading: Promise<string | undefined> | undefined;
  const fetchTip = () => {
    if (reading === undefined) {
      const started = (async () => (await open(), currentTip(ctx)))();
      reading = started;
      const done = () => {
        if (reading === started) reading = undefined;
      };
      started.then(done, done);
    }
    return lastTip = reading;
  };
  // A command's ledger starts fetching as it opens: the job's first read of
  // it, after what it reads of git, finds the tip here already.
  if (ctx.fetchOnce && options.fetchAtOpen) {
    open().then(() => fetchLedger(ctx)).catch(() => {});
  }
  const reads = gateReads(ctx, { fetchTip, lastTip: () => lastTip });
  const gatePath = (name: string, gate: string) =>
    `gates/${checkLedgerSegment("name", name)}/${
      checkLedgerSegment("gate", gate)
    }`;
  /** The plan sets of a gate at the tip last read (fetching only when none was). */
  const readSets = async (ref: GateRef, digests: readonly string[]) => {
    const dir = `${gatePath(ref.name, ref.gate)}/sets`;
    const tip = await (lastTip ?? fetchTip());
    const known = reads.setsAt(tip, ref.name, ref.gate);
    return await readSetsAt(
      ctx.objects,
      tip,
      dir,
      digests,
      LEDGER_BRANCH,
      known,
    );
  };
  const writes = ledgerWrites(ctx, {
    open,
    gitDir,
    gatePath,
    async hasPlanSet(name, gate, digest) {
      const found = (await readSets({ name, gate }, [digest])).get(digest);
      return found !== undefined &&
        parsePlanSet(found.text, digest, found.source) !== undefined;
    },
  });
  const list = (
    scope: GateRef | { name?: string },
    options?: ListOptions,
  ): Promise<GateRef[] | GateListing> => {
    try {
      if (options === undefined) {
        if (scope.name !== undefined) checkLedgerSegment("name", scope.name);
        return fetchTip().then((tip) =>
          listGatesAt(ctx.objects, tip, scope.name)
        );
      }
      const ref = scope as GateRef;
      gatePath(ref.name, ref.gate);
      return reads.list(ref, options);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  const store: LedgerStore = {
    describe: () =>
      opened && ctx.remote === undefined
        ? `git ledger ${LEDGER_BRANCH} (local, no remote)`
        : `git ledger ${LEDGER_BRANCH} of "${remote ?? DEFAULT_LEDGER_REMOTE}"`,

    /**
     * Marks the tip this store last read (fetching only when it read none):
     * the first call's, for every call. A tip read earlier in the job is at
     * or before the job's first command of the change, so records that
     * reached the branch since count as late: stricter, never looser.
     */
    mark: () => marked ??= reads.mark(),

    /**
     * Fetches first (with a remote), then lists `gates/<name>/<gate>` trees;
     * or reads only the gate's tree (with `live`, only its records from the
     * newest revoke on), or nothing when it read the gate whole at that tip
     * already. Records come oldest first in the order they reached the
     * branch (by sequence number), not by timestamp. With `asOf`, a record
     * numbered at or past the mark's counter, or not at the mark's tip with
     * the same blob, arrived late. With `history`, the records the gate's
     * summaries folded too (fetching those commits alone when the clone lacks
     * them).
     */
    list: list as LedgerStore["list"],

    /**
     * Reads every set's blob at the tip last read (fetching only when none was:
     * a set is written before any record that names its digest) in one
     * `cat-file --batch`, each object checked.
     */
    read: readSets,

    /**
     * Atomic, never overwriting and losing nothing under concurrent writers on
     * any number of clones: the records' blobs and a commit adding them on the
     * remote's tip are written by one `git fast-import` (no index, no ref), the
     * commit is pushed without force, and the local branch follows by
     * compare-and-swap. A push rejected because another writer was first
     * fetches, rebuilds on the new tip and retries with jittered exponential
     * backoff for up to `budgetMs` and at least `minAttempts` attempts (then
     * exit 1). A push refused for another reason records nothing. Processes
     * writing from the same clone take turns (a lock file in its git folder),
     * so they do not race each other. Publishes of one store that overlap in
     * time share one commit and one push (group commit); they succeed or fail
     * together. The branch's order is the order pushes won, so of claims of
     * one plan and attempt the first wins; after a claim, the gate's history
     * since its approval was numbered is checked (`_history.ts`): no record
     * that could have spent it was removed or renumbered, and it passes
     * through the tip of the job's mark.
     */
    async publish(items) {
      const claims = new Map<string, ClaimRecord>();
      for (const item of items) {
        if ("claim" in item) claims.set(item.claim.approvalId, item.claim);
        const record = "claim" in item
          ? item.claim
          : "record" in item
          ? item.record
          : undefined;
        if (record) published.add(record.id);
      }
      await writes(
        items.map((item) =>
          "claim" in item ? { record: item.claim, text: item.text } : item
        ),
      );
      for (const claim of claims.values()) {
        await checkClaim(ctx, {
          list: reads.list,
          locate: reads.locate,
          markTip: async () => marked && (await marked).tip,
          written: published,
        }, claim);
      }
    },

    /**
     * Fetches first, then folds in one commit pushed like any write (see
     * `_fold.ts`), taking turns with this clone's other writers.
     */
    async fold(scope, planner) {
      if (scope.name !== undefined) checkLedgerSegment("name", scope.name);
      if (scope.gate !== undefined) checkLedgerSegment("gate", scope.gate);
      await fetchTip();
      return await withCloneLock(
        ctx,
        await gitDir(),
        () => foldGit(ctx, scope, planner),
      );
    },
  };
  return {
    store,
    ctx,
    sync: {
      pull: () => pullBranch(ctx, { open, fetchTip }),
      push: () => pushBranch(ctx, { open, gitDir }),
    },
  };
}
