/**
 * Folding the git ledger (docs/ledger.md, "Compacting the ledger"): one commit
 * that removes from the tip's tree what the planner says no decision reads
 * again (the record files, their sequence entries, the plan sets only they
 * name) and adds each gate's `folded` summary, numbered like any record. When
 * a gate settles, a commit before that one adds its revoke, numbered like any
 * record, so the fold goes through a revoke its parent holds (as `_history.ts`
 * checks a fold); both are pushed at once, by the same compare-and-swap as
 * every write, and rebuilt on a lost race; only records numbered before the
 * first attempt read the branch may fold, so a record written meanwhile never
 * does. The folded files stay in the tree of the commit the summary names (the
 * branch's history), which `ledger log` reads back through the summaries.
 * Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import { recordText } from "../../gate/parse_record.ts";
import { planSetFileName } from "../../gate/plan_set_file.ts";
import { recordFileName } from "../../gate/record_name.ts";
import type { FoldedRecord, LedgerRecord } from "../../gate/records.ts";
import { compareRecords } from "../../gate/screen_records.ts";
import { fetchRef } from "../../git/git_transport.ts";
import { FULL_SHA } from "../../input/full_sha.ts";
import type {
  FoldedGate,
  FoldPlanner,
  FoldScope,
  GateFold,
  GateListing,
  GateRef,
} from "../ledger_store.ts";
import { buildCommit, pruneTrees } from "./_commit.ts";
import { blobText, infoNamed, readNamed } from "./_objects.ts";
import {
  BYTES_FILE,
  entryBytes,
  ORDER_DIR,
  orderPath,
  parseCounter,
  SEQ_PATH,
} from "./_order.ts";
import { commitWithRetry } from "./_publish.ts";
import {
  type GateReadAt,
  listGatesAt,
  readGateAt,
  readSetsAt,
} from "./_read.ts";
import { LEDGER_BRANCH, type LedgerContext } from "./_sync.ts";

/** One gate's fold, as found at a tip. */
interface FoundFold {
  ref: GateRef;
  fold: GateFold;
  read: GateReadAt;
  /** The paths of the plan sets that fold. */
  sets: string[];
}

/**
 * Folds the chosen gates in one commit (see the module).
 * @param ctx The ledger (its remote found).
 * @param scope Which gates, and whether only to say what would fold.
 * @param planner Plans each gate's fold.
 * @returns What folded, per gate.
 * @throws {InputError} When the remote refuses.
 * @throws {OutcomeError} Exit 1 when other writers kept winning for the budget.
 */
export async function foldGit(
  ctx: LedgerContext,
  scope: FoldScope,
  planner: FoldPlanner,
): Promise<FoldedGate[]> {
  let upTo: number | undefined;
  let found: FoundFold[] = [];
  let summaries = new Map<FoundFold, FoldedRecord>();
  await commitWithRetry(ctx, async (base) => {
    found = [];
    summaries = new Map();
    if (base === undefined) return undefined;
    const [counter] = await readNamed(ctx.git, ctx.cwd, [
      `${base}:${SEQ_PATH}`,
    ]);
    const next = parseCounter(blobText(counter));
    // A branch without a counter was not written by chant-wave: nothing folds.
    if (next === undefined) return undefined;
    upTo ??= next;
    found = await foldsAt(ctx, base, scope, planner, upTo);
    if (found.length === 0 || scope.dryRun) return undefined;
    return await buildFold(ctx, base, next, found, summaries);
  });
  return found.map((at) => {
    const summary = summaries.get(at);
    return {
      ...at.ref,
      records: at.fold.records,
      sets: at.sets.length,
      ...(summary ? { summary } : {}),
      ...(at.fold.cut === undefined ? {} : { settled: at.fold.cut }),
    };
  });
}

/** The folds of the chosen gates at `base`, of records numbered below `upTo`. */
async function foldsAt(
  ctx: LedgerContext,
  base: string,
  scope: FoldScope,
  planner: FoldPlanner,
  upTo: number,
): Promise<FoundFold[]> {
  const refs = scope.gate !== undefined && scope.name !== undefined
    ? [{ name: scope.name, gate: scope.gate }]
    : await listGatesAt(ctx.objects, base, scope.name);
  const folds: FoundFold[] = [];
  for (const ref of refs) {
    const read = await readGateAt(ctx.objects, base, ref.name, ref.gate, {
      label: LEDGER_BRANCH,
    });
    const dir = `gates/${ref.name}/${ref.gate}/sets`;
    const fold = await planner(ref, {
      records: read.records,
      foldable: (record) => {
        const seq = read.files.get(record)?.seq;
        return seq !== undefined && seq < upTo;
      },
      sets: (digests) =>
        readSetsAt(ctx.objects, base, dir, digests, LEDGER_BRANCH),
    });
    if (fold === undefined) continue;
    const { plan } = fold;
    // The folder listed once: a path through the gate's tree for each set
    // would read all of that tree each time.
    const there = new Set(await blobNamesIn(ctx, `${base}:${dir}`));
    const sets = [...plan.named].filter((d) => !plan.kept.has(d))
      .map(planSetFileName).filter((file) => there.has(file))
      .map((file) => `${dir}/${file}`);
    folds.push({ ref, fold, read, sets });
  }
  return folds;
}

/**
 * The commit of the folds on `base`: the folded files and their sequence
 * entries removed (each folder that loses some written again without them,
 * the pruning below), each gate's summary added and numbered from
 * `next`, its `order/bytes` and the counter moved on.
 */
async function buildFold(
  ctx: LedgerContext,
  base: string,
  next: number,
  folds: readonly FoundFold[],
  summaries: Map<FoundFold, FoldedRecord>,
) {
  const remove: string[] = [];
  const files: { path: string; text: string }[] = [];
  const extra: { path: string; text: string }[] = [];
  const bytes = await readNamed(
    ctx.git,
    ctx.cwd,
    folds.map((f) => `${base}:${gateDir(f.ref)}/${ORDER_DIR}/${BYTES_FILE}`),
  );
  const sizes = bytes.map((blob) => parseCounter(blobText(blob)) ?? 0);
  const cuts = await buildCuts(ctx, base, next, folds, sizes);
  next += cuts.added;
  const parent = cuts.commit ?? base;
  let folded = 0;
  folds.forEach((fold, i) => {
    let size = sizes[i];
    for (const record of fold.fold.plan.fold) {
      const { path, seq } = fold.read.files.get(record)!;
      remove.push(path, orderPath(path, seq!));
      size -= entryBytes(posix.basename(path));
    }
    remove.push(...fold.sets);
    folded += fold.fold.plan.fold.length;
    const summary = fold.fold.summary(fold.sets.length, base);
    const path = `${gateDir(fold.ref)}/${recordFileName(summary)}`;
    const text = recordText(summary);
    summaries.set(fold, summary);
    files.push({ path, text });
    extra.push({ path: orderPath(path, next++), text: "" });
    size += entryBytes(posix.basename(path));
    extra.push({
      path: `${gateDir(fold.ref)}/${ORDER_DIR}/${BYTES_FILE}`,
      text: `${size}\n`,
    });
  });
  extra.push({ path: SEQ_PATH, text: `${next}\n` });
  const message = `chant-wave: fold ${folded} records of ${folds.length} gate${
    folds.length === 1 ? "" : "s"
  }`;
  const pruned = await pruneTrees(ctx.objects, parent, remove);
  const built = await buildCommit(ctx.git, ctx.cwd, {
    base: parent,
    files,
    extra,
    trees: pruned.trees,
    remove: pruned.remove,
    message,
    when: ctx.clock.now(),
  });
  return { ...built, message };
}

/**
 * The commit on `base` that adds each settled gate's revoke, numbered from
 * `next` (its `order/bytes` in `sizes` moved on, the counter too), if any
 * gate is settled.
 */
async function buildCuts(
  ctx: LedgerContext,
  base: string,
  next: number,
  folds: readonly FoundFold[],
  sizes: number[],
): Promise<{ commit?: string; added: number }> {
  const files: { path: string; text: string }[] = [];
  const extra: { path: string; text: string }[] = [];
  let added = 0;
  folds.forEach(({ ref, fold: { cut } }, i) => {
    if (cut === undefined) return;
    const path = `${gateDir(ref)}/${recordFileName(cut)}`;
    files.push({ path, text: recordText(cut) });
    extra.push({ path: orderPath(path, next + added++), text: "" });
    sizes[i] += entryBytes(posix.basename(path));
    extra.push({
      path: `${gateDir(ref)}/${ORDER_DIR}/${BYTES_FILE}`,
      text: `${sizes[i]}\n`,
    });
  });
  if (added === 0) return { added };
  extra.push({ path: SEQ_PATH, text: `${next + added}\n` });
  const built = await buildCommit(ctx.git, ctx.cwd, {
    base,
    files,
    extra,
    message: `chant-wave: settle ${added} gate${
      added === 1 ? "" : "s"
    } whose every approval was spent`,
    when: ctx.clock.now(),
  });
  return { commit: built.commit, added };
}

/** The names of the blobs in a folder (none when it is not there). */
async function blobNamesIn(
  ctx: LedgerContext,
  folder: string,
): Promise<string[]> {
  const out = await ctx.git.exec(["ls-tree", "-z", folder], { cwd: ctx.cwd });
  if (out.exitCode !== 0) return [];
  return new TextDecoder().decode(out.stdout).split("\0").flatMap((entry) => {
    const tab = entry.indexOf("\t");
    return tab > 0 && entry.slice(0, tab).split(" ")[1] === "blob"
      ? [entry.slice(tab + 1)]
      : [];
  });
}

function gateDir(ref: GateRef): string {
  return `gates/${ref.name}/${ref.gate}`;
}

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
): Promise<GateListing & { folded: Set<LedgerRecord> }> {
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
    "--depth=1",
  );
  return got.ok && await has();
}
