/**
 * The git ledger's first-parent history, read back from a tip a window of
 * commits at a time, every object checked against its name: each commit's
 * parents, its counter (`seq`) and one gate's tree and `order` tree. A commit
 * the clone lacks (a shallow fetch) is fetched by deepening the clone. Only
 * the ids come from `git rev-list`; each commit is then read by id, checked,
 * and must be the first parent its successor names, so nothing the clone's
 * files say is taken on trust. Private to the git ledger.
 * @module
 */

import { InputError } from "../../errors.ts";
import { commitFields, findEntry } from "../../git/object_id.ts";
import { diffTrees } from "../../git/tree_diff.ts";
import { fetchRef } from "../../git/git_transport.ts";
import { type BatchObject, blobText } from "./_objects.ts";
import { ORDER_DIR, parseCounter, SEQ_PATH } from "./_order.ts";
import { LEDGER_BRANCH, LEDGER_REF, type LedgerContext } from "./_sync.ts";

/** One commit of the walk, as the gate saw it. */
export interface CommitState {
  /** The commit. */
  oid: string;
  /** Its parents, as its (checked) content names them. */
  parents: string[];
  /** Its counter; absent on a branch without numbers. */
  seq?: number;
  /** The gate's tree; absent when the commit has no such gate. */
  gate?: BatchObject;
  /** The gate's `order` tree, if any. */
  order?: BatchObject;
}

/** Commits read per window (a 50,000-record gate's tree is 3 MB). */
const WINDOW = 8;
/** The first deepening of a shallow clone, doubled each time it is not enough. */
export const FIRST_DEEPEN = 64;

/**
 * Fetches `by` more commits of the branch's history into a shallow clone.
 * @param ctx The ledger's clone.
 * @param by How many commits more.
 * @returns Whether the fetch went through (never with no remote).
 */
export async function deepen(
  ctx: LedgerContext,
  by: number,
): Promise<boolean> {
  if (ctx.remote === undefined || ctx.tracking === undefined) return false;
  const got = await fetchRef(
    ctx.git,
    ctx.cwd,
    ctx.remote,
    LEDGER_REF,
    ctx.tracking,
    `--deepen=${by}`,
  );
  return got.ok;
}

/** The ids `git rev-list` gives back from `from` (first parents, at most `count`). */
async function listIds(
  ctx: LedgerContext,
  from: string,
  count: number,
): Promise<string[]> {
  const out = await ctx.git.exec(
    ["rev-list", "--first-parent", `--max-count=${count}`, from],
    { cwd: ctx.cwd },
  );
  if (out.exitCode !== 0) return [];
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
}

/**
 * Reads the commits from `from` back (first parents), checked, with the gate
 * `dir` of each: at most one window; none when the clone lacks `from`. Git
 * names the trees on the way (`cat-file --batch-check`, a hint only); each is
 * then read by id (each distinct one once), checked, and must be the entry its
 * checked parent names, else that commit is followed level by level.
 */
async function readWindow(
  ctx: LedgerContext,
  from: string,
  dir: string,
): Promise<CommitState[]> {
  const ids = await listIds(ctx, from, WINDOW);
  if (ids[0] !== from) ids.unshift(from);
  const parts = dir.split("/").filter(Boolean);
  const paths = [
    SEQ_PATH,
    ...parts.map((_, i) => parts.slice(0, i + 1).join("/")),
    `${dir}/${ORDER_DIR}`,
  ];
  const hints = await ctx.objects.sizes(
    ids.flatMap((id) => [`${id}^{tree}`, ...paths.map((p) => `${id}:${p}`)]),
  );
  const read = await ctx.objects.byId([
    ...ids,
    ...hints.flatMap((h) => h ? [h.oid] : []),
  ]);
  const states: CommitState[] = [];
  for (const [i, oid] of ids.entries()) {
    const commit = read.get(oid);
    if (commit?.type !== "commit") break;
    // A shortcut rev-list took (a graft, a replaced object) ends the window.
    if (i > 0 && states[i - 1].parents[0] !== oid) break;
    const fields = commitFields(commit.bytes);
    const at = hints.slice(
      i * (paths.length + 1),
      (i + 1) * (paths.length + 1),
    );
    const chain = [fields.tree, ...at.slice(1).map((h) => h?.oid)];
    const found = followed(read, chain, ["", ...paths]) ??
      await ctx.objects.at(oid, paths);
    states.push(stateOf(oid, fields.parents, found, parts.length));
  }
  await readBuckets(ctx, states);
  return states;
}

/**
 * Reads (and keeps, checked) the `order` buckets that change between
 * neighbours of a window, in one batch, so the walk reads none one by one.
 */
async function readBuckets(
  ctx: LedgerContext,
  states: readonly CommitState[],
): Promise<void> {
  const oids = new Set<string>();
  for (let i = 0; i + 1 < states.length; i++) {
    const [a, b] = [states[i + 1].order, states[i].order];
    if (a === undefined || b === undefined || a.oid === b.oid) continue;
    const { removed, added } = diffTrees(a.bytes, b.bytes, a.oid.length);
    for (const e of [...removed, ...added]) {
      if (e.mode === "40000") oids.add(e.oid);
    }
  }
  await ctx.objects.byId([...oids]);
}

/**
 * The objects of `paths` when every hinted id is the entry its parent names
 * (`undefined`: a hint was wrong or missing).
 */
function followed(
  read: ReadonlyMap<string, BatchObject>,
  chain: readonly (string | undefined)[],
  names: readonly string[],
): (BatchObject | undefined)[] | undefined {
  const root = chain[0] === undefined ? undefined : read.get(chain[0]);
  if (root?.type !== "tree") return undefined;
  const objects: (BatchObject | undefined)[] = [];
  // names[1] is `seq` (in the root); then the gate's folders, each in the last.
  for (let i = 1; i < names.length; i++) {
    const parent = i <= 2 ? root : objects[i - 2];
    const name = names[i].slice(names[i].lastIndexOf("/") + 1);
    const entry = parent?.type === "tree"
      ? findEntry(parent.bytes, name, parent.oid.length)
      : undefined;
    if (entry?.oid !== chain[i]) return undefined;
    const object = entry === undefined ? undefined : read.get(entry.oid);
    if (entry !== undefined && object === undefined) return undefined;
    objects.push(object);
  }
  return objects;
}

/** A commit's state from what its paths name: `seq`, the folders, `order`. */
function stateOf(
  oid: string,
  parents: string[],
  found: readonly (BatchObject | undefined)[],
  depth: number,
): CommitState {
  const state: CommitState = { oid, parents };
  const seq = parseCounter(blobText(found[0]));
  if (seq !== undefined) state.seq = seq;
  const gate = found[depth];
  const order = found[depth + 1];
  if (gate?.type === "tree") state.gate = gate;
  if (order?.type === "tree") state.order = order;
  return state;
}

/** The most times a walk deepens a shallow clone. */
const MAX_DEEPENS = 20;

/**
 * Walks the first-parent history back from `tip`, calling `visit` with each
 * commit and its parent, until `visit` says it is done or a commit has no
 * parent (then `visit` gets `undefined` for the parent).
 * @param ctx The ledger (its remote found).
 * @param tip The commit to start from.
 * @param dir The gate's folder, `gates/<name>/<gate>`.
 * @param visit Checks one commit against its parent; `true` ends the walk.
 * @returns How many commits were visited.
 * @throws {InputError} When the history is not in the clone and cannot be
 *   fetched, or an object does not hash to its name.
 */
export async function walkBack(
  ctx: LedgerContext,
  tip: string,
  dir: string,
  visit: (
    commit: CommitState,
    parent: CommitState | undefined,
  ) => Promise<boolean> | boolean,
): Promise<number> {
  let window = await readWindow(ctx, tip, dir);
  if (window.length === 0) {
    throw new InputError(
      `cannot read the ledger branch ${LEDGER_BRANCH}'s commit ${tip} in this clone`,
    );
  }
  let visited = 0;
  for (let i = 0;; i++) {
    if (i + 1 >= window.length) {
      const last = window[window.length - 1];
      if (last.parents.length === 0) {
        visited++;
        await visit(last, undefined);
        return visited;
      }
      const next = await readBefore(ctx, last, dir);
      window = [last, ...next];
      i = 0;
    }
    visited++;
    if (await visit(window[i], window[i + 1])) return visited;
  }
}

/** The window before `last`, deepening a shallow clone until it has it. */
async function readBefore(
  ctx: LedgerContext,
  last: CommitState,
  dir: string,
): Promise<CommitState[]> {
  let by = FIRST_DEEPEN;
  for (let tries = 0;; tries++) {
    const next = await readWindow(ctx, last.parents[0], dir);
    if (next.length > 0) return next;
    if (tries >= MAX_DEEPENS || !await deepen(ctx, by)) {
      throw new InputError(
        `cannot read the ledger branch ${LEDGER_BRANCH}'s history before ` +
          `${last.oid.slice(0, 12)}: its parent is not in this clone and ` +
          `cannot be fetched`,
      );
    }
    by *= 2;
  }
}
