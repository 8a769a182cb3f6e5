/**
 * Publishing records on the git ledger's branch: one commit adding the new files
 * (and any records only the local branch has) on the remote's tip, pushed without
 * force and rebuilt on a lost race, with the one-line errors a refusing remote
 * gets. Private to the git ledger.
 * @module
 */

import { InputError } from "../errors.ts";
import { isAncestor, readRefs, updateRef } from "../git/git_plumbing.ts";
import { pushRef } from "../git/git_transport.ts";
import { checkSettings } from "./_git_ledger_settings.ts";
import { buildCommit, type CommitFile } from "./_git_ledger_commit.ts";
import { numberFiles } from "./_git_ledger_number.ts";
import { ORDER_DIR } from "./_git_ledger_order.ts";
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
} from "./_git_ledger_sync.ts";
import type { LedgerFile } from "./_git_ledger_tree.ts";
import { localOnlyFiles } from "./_git_ledger_local.ts";
import { infoNamed } from "./_git_ledger_objects.ts";

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
 * tip (`_git_ledger_number.ts`), in the same commit. One attempt costs 5 git
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
  const denied = /denied|403|401|authenticat|not allowed|credential|username/i;
  if (denied.test(detail)) {
    return new InputError(
      `${where}: permission denied (${detail}); ${ALLOW_PUSH}`,
    );
  }
  return new InputError(
    `${where}: ${detail}; check the remote's URL and that the job may push to it`,
  );
}
