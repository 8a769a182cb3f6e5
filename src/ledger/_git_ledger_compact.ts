/**
 * Compacting the git ledger (docs/ledger.md, "Compacting the ledger"): one commit that
 * removes from the tip's tree what `planFold` says no decision reads again (the
 * record files, their sequence entries, the plan sets only they name) and adds
 * each gate's `folded` summary, numbered like any record. When it settles, a
 * commit before that one adds the revoke of each gate `spentCut` says may be
 * cut, numbered like any record, so the fold goes through a revoke its
 * parent holds (as `_git_ledger_history.ts` checks a fold); both are pushed
 * at once. It is pushed by the
 * same compare-and-swap as every write and rebuilt on a lost race; only
 * records numbered before the first attempt read the branch may fold, so a
 * record written meanwhile never does. The folded files stay in the tree of
 * the commit the summary names (the branch's history), which `ledger log`
 * reads. Private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import type { GateRef } from "./ledger_store.ts";
import type { CompactOptions, CompactReport } from "./ledger_store.ts";
import { buildCommit } from "./_git_ledger_commit.ts";
import { blobText, readNamed } from "./_git_ledger_objects.ts";
import {
  BYTES_FILE,
  entryBytes,
  ORDER_DIR,
  orderPath,
  parseCounter,
  SEQ_PATH,
} from "./_git_ledger_order.ts";
import { pruneTrees } from "./_git_ledger_prune.ts";
import { commitWithRetry } from "./_git_ledger_publish.ts";
import {
  type GateReadAt,
  listGatesAt,
  readGateAt,
} from "./_git_ledger_read.ts";
import { LEDGER_BRANCH, type LedgerContext } from "./_git_ledger_sync.ts";
import { foldedFields, type FoldPlan, planFold } from "../gate/plan_fold.ts";
import { parseRecord } from "../gate/parse_record.ts";
import { planSetFileName } from "../gate/plan_set_file.ts";
import { randomHex } from "../gate/random_hex.ts";
import { cutRevoke, settlingDigests, spentCut } from "../gate/spent_cut.ts";
import { readSetsAt } from "./_git_ledger_mark.ts";
import {
  type ExpiredRecord,
  formatRecord,
  type LedgerRecord,
  newRecord,
  newStamp,
} from "../gate/records.ts";
import { recordFileName } from "../gate/record_name.ts";

/** One gate's fold, as found at a tip. */
interface GateFold {
  ref: GateRef;
  plan: FoldPlan;
  read: GateReadAt;
  /** The paths of the plan sets that fold. */
  sets: string[];
  /** The revoke that settles the gate first, if it is settled. */
  cut?: ExpiredRecord;
}

/**
 * Folds the chosen gates in one commit (see the module).
 * @param ctx The ledger (its remote found).
 * @param options Which gates, and whether only to say what would fold.
 * @returns What folded, per gate.
 * @throws {InputError} When the remote refuses.
 * @throws {OutcomeError} Exit 1 when other writers kept winning for the budget.
 */
export async function compactGit(
  ctx: LedgerContext,
  options: CompactOptions,
): Promise<CompactReport> {
  let upTo: number | undefined;
  let found: GateFold[] = [];
  let summaries = new Map<GateFold, LedgerRecord>();
  await commitWithRetry(ctx, async (base) => {
    found = [];
    summaries = new Map();
    if (base === undefined) return undefined;
    const [counter] = await readNamed(ctx.git, ctx.cwd, [
      `${base}:${SEQ_PATH}`,
    ]);
    const next = parseCounter(blobText(counter));
    // A branch written before numbers is numbered by its next write first.
    if (next === undefined) return undefined;
    upTo ??= next;
    found = await foldsAt(ctx, base, options, upTo);
    if (found.length === 0 || options.dryRun) return undefined;
    return await buildFold(ctx, base, next, found, summaries);
  });
  return {
    gates: found.map((fold) => {
      const summary = summaries.get(fold);
      return {
        ...fold.ref,
        records: fold.plan.fold.filter((r) => r.kind !== "folded").length,
        sets: fold.sets.length,
        ...(summary?.kind === "folded" ? { summary } : {}),
        ...(fold.cut === undefined ? {} : { settled: fold.cut }),
      };
    }),
  };
}

/** The folds of the chosen gates at `base`, of records numbered below `upTo`. */
async function foldsAt(
  ctx: LedgerContext,
  base: string,
  options: CompactOptions,
  upTo: number,
): Promise<GateFold[]> {
  const refs = options.gate !== undefined && options.name !== undefined
    ? [{ name: options.name, gate: options.gate }]
    : await listGatesAt(ctx.git, ctx.cwd, base, options.name);
  const folds: GateFold[] = [];
  for (const ref of refs) {
    const read = await readGateAt(ctx.objects, base, ref.name, ref.gate, {
      label: LEDGER_BRANCH,
      legacy: () => Promise.resolve(new Map()),
    });
    const dir = `gates/${ref.name}/${ref.gate}/sets`;
    const cut = options.settle
      ? await settling(ctx, base, ref, read.records, dir)
      : undefined;
    if (cut === undefined && options.settle === "only") continue;
    const plan = planFold(
      cut === undefined ? read.records : [...read.records, cut],
      (record) => {
        const seq = read.files.get(record)?.seq;
        return seq !== undefined && seq < upTo;
      },
      cut === undefined ? options.through : "newest",
    );
    if (plan === undefined) continue;
    // The folder listed once: a path through the gate's tree for each set
    // would read all of that tree each time.
    const there = new Set(await blobNamesIn(ctx, `${base}:${dir}`));
    const sets = [...plan.named].filter((d) => !plan.kept.has(d))
      .map(planSetFileName).filter((file) => there.has(file))
      .map((file) => `${dir}/${file}`);
    folds.push({ ref, plan, read, sets, ...(cut ? { cut } : {}) });
  }
  return folds;
}

/** The revoke that settles one gate at `base` (`spentCut`), if it may be cut. */
async function settling(
  ctx: LedgerContext,
  base: string,
  ref: GateRef,
  records: readonly LedgerRecord[],
  dir: string,
): Promise<ExpiredRecord | undefined> {
  const digests = settlingDigests(records);
  const sets = await readSetsAt(ctx.objects, base, dir, digests, LEDGER_BRANCH);
  const cut = spentCut(records, sets, ctx.clock.now());
  return cut && cutRevoke(ref, cut, randomHex(16, ctx.random));
}

/**
 * The commit of the folds on `base`: the folded files and their sequence
 * entries removed (each folder that loses some written again without them,
 * `_git_ledger_prune.ts`), each gate's summary added and numbered from
 * `next`, its `order/bytes` and the counter moved on.
 */
async function buildFold(
  ctx: LedgerContext,
  base: string,
  next: number,
  folds: readonly GateFold[],
  summaries: Map<GateFold, LedgerRecord>,
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
    for (const record of fold.plan.fold) {
      const { path, seq } = fold.read.files.get(record)!;
      remove.push(path, orderPath(path, seq!));
      size -= entryBytes(posix.basename(path));
    }
    remove.push(...fold.sets);
    folded += fold.plan.fold.length;
    const summary = newRecord(
      "folded",
      foldedFields(fold.plan, fold.sets.length, base),
      newStamp(ctx.clock, ctx.random),
    );
    const path = `${gateDir(fold.ref)}/${recordFileName(summary)}`;
    const text = formatRecord(summary);
    parseRecord(text, path);
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
  folds: readonly GateFold[],
  sizes: number[],
): Promise<{ commit?: string; added: number }> {
  const files: { path: string; text: string }[] = [];
  const extra: { path: string; text: string }[] = [];
  let added = 0;
  folds.forEach((fold, i) => {
    if (fold.cut === undefined) return;
    const path = `${gateDir(fold.ref)}/${recordFileName(fold.cut)}`;
    const text = formatRecord(fold.cut);
    parseRecord(text, path);
    files.push({ path, text });
    extra.push({ path: orderPath(path, next + added++), text: "" });
    sizes[i] += entryBytes(posix.basename(path));
    extra.push({
      path: `${gateDir(fold.ref)}/${ORDER_DIR}/${BYTES_FILE}`,
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
