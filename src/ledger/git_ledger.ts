/**
 * The git-backed ledger (SPEC.md §5.4): the directory ledger's files
 * (`gates/<name>/<gate>/<file>.json`) kept on the branch `chant/ledger`, shared
 * through a remote so every runner and approver sees the same records. Writes use
 * plumbing only and never touch the user's work tree, index or HEAD. It implements
 * `LedgerStore` and decides nothing about gates.
 *
 * Refs: `refs/remotes/<remote>/chant/ledger` is the remote's branch as last
 * fetched, and what is read. `refs/heads/chant/ledger` is the local branch: it
 * follows the remote's (fast-forwarded on every read and write) and, with no
 * remote, is the only copy. Records the local branch holds that the remote lacks
 * (written while there was no remote) are carried onto the remote's tip by the
 * next write or by `push()`.
 * @module
 */

import type { Clock } from "../clock.ts";
import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { compactGit } from "./_git_ledger_compact.ts";
import { claimChecked } from "./_git_ledger_claim.ts";
import { commonGitDir, withCloneLock } from "./_git_ledger_lock.ts";
import { type GitMark, readSetsAt } from "./_git_ledger_mark.ts";
import { legacyOrder } from "./_git_ledger_order.ts";
import { listGatesAt } from "./_git_ledger_read.ts";
import { countingApprovals } from "../gate/decide_gate.ts";
import { gateReads } from "./_git_ledger_reads.ts";
import { DEFAULT_LEDGER_REMOTE, resolveRemote } from "./_git_ledger_remote.ts";
import {
  currentTip,
  fetchLedger,
  LEDGER_BRANCH,
  type LedgerContext,
} from "./_git_ledger_sync.ts";
import { objectReader } from "./_git_ledger_verified.ts";
import { ledgerWrites } from "./_git_ledger_writes.ts";
import {
  pullBranch,
  pushBranch,
  type SyncReport,
} from "./_git_ledger_by_hand.ts";
import type { GateRef, LedgerStore } from "./ledger_store.ts";
import { type RandomBytes, webRandomBytes } from "../gate/random_hex.ts";
import { checkLedgerSegment } from "../gate/record_name.ts";

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

/** The git ledger: a `LedgerStore` plus syncing by hand. */
export interface GitLedger extends LedgerStore {
  /** Always `chant/ledger`. */
  readonly branch: string;
  /**
   * Fetches the remote's branch and fast-forwards the local branch to it.
   * @throws {InputError} With no remote, or when the remote cannot be read.
   */
  pull(): Promise<SyncReport>;
  /**
   * Sends the local branch's records the remote lacks (see `write` for how).
   * @throws {InputError} With no remote, or when the remote refuses.
   */
  push(): Promise<SyncReport>;
}

const GIT_LEDGER = Symbol("chant-wave git ledger");

/**
 * Tells whether a store is the git ledger (and so can `pull` and `push`).
 * @param store Any store.
 * @returns `true` for a store made by {@linkcode gitLedger}.
 */
export function isGitLedger(store: LedgerStore): store is GitLedger {
  return (store as { [GIT_LEDGER]?: boolean })[GIT_LEDGER] === true;
}

/**
 * Opens the git ledger of the repository containing `cwd`. Nothing runs until the
 * first call; the first call finds the remote (and logs once when there is none).
 * @param options The git seam, the checkout, the remote, clock, randomness, log.
 * @returns The store.
 * @throws {InputError} When the remote name is not a valid name.
 * @example
 * ```ts
 * const ledger = gitLedger({ git, cwd, clock: realClock, log: console.error });
 * await ledger.write(record);
 * const { records } = await ledger.readGate("tf", "tf-wave-2");
 * ```
 */
export function gitLedger(options: GitLedgerOptions): GitLedger {
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
  const writes = ledgerWrites(ctx, {
    open,
    gitDir,
    gatePath: (name: string, gate: string) => gatePath(name, gate),
    hasPlanSet: async (name, gate, digest) =>
      await store.readPlanSet(name, gate, digest) !== undefined,
  });
  const { written } = writes;
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
  /** The order of a branch written before numbers: its whole history, fetched. */
  const legacy = async (tip: string, dir: string) => {
    await fetchLedger(ctx, true);
    return await legacyOrder(ctx.git, ctx.cwd, tip, dir);
  };
  const reads = gateReads(ctx, {
    fetchTip,
    lastTip: () => lastTip,
    legacy,
    written,
  });
  const gatePath = (name: string, gate: string) =>
    `gates/${checkLedgerSegment("name", name)}/${
      checkLedgerSegment("gate", gate)
    }`;

  const store: GitLedger = {
    [GIT_LEDGER]: true,
    branch: LEDGER_BRANCH,

    describe: () =>
      opened && ctx.remote === undefined
        ? `git ledger ${LEDGER_BRANCH} (local, no remote)`
        : `git ledger ${LEDGER_BRANCH} of "${remote ?? DEFAULT_LEDGER_REMOTE}"`,

    /**
     * Fetches the branch's tip first (with a remote), then reads only the gate's
     * tree (with `live`, only its records from the newest revoke on), or
     * nothing when it read the gate whole at that tip already. Records come
     * oldest first in the order they reached the branch (by sequence number),
     * not by timestamp. With `asOf`, a record that reached the branch after the
     * mark (`_git_ledger_mark.ts`) does not count when it loosens, unless this
     * store wrote it.
     */
    readGate: (name, gate, options) => {
      try {
        gatePath(name, gate);
      } catch (error) {
        return Promise.reject(error);
      }
      return reads.readGate(name, gate, options);
    },

    /**
     * Marks the tip this store last read (fetching only when it read none):
     * the first call's, for every call. A tip read earlier in the job is at
     * or before the job's first command of the change, so records that
     * reached the branch since count as late: stricter, never looser.
     */
    mark: () => marked ??= reads.mark(),

    /**
     * Atomic, never overwriting and losing nothing under concurrent writers on
     * any number of clones: the record's blob and a commit adding it on the
     * remote's tip are written by one `git fast-import` (no index, no ref), the
     * commit is pushed without force, and the local branch follows by
     * compare-and-swap. A push rejected because another writer was first
     * fetches, rebuilds on the new tip and retries with jittered exponential
     * backoff for up to `budgetMs` and at least `minAttempts` attempts (then
     * exit 1). A push refused for another
     * reason records nothing. Processes writing from the same clone take turns
     * (a lock file in its git folder), so they do not race each other.
     * Writes of one store that overlap in time share one commit and one push
     * (group commit); they succeed or fail together.
     */
    write: writes.write,

    /**
     * Writes the claim and reads the gate back: the branch's order is the order
     * pushes won, so of claims of one plan and attempt the first wins. Then the
     * gate's history since the approval was numbered is checked
     * (`_git_ledger_history.ts`): no record that could have spent it was
     * removed or renumbered, and it passes through the tip of the job's mark.
     */
    claimRuns: (claim) =>
      claimChecked(ctx, {
        store,
        locate: reads.locate,
        markTip: async () => marked && (await marked).tip,
        written,
      }, claim),

    /**
     * Adds `gates/<name>/<gate>/sets/<hex>.json` unless the branch has a plan set
     * of the digest already (its pairs are the same; its summaries may differ).
     * The set goes again with every record this store writes that names its
     * digest, added unless the tip has it: so compaction folding it meanwhile
     * leaves no pending fact or approval without its plans.
     */
    writePlanSet: writes.writePlanSet,

    /**
     * Reads the gate from its newest revoke on and the plan sets of its
     * counting approvals, kept by tip: the decision's reads at the same tip
     * find them, objects included, and start no git.
     */
    async readAhead(name, gate, options = {}) {
      const { records } = await reads.readGate(name, gate, {
        ...options,
        live: true,
      });
      const digests = new Set(
        countingApprovals(records).map((approval) => approval.planDigest),
      );
      await store.readPlanSets(name, gate, [...digests]);
    },

    /** Reads the set's blob at the tip last read (fetching only when none was), checked. */
    async readPlanSet(name, gate, digest) {
      return (await store.readPlanSets(name, gate, [digest])).get(digest);
    },

    /**
     * Reads every set's blob at the tip last read (fetching only when none was:
     * a set is written before any record that names its digest) in one
     * `cat-file --batch`, each checked.
     */
    async readPlanSets(name, gate, digests) {
      const dir = `${gatePath(name, gate)}/sets`;
      const tip = await (lastTip ?? fetchTip());
      const known = reads.setsAt(tip, name, gate);
      return await readSetsAt(
        ctx.objects,
        tip,
        dir,
        digests,
        LEDGER_BRANCH,
        known,
      );
    },

    /** Fetches first (with a remote), then lists `gates/<name>/<gate>` trees. */
    async listGates(name?: string): Promise<GateRef[]> {
      if (name !== undefined) checkLedgerSegment("name", name);
      const tip = await fetchTip();
      return await listGatesAt(ctx.git, ctx.cwd, tip, name);
    },

    /**
     * Fetches first, then folds in one commit pushed like any write (see
     * `_git_ledger_compact.ts`), taking turns with this clone's other writers.
     */
    async compact(options = {}) {
      if (options.name !== undefined) checkLedgerSegment("name", options.name);
      if (options.gate !== undefined) checkLedgerSegment("gate", options.gate);
      await fetchTip();
      return await withCloneLock(
        ctx,
        await gitDir(),
        () => compactGit(ctx, options),
      );
    },

    /**
     * Fetches first, then reads the gate at the tip and, through its summary,
     * the records folded out of it (fetching those commits alone when the
     * clone lacks them).
     */
    async readAll(name, gate) {
      gatePath(name, gate);
      return await reads.readAll(name, gate);
    },

    pull: () => pullBranch(ctx, { open, fetchTip }),

    push: () => pushBranch(ctx, { open, gitDir }),
  } as GitLedger;
  return store;
}
