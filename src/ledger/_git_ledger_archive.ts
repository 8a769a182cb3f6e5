/**
 * Reading back what compaction folded out of a gate of the git ledger, for
 * `ledger log`: each `folded` summary names the commit of the branch just
 * before its fold, whose tree still holds the folded records (and the summary
 * before it, naming an older commit). That commit is fetched alone when the
 * clone lacks it (`--depth 1`). Nothing that decides reads this. Private to the
 * git ledger.
 * @module
 */

import { fetchRef } from "../git/git_transport.ts";
import { infoNamed } from "./_git_ledger_objects.ts";
import { type GateReadAt, readGateAt } from "./_git_ledger_read.ts";
import { LEDGER_BRANCH, type LedgerContext } from "./_git_ledger_sync.ts";
import type { GateHistory } from "./ledger_store.ts";
import type { LedgerRecord } from "../gate/records.ts";
import { compareRecords } from "../gate/sort_records.ts";
import { FULL_SHA } from "../input/full_sha.ts";

/** Where a fetched archive commit is kept while it is read. */
const ARCHIVE_REF = "refs/chant-wave/folded";
/** The most summaries followed back (one per compaction of the gate). */
const MAX_FOLDS = 10_000;

/**
 * A gate's records at the tip and every record its summaries folded, oldest
 * first by sequence number (records without one as the tip orders them).
 * @param ctx The ledger (its remote found).
 * @param tip The gate as read at the tip.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @returns The whole history, the folded records marked.
 * @throws {GitError} When git fails.
 */
export async function readHistoryAt(
  ctx: LedgerContext,
  tip: GateReadAt,
  name: string,
  gate: string,
): Promise<GateHistory> {
  const problems = [...tip.problems];
  const seen = new Set([...tip.files.values()].map((file) => file.path));
  const all = tip.records.map((record, i) => ({
    record,
    at: tip.files.get(record)?.seq ?? i - tip.records.length,
  }));
  const folded = new Set<LedgerRecord>();
  const queue = summariesOf(tip.records);
  const visited = new Set<string>();
  while (queue.length > 0 && visited.size < MAX_FOLDS) {
    const commit = queue.shift()!;
    if (visited.has(commit) || !FULL_SHA.test(commit)) continue;
    visited.add(commit);
    const label = `${LEDGER_BRANCH}@${commit.slice(0, 12)}`;
    if (!await haveCommit(ctx, commit)) {
      problems.push(`${label}: cannot read the records folded there`);
      continue;
    }
    const read = await readGateAt(ctx.objects, commit, name, gate, {
      label,
      legacy: () => Promise.resolve(new Map()),
    });
    for (const record of read.records) {
      const file = read.files.get(record)!;
      if (seen.has(file.path)) continue;
      seen.add(file.path);
      folded.add(record);
      all.push({ record, at: file.seq ?? -Infinity });
    }
    queue.push(...summariesOf(read.records));
  }
  all.sort((a, b) =>
    a.at === b.at ? compareRecords(a.record, b.record) : a.at - b.at
  );
  return { records: all.map((item) => item.record), problems, folded };
}

/** The commits a gate's summaries name. */
function summariesOf(records: readonly LedgerRecord[]): string[] {
  return records.flatMap((r) => r.kind === "folded" ? [r.archive] : []);
}

/** Whether the clone has `commit`, fetching it alone from the remote if not. */
async function haveCommit(
  ctx: LedgerContext,
  commit: string,
): Promise<boolean> {
  const has = async () =>
    (await infoNamed(ctx.git, ctx.cwd, [commit]))[0]?.type === "commit";
  if (await has()) return true;
  if (ctx.remote === undefined) return false;
  const got = await fetchRef(
    ctx.git,
    ctx.cwd,
    ctx.remote,
    commit,
    ARCHIVE_REF,
    1,
  );
  return got.ok && await has();
}
