/**
 * Syncing the git ledger by hand (`chant-wave ledger pull|push`): fetch the
 * remote's branch and follow it, or send what only the local branch holds.
 * Private to the git ledger.
 * @module
 */

import { withCloneLock } from "./_git_ledger_lock.ts";
import { publish } from "./_git_ledger_publish.ts";
import { needRemote } from "./_git_ledger_remote.ts";
import {
  fetchLedger,
  LEDGER_BRANCH,
  type LedgerContext,
} from "./_git_ledger_sync.ts";

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
