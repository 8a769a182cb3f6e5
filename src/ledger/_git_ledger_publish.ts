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
import {
  backoff,
  currentTip,
  failIfStale,
  fetchLedger,
  follow,
  LEDGER_BRANCH,
  LEDGER_REF,
  type LedgerContext,
  remoteName,
} from "./_git_ledger_sync.ts";
import {
  addedFiles,
  blobsAt,
  buildCommit,
  type LedgerFile,
} from "./_git_ledger_tree.ts";

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
 * `mine` (minus files the tip already has with the same content) and any records
 * of the local branch the remote lacks, on top of the remote's tip, and push it
 * without force; the remote's acceptance is the commit point, after which the
 * remote-tracking ref and the local branch follow by compare-and-swap. When
 * another writer pushed first, fetch, rebuild on the new tip and retry, at most
 * `ctx.attempts` times, with jittered exponential backoff. When the push fails
 * for another reason nothing moved (nothing is recorded) and a one-line
 * `InputError` says what to do. In local mode the compare-and-swap of the local
 * branch is the commit point, retried the same way.
 * @param ctx The ledger.
 * @param mine The files to add.
 * @param message The commit message, given how many files the commit adds.
 * @returns What was committed.
 * @throws {InputError} When a file of `mine` exists with other content, a lock is
 * stale, the remote refuses, or the attempts run out.
 */
export async function publish(
  ctx: LedgerContext,
  mine: readonly LedgerFile[],
  message: (files: readonly LedgerFile[]) => string,
): Promise<PublishReport> {
  const { git, cwd, tracking } = ctx;
  let lost = "";
  let lastMs = 0;
  let behind = false;
  for (let attempt = 1; attempt <= ctx.attempts; attempt++) {
    if (attempt > 1) await backoff(ctx, attempt - 1, lastMs);
    const started = ctx.clock.now();
    if (behind) await fetchLedger(ctx);
    const refs = await readRefs(git, cwd, [
      LEDGER_REF,
      ...(tracking ? [tracking] : []),
    ]);
    const local = refs.get(LEDGER_REF);
    const base = tracking ? refs.get(tracking) : local;
    const files = await filesToCommit(ctx, base, local, mine);
    if (files.length === 0) {
      if (tracking && base && local !== base) await currentTip(ctx);
      return { tip: base, committed: 0, pushed: false };
    }
    const commit = await buildCommit(git, cwd, base, files, message(files));
    if (ctx.remote === undefined || tracking === undefined) {
      const moved = await updateRef(
        git,
        cwd,
        LEDGER_REF,
        commit,
        local,
        message(files),
      );
      if (moved.ok) {
        return { tip: commit, committed: files.length, pushed: false };
      }
      if (moved.reason === "locked") {
        await failIfStale(ctx, moved.lockPath, attempt === ctx.attempts);
      }
      lost = "other processes kept moving the branch";
      lastMs = ctx.clock.now() - started;
      continue;
    }
    const pushed = await pushRef(git, cwd, ctx.remote, commit, LEDGER_REF);
    if (pushed.ok) {
      ctx.lastKnown = commit;
      await Promise.all([
        follow(ctx, tracking, base, commit, base),
        follow(ctx, LEDGER_REF, local, commit, base),
      ]);
      return { tip: commit, committed: files.length, pushed: true };
    }
    if (pushed.reason === "behind") {
      lost = `other writers kept pushing first (${pushed.detail})`;
      behind = true;
      lastMs = ctx.clock.now() - started;
      continue;
    }
    throw pushError(ctx, pushed.reason, pushed.detail);
  }
  throw new InputError(
    `cannot record in the ledger branch ${LEDGER_BRANCH}${
      ctx.remote ? ` of ${remoteName(ctx)}` : ""
    } after ${ctx.attempts} attempts: ${lost}; run it again`,
  );
}

/** `mine` minus what `base` already has, plus the local branch's own records. */
async function filesToCommit(
  ctx: LedgerContext,
  base: string | undefined,
  local: string | undefined,
  mine: readonly LedgerFile[],
): Promise<LedgerFile[]> {
  const { git, cwd } = ctx;
  const carried = local !== undefined && local !== base &&
      !(base !== undefined && await isAncestor(git, cwd, local, base))
    ? await addedFiles(git, cwd, base, local)
    : [];
  const present = base === undefined || mine.length === 0
    ? new Map<string, string>()
    : new Map(
      (await blobsAt(git, cwd, base, mine.map((f) => f.path)))
        .map((f) => [f.path, f.oid]),
    );
  const files = new Map(carried.map((f) => [f.path, f]));
  for (const file of mine) {
    const there = present.get(file.path);
    if (there === file.oid) continue;
    if (there !== undefined) {
      throw new InputError(
        `cannot record "${file.path}" in the ledger branch ${LEDGER_BRANCH}: ` +
          `a different record with that name is already there`,
      );
    }
    files.set(file.path, file);
  }
  return [...files.values()];
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
