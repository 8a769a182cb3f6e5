/**
 * Spent approvals stay spent on the git ledger (SPEC.md §10, §12): before a
 * job applies under an approval, the gate's history from the commit that
 * numbered the approval to the tip must show that nothing that could have
 * spent it was taken away. A sealed approval's window goes further back, to
 * the commit that took the counter past the one its seal signed
 * (`Seal.ledger`): a copy of it numbered later is checked over the history of
 * the original too. The change's code in a sealed or forge job may
 * push to the branch, so a commit could delete a claim and its outcome, or
 * number an old claim anew so that it sorts before a revoke. In every commit of
 * that window (one parent each, the counter never going back):
 *
 * - no record file of the gate is removed or changed, and no sequence entry
 *   removed, except by a compaction commit: one that adds the gate's `folded`
 *   summary, whose revoke (`through`) the gate held before it as its reader
 *   reads a revoke (a well-formed `expired` record of this gate, a regular file
 *   within the size limit), and that removes only records numbered before that
 *   revoke and dated no later than it, none ending or naming a forge action
 *   above its floor (and earlier summaries), each with its sequence entry: the
 *   revoke stays, and its time and floor end whatever a copy of a removed
 *   record could bring back;
 * - every new sequence entry numbers a record file the same commit adds, with a
 *   number the counter had not given before.
 *
 * A legitimate compaction folds only what came before the gate's newest
 * revoke, and an approval that counts comes after it, so none of its claims
 * can fold. When the job took a mark, the window must pass through the tip it
 * read then, so a remote swapped for another since cannot hide what the job
 * saw. The cost grows with the approval's age, not with the branch's history.
 * A claim is checked so right after it reached the branch (`checkClaim`).
 * Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import { InputError } from "../../errors.ts";
import { ShapeError } from "../../input/shape_error.ts";
import { diffTrees, type TreeChanges } from "../../git/tree_diff.ts";
import type { TreeEntry } from "../../git/object_id.ts";
import { type CommitState, walkBack } from "./_chain.ts";
import { blobText } from "./_objects.ts";
import { parseOrderName } from "./_order.ts";
import { LEDGER_BRANCH, type LedgerContext } from "./_sync.ts";
import { parseRecord } from "../../gate/parse_record.ts";
import { isRecordFileName } from "../../gate/record_name.ts";
import type {
  ClaimRecord,
  ExpiredRecord,
  LedgerRecord,
} from "../../gate/records.ts";
import { higherActions, namesUnendedAction } from "../../gate/action_floor.ts";
import { MAX_RECORD_BYTES } from "../../limits.ts";
import {
  dropApprovalCopies,
  screenRecords,
} from "../../gate/screen_records.ts";
import { countingApprovals } from "../../gate/revoke_floor.ts";
import type { GateListing, GateRef, ListOptions } from "../ledger_store.ts";

/** The approval a job is about to apply under, and where the walk starts. */
export interface ApprovalHistory {
  /** The tip the claim was read back at. */
  tip: string;
  /** The spec's `name`. */
  name: string;
  /** The gate. */
  gate: string;
  /** The approval's id. */
  approvalId: string;
  /** Its sequence number at the tip (absent: it has none). */
  seq?: number;
  /** Its record file's name. */
  file: string;
  /** The tip of the job's mark, when the job did not write the approval. */
  mark?: string;
  /**
   * For a sealed approval, the ledger counter its seal signed (`Seal.ledger`):
   * the window goes back to it, so a copy numbered later cannot leave out
   * the commits that took the original's claims away.
   */
  signed?: number;
}

/** What one commit changed in the gate: its records and its sequence entries. */
interface GateChanges {
  records: TreeChanges;
  /** Sequence entries removed and added (`<number>-<file>` names). */
  removedEntries: string[];
  addedEntries: string[];
}

/**
 * Checks the gate's history for one approval (see the module).
 * @throws {InputError} Exit 2, naming the commit and what it did, when the
 *   history fails a rule or cannot be read.
 */
async function checkApprovalHistory(
  ctx: LedgerContext,
  query: ApprovalHistory,
): Promise<number> {
  const { approvalId, gate } = query;
  const fail = (commit: string, what: string) =>
    new InputError(
      `cannot apply under approval ${approvalId}: in gate "${gate}", commit ${
        commit.slice(0, 12)
      } of the ledger branch ${LEDGER_BRANCH} ${what}; nothing applied (a ` +
        `spent approval stays spent: find who pushed it, and approve again)`,
    );
  if (query.seq === undefined) {
    throw new InputError(
      `cannot apply under approval ${approvalId}: it has no sequence number ` +
        `in gate "${gate}" (it reached the ledger branch ${LEDGER_BRANCH} ` +
        `other than by chant-wave), so whether it was spent cannot be told; ` +
        `nothing applied (approve again with chant-wave approve)`,
    );
  }
  const seq = query.seq;
  const { signed } = query;
  if (signed !== undefined && seq < signed) {
    throw new InputError(
      `cannot apply under approval ${approvalId}: it is numbered ${seq} in ` +
        `gate "${gate}", before the ledger's counter ${signed} its seal was ` +
        `signed at, so it did not reach the ledger branch ${LEDGER_BRANCH} ` +
        `as signed; nothing applied (approve again with chant-wave approve)`,
    );
  }
  const dir = `gates/${query.name}/${gate}`;
  let sawMark = query.mark === undefined;
  const seen: Seen = new Map();
  let issuedAt: string | undefined;
  const visited = await walkBack(
    ctx,
    query.tip,
    dir,
    async (commit, parent) => {
      if (commit.oid === query.mark) sawMark = true;
      if (commit.parents.length > 1) throw fail(commit.oid, "is a merge");
      if (parent === undefined) return (issuedAt ??= commit.oid, true);
      // The first commit with a counter gave the approval its number.
      if (parent.seq === undefined) return (issuedAt ??= commit.oid, true);
      if (commit.seq === undefined || commit.seq < parent.seq) {
        throw fail(commit.oid, "moves the counter back");
      }
      const problem = await checkCommit(ctx, query, commit, parent, seen);
      if (problem) throw fail(commit.oid, problem);
      if (issuedAt === undefined) {
        if (parent.seq > seq) return false;
        // The commit that gave the approval its number must add its file.
        const added = await changesOf(ctx, commit, parent, seen);
        const entry = `${String(seq).padStart(12, "0")}-${query.file}`;
        if (!added?.addedEntries.includes(entry)) {
          throw fail(commit.oid, `numbers "${query.file}" without adding it`);
        }
        issuedAt = commit.oid;
      }
      // It ends the window, or for a sealed approval the commit that took
      // the counter past the one its seal signed.
      return signed === undefined || parent.seq < signed;
    },
  );
  if (!sawMark) {
    throw fail(
      issuedAt ?? query.tip,
      `is reached from the tip ${query.tip.slice(0, 12)} without passing ` +
        `the tip ${query.mark!.slice(0, 12)} this job read when it started`,
    );
  }
  return visited;
}

/** What the walk found each commit changed (each is asked twice at most). */
type Seen = Map<CommitState, Promise<GateChanges | undefined>>;

/** What a commit changed in the gate (nothing when its gate tree is the parent's). */
function changesOf(
  ctx: LedgerContext,
  commit: CommitState,
  parent: CommitState,
  seen: Seen,
): Promise<GateChanges | undefined> {
  const known = seen.get(commit);
  if (known) return known;
  const changes = readChanges(ctx, commit, parent);
  seen.clear();
  seen.set(commit, changes);
  return changes;
}

async function readChanges(
  ctx: LedgerContext,
  commit: CommitState,
  parent: CommitState,
): Promise<GateChanges | undefined> {
  if (commit.gate?.oid === parent.gate?.oid) return undefined;
  const empty = new Uint8Array();
  const length = (commit.gate ?? parent.gate)!.oid.length;
  const records = diffTrees(
    parent.gate?.bytes ?? empty,
    commit.gate?.bytes ?? empty,
    length,
  );
  const entries = { removed: [] as string[], added: [] as string[] };
  if (commit.order?.oid !== parent.order?.oid) {
    const buckets = diffTrees(
      parent.order?.bytes ?? empty,
      commit.order?.bytes ?? empty,
      length,
    );
    await bucketEntries(ctx, buckets.removed, entries.removed);
    await bucketEntries(ctx, buckets.added, entries.added);
    // An entry in a bucket both versions hold is in both lists: drop the pairs.
    const both = new Set(
      entries.removed.filter((n) => entries.added.includes(n)),
    );
    entries.removed = entries.removed.filter((n) => !both.has(n));
    entries.added = entries.added.filter((n) => !both.has(n));
  }
  return {
    records,
    removedEntries: entries.removed,
    addedEntries: entries.added,
  };
}

/** The sequence entries' names in some bucket folders (their trees, checked). */
async function bucketEntries(
  ctx: LedgerContext,
  buckets: readonly TreeEntry[],
  into: string[],
): Promise<void> {
  const dirs = buckets.filter((b) => b.mode === "40000");
  const trees = await ctx.objects.byId(dirs.map((b) => b.oid));
  for (const bucket of dirs) {
    const tree = trees.get(bucket.oid);
    if (tree?.type === "tree") into.push(...ctx.objects.entries(tree).keys());
  }
}

/** Why one commit breaks the rules for the gate, if it does. */
async function checkCommit(
  ctx: LedgerContext,
  of: GateOf,
  commit: CommitState,
  parent: CommitState,
  seen: Seen,
): Promise<string | undefined> {
  const changes = await changesOf(ctx, commit, parent, seen);
  if (changes === undefined) return undefined;
  const isRecord = (e: TreeEntry) =>
    e.mode !== "40000" && isRecordFileName(e.name);
  const removed = changes.records.removed.filter(isRecord);
  const added = changes.records.added.filter(isRecord);
  const addedNames = new Set(added.map((e) => e.name));
  const changed = removed.filter((e) => addedNames.has(e.name));
  if (changed.length > 0) return `changes the record "${changed[0].name}"`;
  const removedNames = new Set(removed.map((e) => e.name));
  for (const name of changes.addedEntries) {
    const entry = parseOrderName(name);
    if (!entry || !addedNames.has(entry.file)) {
      return `numbers the record "${entry?.file ?? name}" it does not add`;
    }
    const fresh = parent.seq === undefined ||
      (entry.seq >= parent.seq && (commit.seq ?? Infinity) > entry.seq);
    if (!fresh) {
      return `gives "${entry.file}" a number used before (${entry.seq})`;
    }
  }
  for (const name of changes.removedEntries) {
    const entry = parseOrderName(name);
    if (!entry || !removedNames.has(entry.file)) {
      return `removes the sequence entry "${name}" of a record it keeps`;
    }
  }
  if (removed.length === 0) return undefined;
  return await checkFold(ctx, of, parent, { removed, added, changes });
}

/**
 * Why a commit that removes records is not a compaction of the gate, if it is
 * not: it must add one `folded` summary of the gate, whose revoke the gate held
 * before, and remove only records numbered before that revoke (or earlier
 * summaries), each with its sequence entry.
 */
async function checkFold(
  ctx: LedgerContext,
  of: GateOf,
  parent: CommitState,
  found: { removed: TreeEntry[]; added: TreeEntry[]; changes: GateChanges },
): Promise<string | undefined> {
  const { removed, added, changes } = found;
  const what = `removes "${removed[0].name}"${
    removed.length > 1 ? ` and ${removed.length - 1} more records` : ""
  } without folding them`;
  const summaries = added.filter((e) => e.name.includes("-folded-"));
  if (summaries.length !== 1 || added.length !== 1) return what;
  const blob = (await ctx.objects.byId([summaries[0].oid])).get(
    summaries[0].oid,
  );
  let through: string;
  try {
    const record = parseRecord(blobText(blob) ?? "", summaries[0].name);
    if (record.kind !== "folded" || !sameGate(record, of)) return what;
    through = record.through;
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return what;
  }
  const numbers = new Map<string, number>();
  for (const name of changes.removedEntries) {
    const entry = parseOrderName(name);
    if (entry) numbers.set(entry.file, entry.seq);
  }
  const revoke = await revokeNumber(ctx, of, parent, through);
  if (revoke === undefined) return what;
  for (const record of removed) {
    const seq = numbers.get(record.name);
    if (seq === undefined) return what;
    if (seq >= revoke.seq && !record.name.includes("-folded-")) return what;
  }
  return await endedByRevoke(ctx, of, removed, revoke.record)
    ? undefined
    : what;
}

/**
 * Whether the revoke a fold goes through ends, by itself, everything the
 * removed records ended or could still count for (as `planFold` folds):
 * each is dated no later than it, a removed revoke ended no forge action it
 * does not, and a removed approval names no action above its floor. It stays
 * at the tip, so its time and its floor keep ending a copy of what it folded
 * (a sealed approval signed before it, an action up to its floor). A file the
 * gate's reader would not read (malformed, another gate's) counted for
 * nothing, and may go; summaries only tell.
 */
async function endedByRevoke(
  ctx: LedgerContext,
  of: GateOf,
  removed: readonly TreeEntry[],
  through: ExpiredRecord,
): Promise<boolean> {
  const cut = Date.parse(through.timestamp);
  const floor = through.actionsThrough;
  const read = removed.filter((e) => !e.name.includes("-folded-"));
  const blobs = await ctx.objects.byId(read.map((e) => e.oid));
  for (const entry of read) {
    let record: LedgerRecord;
    try {
      record = parseRecord(blobText(blobs.get(entry.oid)) ?? "", entry.name);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      continue;
    }
    if (!sameGate(record, of)) continue;
    if (Date.parse(record.timestamp) > cut) return false;
    if (
      record.kind === "expired" &&
      JSON.stringify(higherActions(floor, record.actionsThrough)) !==
        JSON.stringify(higherActions(floor, undefined))
    ) return false;
    if (record.kind === "approval" && namesUnendedAction(record, floor)) {
      return false;
    }
  }
  return true;
}

/** The gate a history is checked for. */
interface GateOf {
  /** The spec's `name`. */
  name: string;
  /** The gate. */
  gate: string;
}

/** Whether a record says it belongs to the gate. */
function sameGate(record: LedgerRecord, of: GateOf): boolean {
  return record.name === of.name && record.gate === of.gate;
}

/**
 * The sequence number the gate gave revoke `id` before the commit, if it holds
 * it as the gate's reader reads a revoke (`_read.ts`): a regular
 * file within the size limit, in the gate's folder, numbered, whose record
 * parses as an `expired` record of this gate with that id. A file the reader
 * ignores (another gate's, too large, a link, malformed) ends nothing, so it
 * cannot excuse a removal either.
 */
async function revokeNumber(
  ctx: LedgerContext,
  of: GateOf,
  parent: CommitState,
  id: string,
): Promise<{ seq: number; record: ExpiredRecord } | undefined> {
  if (parent.order === undefined || parent.gate === undefined) return undefined;
  const suffix = `-expired-${id}.json`;
  const buckets = [...ctx.objects.entries(parent.order).values()];
  const names: string[] = [];
  await bucketEntries(ctx, buckets, names);
  const files = ctx.objects.entries(parent.gate);
  for (const name of names) {
    const entry = parseOrderName(name);
    if (
      !entry || !entry.file.endsWith(suffix) ||
      posix.basename(entry.file) !== entry.file
    ) continue;
    const file = files.get(entry.file);
    if (file === undefined) continue;
    const record = await readAsRevoke(ctx, of, file, id);
    if (record) return { seq: entry.seq, record };
  }
  return undefined;
}

/** A gate's file as its reader reads revoke `id` of the gate (see above), if it is one. */
async function readAsRevoke(
  ctx: LedgerContext,
  of: GateOf,
  file: TreeEntry,
  id: string,
): Promise<ExpiredRecord | undefined> {
  if (file.mode !== "100644" && file.mode !== "100755") return undefined;
  const [size] = await ctx.objects.sizes([file.oid]);
  if (size?.type !== "blob" || size.size > MAX_RECORD_BYTES) return undefined;
  const blob = (await ctx.objects.byId([file.oid])).get(file.oid);
  try {
    const record = parseRecord(blobText(blob) ?? "", file.name);
    return record.kind === "expired" && record.id === id &&
        sameGate(record, of)
      ? record
      : undefined;
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return undefined;
  }
}

/** What {@linkcode checkClaim} needs of the store. */
export interface ClaimingStore {
  /** Lists a gate at the tip (a whole listing is then located). */
  list(ref: GateRef, options: ListOptions): Promise<GateListing>;
  /** Where the newest whole read of the gate found a record. */
  locate(
    name: string,
    gate: string,
    id: string,
  ): { tip: string; path: string; seq?: number; signed?: number } | undefined;
  /** The tip of the job's mark, if it took one. */
  markTip(): Promise<string | undefined>;
  /** The ids of the records the store published. */
  written: ReadonlySet<string>;
}

/**
 * After a claim reached the branch: reads the gate at the tip and, while the
 * claim's approval still counts there (else the ledger refuses the claim,
 * exit 3), checks the gate's history for it ({@linkcode checkApprovalHistory};
 * the job's mark is not asked of an approval this store wrote).
 * @param ctx The ledger (its remote found).
 * @param of The store's parts.
 * @param claim The job's claim.
 * @throws {InputError} Exit 2 when the approval's history breaks a rule.
 */
export async function checkClaim(
  ctx: LedgerContext,
  of: ClaimingStore,
  claim: ClaimRecord,
): Promise<void> {
  const { records, problems } = await of.list(claim, {});
  const read = dropApprovalCopies(
    screenRecords({ records, problems }, ctx.clock.now()),
  );
  const counts = countingApprovals(read.records)
    .some((approval) => approval.id === claim.approvalId);
  if (!counts) return;
  const at = of.locate(claim.name, claim.gate, claim.approvalId);
  if (at === undefined) return;
  const mark = of.written.has(claim.approvalId)
    ? undefined
    : await of.markTip();
  await checkApprovalHistory(ctx, {
    tip: at.tip,
    name: claim.name,
    gate: claim.gate,
    approvalId: claim.approvalId,
    file: posix.basename(at.path),
    ...(at.seq === undefined ? {} : { seq: at.seq }),
    ...(at.signed === undefined ? {} : { signed: at.signed }),
    ...(mark === undefined ? {} : { mark }),
  });
}
