/**
 * Whether a record of the git ledger is still what the branch's counter
 * numbered (SPEC.md §19: a soak is timed by the ledger's own order): the
 * commit that added its sequence entry added the record file with the very
 * blob the tip holds, the file was not there before, and the number was one
 * the counter had not given yet (at or past the parent's counter, below the
 * commit's). A record edited in place since, or a copy numbered with a number
 * freed or borrowed from elsewhere, is not: when it arrived is not known. A
 * shallow clone is deepened until the commit is found, a few times at most.
 * Private to the git ledger.
 * @module
 */

import type { LedgerContext } from "./_sync.ts";
import { blobText } from "./_objects.ts";
import { orderPath, parseCounter, SEQ_PATH } from "./_order.ts";
import { deepen, FIRST_DEEPEN } from "./_chain.ts";

/** The most times the check deepens a shallow clone. */
const MAX_DEEPENS = 6;

/**
 * Checks that a record is as its number's commit added it.
 * @param ctx The ledger's clone.
 * @param tip The tip the record was read at.
 * @param file The record's path, blob and sequence number there.
 * @returns `true` when it is; `false` when it is not or cannot be told.
 * @throws {GitError} When git fails otherwise than by finding nothing.
 */
export async function numberedAsIs(
  ctx: LedgerContext,
  tip: string,
  file: { path: string; oid: string; seq: number },
): Promise<boolean> {
  const entry = orderPath(file.path, file.seq);
  const commit = await addingCommit(ctx, tip, entry);
  if (commit === undefined) return false;
  const [counter, record, numbered] = await ctx.objects.at(commit.oid, [
    SEQ_PATH,
    file.path,
    entry,
  ]);
  const after = parseCounter(blobText(counter));
  if (record?.oid !== file.oid || numbered === undefined) return false;
  if (after === undefined || !(file.seq < after)) return false;
  if (commit.parent === undefined) return true;
  const [before, there] = await ctx.objects.at(commit.parent, [
    SEQ_PATH,
    file.path,
  ]);
  return there === undefined &&
    (parseCounter(blobText(before)) ?? 0) <= file.seq;
}

/** The newest first-parent commit that added `path`, and its first parent. */
async function addingCommit(
  ctx: LedgerContext,
  tip: string,
  path: string,
): Promise<{ oid: string; parent?: string } | undefined> {
  let by = FIRST_DEEPEN;
  for (let tries = 0;; tries++) {
    const out = await ctx.git.exec(
      [
        "log",
        "--first-parent",
        "--diff-filter=A",
        "--format=%H %P",
        "-1",
        tip,
        "--",
        path,
      ],
      { cwd: ctx.cwd },
    );
    const [oid, parent] = new TextDecoder().decode(out.stdout).trim()
      .split(" ");
    if (out.exitCode === 0 && oid) {
      return parent ? { oid, parent } : { oid };
    }
    if (tries >= MAX_DEEPENS || !await deepen(ctx, by)) return undefined;
    by *= 2;
  }
}
