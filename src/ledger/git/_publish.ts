/**
 * Publishing on the git ledger's branch: records and plan sets queued for one
 * group commit (`ledgerWrites`), the commit adding the new files (and any
 * records only the local branch has) built on the remote's tip, pushed without
 * force and rebuilt on a lost race (`commitWithRetry`), with the one-line
 * errors a refusing remote gets; and `ledger pull|push` by hand. Private to
 * the git ledger.
 * @module
 */

import { InputError } from "../../errors.ts";
import { isAncestor, readRefs, updateRef } from "../../git/git_plumbing.ts";
import { pushRef } from "../../git/git_transport.ts";
import { needRemote, tidyClone, withCloneLock } from "./_remote.ts";
import { buildCommit, type CommitFile } from "./_commit.ts";
import { numberFiles, ORDER_DIR } from "./_order.ts";
import {
  currentTip,
  failIfStale,
  fetchLedger,
  follow,
  LEDGER_BRANCH,
  LEDGER_REF,
  type LedgerContext,
  remoteName,
  waitToRetry,
} from "./_sync.ts";
import { checkSettings } from "./_settings.ts";
import { type LedgerFile, localOnlyFiles } from "./_local.ts";
import { infoNamed } from "./_objects.ts";
import { planSetFileName } from "../../gate/plan_set_file.ts";
import { recordFileName } from "../../gate/record_name.ts";
import type { Publication } from "../ledger_store.ts";

/** What {@linkcode publish} did. */
export interface PublishReport {
  /** The branch tip afterwards (`undefined`: still no branch). */
  tip?: string;
  /** Files committed (mine and carried local-only records). */
  committed: number;
  /** Whether it reached the remote (always `false` in local mode). */
  pushed: boolean;
}

/**
 * Publishes record files, atomically and losing none: build one commit adding
 * `mine` (minus files the tip already has with the same content, and optional
 * ones it has at all) and any records
 * of the local branch the remote lacks, on top of the remote's tip, and push it
 * without force; the remote's acceptance is the commit point (git moves the
 * remote-tracking ref with it), after which the local branch follows by
 * compare-and-swap. When another writer pushed first, fetch, rebuild on the new
 * tip and retry after a jittered, growing wait, for as long as the ledger's time
 * budget allows (`ctx.budgetMs`, 120 s by default, and at least
 * `ctx.minAttempts` attempts, 40). When the push fails for
 * another reason nothing moved (nothing is recorded) and a one-line `InputError`
 * says what to do. In local mode the compare-and-swap of the local branch is the
 * commit point, retried the same way.
 *
 * Each new record file takes the next sequence number from the counter at the
 * tip (`_order.ts`), in the same commit. One attempt costs 5 git
 * processes when it wins (`for-each-ref`, `cat-file`, `fast-import`, `push`,
 * `update-ref`) and one `fetch` more after a lost race (a write needs no fetch
 * of its own: the push is the compare-and-swap).
 * @param ctx The ledger.
 * @param mine The files to add.
 * @param message The commit message, given how many files the commit adds.
 * @returns What was committed.
 * @throws {InputError} When a file of `mine` exists with other content, a lock is
 * stale, or the remote refuses.
 * @throws {OutcomeError} Exit 1 when other writers kept winning for the whole
 * budget.
 */
export function publish(
  ctx: LedgerContext,
  mine: readonly CommitFile[],
  message: (files: readonly CommitFile[]) => string,
): Promise<PublishReport> {
  return commitWithRetry(ctx, async (base, local) => {
    const { git, cwd } = ctx;
    const files = unique([
      ...await carriedFiles(ctx, base, local),
      ...await absentAt(ctx, base, mine),
    ]);
    if (files.length === 0) return undefined;
    const built = await buildCommit(git, cwd, {
      base,
      files,
      extra: await numberFiles(ctx, base, files.map((file) => file.path)),
      message: message(files),
      when: ctx.clock.now(),
    });
    return { ...built, message: message(files) };
  });
}

/** What one attempt of {@linkcode commitWithRetry} built on the tip it was given. */
export interface Attempt {
  /** The commit, on the tip as its parent. */
  commit: string;
  /** Files it adds or removes (0: it changes nothing, and is dropped). */
  added: number;
  /** Its message, for the local branch's reflog. */
  message: string;
}

/**
 * The commit point of every write (see {@linkcode publish}): builds a commit on
 * the remote's tip (the local branch's in local mode) with `build`, pushes it
 * without force, and when another writer was first, fetches and builds again on
 * the new tip, within the ledger's time budget; then the local branch follows.
 * @param ctx The ledger.
 * @param build Builds the commit on `base` (`local`: the local branch), or
 *   says there is nothing to commit (`undefined`).
 * @returns What was committed.
 * @throws {InputError} When a lock is stale or the remote refuses.
 * @throws {OutcomeError} Exit 1 when other writers kept winning for the whole
 * budget.
 */
export async function commitWithRetry(
  ctx: LedgerContext,
  build: (
    base: string | undefined,
    local: string | undefined,
  ) => Promise<Attempt | undefined>,
): Promise<PublishReport> {
  const { git, cwd, tracking } = ctx;
  const deadline = ctx.clock.now() + ctx.budgetMs;
  const doing = `cannot record in the ledger branch ${LEDGER_BRANCH}${
    ctx.remote ? ` of ${remoteName(ctx)}` : ""
  }`;
  let why = "";
  let lastMs = 0;
  let behind = false;
  for (let attempt = 1;; attempt++) {
    if (attempt > 1) {
      await waitToRetry(ctx, {
        attempt: attempt - 1,
        lastMs,
        deadline,
        doing,
        why,
      });
    }
    const started = ctx.clock.now();
    if (behind) await fetchLedger(ctx, false, true);
    const refs = await readRefs(git, cwd, [
      LEDGER_REF,
      ...(tracking ? [tracking] : []),
    ]);
    const local = refs.get(LEDGER_REF);
    const base = tracking ? refs.get(tracking) : local;
    if (tracking && base) ctx.remoteTips.add(base);
    const built = await build(base, local);
    if (built === undefined || built.added === 0) {
      if (tracking && base && local !== base) await currentTip(ctx);
      return { tip: base, committed: 0, pushed: false };
    }
    const { commit, added } = built;
    if (ctx.remote === undefined || tracking === undefined) {
      const moved = await updateRef(
        git,
        cwd,
        LEDGER_REF,
        commit,
        local,
        built.message,
      );
      if (moved.ok) return { tip: commit, committed: added, pushed: false };
      if (moved.reason === "locked") await failIfStale(ctx, moved.lockPath);
      why = "other processes kept moving the branch";
      lastMs = ctx.clock.now() - started;
      continue;
    }
    await checkSettings(ctx, `push the ledger branch ${LEDGER_BRANCH}`);
    const pushed = await pushRef(git, cwd, ctx.remote, commit, LEDGER_REF);
    if (pushed.ok) {
      ctx.lastKnown = commit;
      ctx.remoteTips.add(commit);
      const known = local !== undefined && ctx.remoteTips.has(local);
      await follow(ctx, LEDGER_REF, local, commit, known ? local : base);
      return { tip: commit, committed: added, pushed: true };
    }
    if (pushed.reason === "behind") {
      why = `other writers kept pushing first (${pushed.detail})`;
      behind = true;
      lastMs = ctx.clock.now() - started;
      continue;
    }
    throw pushError(ctx, pushed.reason, pushed.detail);
  }
}

/**
 * The records of the local branch that `base` lacks: none when the local branch
 * is at a tip seen on the remote (its records are all there) or behind `base`.
 */
async function carriedFiles(
  ctx: LedgerContext,
  base: string | undefined,
  local: string | undefined,
): Promise<LedgerFile[]> {
  const { git, cwd } = ctx;
  if (local === undefined || local === base || ctx.remoteTips.has(local)) {
    return [];
  }
  if (
    base !== undefined &&
    await isAncestor(git, cwd, local, base).catch(() => false)
  ) return [];
  // Numbers are the remote's to give: carried records are numbered afresh.
  return (await localOnlyFiles(ctx, base, local, () => fetchLedger(ctx, true)))
    .filter((file) => file.path.split("/")[3] !== ORDER_DIR);
}

/** The files less the optional ones `base` has (one `cat-file --batch-check`). */
async function absentAt(
  ctx: LedgerContext,
  base: string | undefined,
  files: readonly CommitFile[],
): Promise<CommitFile[]> {
  const optional = files.filter((file) => "optional" in file && file.optional);
  if (base === undefined || optional.length === 0) return [...files];
  const found = await infoNamed(
    ctx.git,
    ctx.cwd,
    optional.map((file) => `${base}:${file.path}`),
  );
  const there = new Set(optional.filter((_, i) => found[i] !== undefined));
  return files.filter((file) => !there.has(file));
}

/** The files, one per path (the last wins, so mine win over carried ones). */
function unique(files: readonly CommitFile[]): CommitFile[] {
  return [...new Map(files.map((file) => [file.path, file])).values()];
}

const ALLOW_PUSH =
  `allow the job to push the branch ${LEDGER_BRANCH} (GitHub and Forgejo: ` +
  `"permissions: contents: write"; GitLab: a token with write_repository), ` +
  `and exempt it from branch protection`;

function pushError(
  ctx: LedgerContext,
  reason: "refused" | "failed",
  detail: string,
): InputError {
  const where = `cannot push the ledger branch ${LEDGER_BRANCH} to ${
    remoteName(ctx)
  }`;
  if (reason === "refused") {
    return new InputError(
      `${where}: the remote refused it (${detail}); ${ALLOW_PUSH}`,
    );
  }
  // An HTTP status as git reports it: a path in the detail may hold the digits.
  const denied =
    /denied|returned error: 40[13]|authenticat|not allowed|credential|username/i;
  if (denied.test(detail)) {
    return new InputError(
      `${where}: permission denied (${detail}); ${ALLOW_PUSH}`,
    );
  }
  return new InputError(
    `${where}: ${detail}; check the remote's URL and that the job may push to it`,
  );
}

/** What the writes need of the store. */
export interface WritesOf {
  /** Finds the remote, once. */
  open(): Promise<void>;
  /** The clone's common git folder (for its lock). */
  gitDir(): Promise<string | undefined>;
  /** `gates/<name>/<gate>`, both checked. */
  gatePath(name: string, gate: string): string;
  /** Whether the tip last read has a plan set of the digest. */
  hasPlanSet(name: string, gate: string, digest: string): Promise<boolean>;
}

/**
 * Makes the publishing of one git ledger (`LedgerStore.publish`): each record
 * and plan set queued for the next group commit, published under the clone's
 * lock, the clone's object store tidied after when it is cluttered. A plan set published on its own is left out when the tip last read has
 * it already; one published with records goes with them, added unless the tip
 * has it.
 * @param ctx The ledger.
 * @param of What the writes need of the store.
 * @returns The publishing.
 */
export function ledgerWrites(
  ctx: LedgerContext,
  of: WritesOf,
): (items: readonly Publication[]) => Promise<void> {
  const writes = batcher<CommitFile & { text: string; what: string }>(
    async (items) => {
      await of.open();
      const files = items.map(({ what: _, ...file }) => file);
      const what = items[0].what;
      const gitDir = await of.gitDir();
      await withCloneLock(ctx, gitDir, () =>
        publish(
          ctx,
          files,
          (all) =>
            all.length === 1
              ? `chant-wave: ${what}`
              : `chant-wave: ${what} and ${all.length - 1} more records`,
        ));
      await tidyClone(ctx, gitDir);
    },
  );
  return async (items) => {
    const first =
      items.flatMap((item) =>
        "record" in item ? [item.record] : "claim" in item ? [item.claim] : []
      )[0];
    const what = first && `${first.kind} ${first.name}/${first.gate}`;
    const files: (CommitFile & { text: string; what: string })[] = [];
    for (const item of items) {
      if ("record" in item || "claim" in item) {
        const record = "record" in item ? item.record : item.claim;
        const { text } = item;
        const dir = of.gatePath(record.name, record.gate);
        files.push({
          path: `${dir}/${recordFileName(record)}`,
          text,
          what: `${record.kind} ${record.name}/${record.gate}`,
        });
        continue;
      }
      const { name, gate, digest, text } = item.set;
      const path = `${of.gatePath(name, gate)}/sets/${planSetFileName(digest)}`;
      if (what === undefined && await of.hasPlanSet(name, gate, digest)) {
        continue;
      }
      files.push({
        path,
        text,
        what: what ?? `plans of ${name}/${gate}`,
        optional: true,
      });
    }
    await Promise.all(files.map((file) => writes.add(file)));
  };
}

/** Queues items and hands them to `flush` in batches, one batch at a time. */
export interface Batcher<T> {
  /**
   * Adds an item to the next batch.
   * @returns Settles when the batch holding the item was flushed: resolves when
   * `flush` resolved, rejects with `flush`'s error (every item of that batch).
   */
  add(item: T): Promise<void>;
}

/**
 * Makes a batcher: the first item starts a flush once the current synchronous
 * code is done (a microtask later, so items added together share it); items added
 * while a flush runs form the next batch, flushed as soon as the running one ends.
 */
function batcher<T>(
  flush: (items: readonly T[]) => Promise<void>,
): Batcher<T> {
  let queue: { item: T; done: () => void; fail: (e: unknown) => void }[] = [];
  let running = false;
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await flush(batch.map((entry) => entry.item));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.fail(error);
      }
    }
    running = false;
  };
  return {
    add(item) {
      const settled = new Promise<void>((done, fail) => {
        queue.push({ item, done, fail });
      });
      if (!running) {
        running = true;
        queueMicrotask(drain);
      }
      return settled;
    },
  };
}

/** What {@linkcode GitLedger.pull} or {@linkcode GitLedger.push} did. */
export interface SyncReport {
  /** The remote. */
  remote: string;
  /** The branch tip afterwards; absent when the remote has no branch yet. */
  tip?: string;
  /** Records sent (push); 0 for pull. */
  records: number;
  /** One line for the log. */
  message: string;
}

/**
 * Fetches the remote's branch and fast-forwards the local branch to it.
 * @param ctx The ledger.
 * @param of Finding the remote, and fetching the tip.
 * @returns What it did.
 * @throws {InputError} With no remote, or when the remote cannot be read.
 */
export async function pullBranch(
  ctx: LedgerContext,
  of: {
    open(): Promise<void>;
    fetchTip(): Promise<string | undefined>;
  },
): Promise<SyncReport> {
  await of.open();
  const from = needRemote(ctx, "pull");
  const tip = await of.fetchTip();
  const message = tip === undefined
    ? `"${from}" has no branch ${LEDGER_BRANCH} yet`
    : `pulled ${LEDGER_BRANCH} from "${from}" at ${tip.slice(0, 12)}`;
  return { remote: from, ...(tip ? { tip } : {}), records: 0, message };
}

/**
 * Sends the local branch's records the remote lacks, as the next write would.
 * @param ctx The ledger.
 * @param of Finding the remote, and the clone's git folder (for its lock).
 * @returns What it did.
 * @throws {InputError} With no remote, or when the remote refuses.
 */
export async function pushBranch(
  ctx: LedgerContext,
  of: { open(): Promise<void>; gitDir(): Promise<string | undefined> },
): Promise<SyncReport> {
  await of.open();
  const to = needRemote(ctx, "push");
  await fetchLedger(ctx);
  const done = await withCloneLock(ctx, await of.gitDir(), () =>
    publish(
      ctx,
      [],
      (files) => `chant-wave: ${files.length} local records`,
    ));
  const message = done.committed === 0
    ? `${LEDGER_BRANCH} is up to date with "${to}"`
    : `pushed ${done.committed} records to ${LEDGER_BRANCH} of "${to}"`;
  return {
    remote: to,
    ...(done.tip ? { tip: done.tip } : {}),
    records: done.committed,
    message,
  };
}
