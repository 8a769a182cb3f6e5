/**
 * The chain rule of SPEC.md §4.4, for a change with no trusted commit before it
 * (a manual run, a new branch, a force push, a run outside CI): every commit on
 * the first-parent chain from `HEAD^1` back to, and including, the newest commit
 * at which the ledger records a decision made under a trusted base (in CI, one
 * the default branch holds), or back to the root, keeping those where a file that decides the gate changed, plus the
 * chain's oldest commit. Every rule is then read at each of them and the
 * strictest wins. This module walks git; which commits carry such decisions is
 * the caller's (the ledger's) answer.
 * A decision bounds the chain only at a strict ancestor of HEAD (one recorded
 * at HEAD itself never bounds its own chain), found over HEAD's whole
 * ancestry, not only the first-parent chain: the newest such decision on each
 * line of history is always read, so a history that walks around it through
 * another parent (a merge whose first parent is an unrelated history) still
 * meets it.
 * The versions it reads: the commits of the chain, over the spec and every
 * signers file the spec names at any of them, and beside them those bounding
 * decisions, the default branch's tip and the last trusted decision as a base
 * (§4.4, §12.1: the
 * newest commit the ledger records a trusted decision of the rollout at, read
 * before the job's first command, so that a commit pushed where no job ran
 * stays part of the change and neither loosens the rules nor changes its
 * author).
 * @module
 */

import { type Git, GitError } from "../git/git.ts";
import { InputError } from "../errors.ts";
import {
  ancestorsAmong,
  independentCommits,
  isStrictAncestor,
  shallowCommits,
} from "../git/git_plumbing.ts";
import { DEFAULT_SIGNERS } from "../spec/types.ts";
import { type BaseSpec, normalisePath } from "../gate/base_spec.ts";
import { defaultBranchName, defaultBranchTip } from "./default_branch.ts";
import { isCiRun } from "./push_before.ts";
import { type ChainVersion, FETCH_DEPTH_HINT } from "./resolve_base.ts";

/** What {@linkcode baseChain} needs. */
export interface ChainInput {
  git: Git;
  /** The repository's top level. */
  top: string;
  /** `HEAD^1`, full sha: where the chain starts. */
  parent: string;
  /** The files that decide the gate, from the top level (the spec, signers files). */
  paths: readonly string[];
  /**
   * The commits at which the ledger records a decision under a trusted base
   * that count (see {@linkcode chainBounds}): the walk stops at the first.
   */
  stops: ReadonlySet<string>;
}

/** The commits the rules are read at. */
export interface Chain {
  /** Newest first, without repeats. */
  commits: string[];
  /** Where the chain stopped: the newest commit with a trusted decision. */
  stop?: string;
  /** A commit of the walked chain is a merge: its other parents bring history. */
  merges?: true;
}

const PAGE = 1000;

/**
 * Finds the commits of the chain rule: one walk of the first-parent chain
 * from `parent`, a page at a time, to the first stop or the root, keeping the
 * commits before the stop where a path changed (against the first parent;
 * the root against nothing), then the stop, or the root when there is none.
 * @param input The repository, `HEAD^1`, the paths and the recorded decisions.
 * @returns The commits to read every rule at, newest first.
 * @throws {GitError} When git fails, or prints what no walk does.
 */
export async function baseChain(input: ChainInput): Promise<Chain> {
  const changed: string[] = [];
  let oldest = input.parent;
  let merges = false;
  for (let skip = 0;; skip += PAGE) {
    const page = await chainPage(
      input.git,
      input.top,
      input.parent,
      input.paths,
      skip,
    );
    for (const step of page) {
      oldest = step.sha;
      if (input.stops.has(step.sha)) {
        return {
          commits: [...new Set([...changed, step.sha])],
          stop: step.sha,
        };
      }
      if (step.changed) changed.push(step.sha);
      if (step.merge) merges = true;
    }
    if (page.length < PAGE) {
      const commits = [...new Set([...changed, oldest])];
      return merges ? { commits, merges } : { commits };
    }
  }
}

/**
 * Starts reading the first page of the first-parent chain from `parent`, which
 * {@linkcode baseChain} reads first whatever the stops: a caller that waits
 * for the ledger's decisions meanwhile starts it, and the walk takes the answer.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param parent `HEAD^1`, full sha.
 * @param paths The files that decide the gate, as the walk is given them.
 * @returns The page's commits, newest first.
 * @throws {GitError} When git fails.
 */
export async function firstChainPage(
  git: Git,
  top: string,
  parent: string,
  paths: readonly string[],
): Promise<ChainStep[]> {
  return await chainPage(git, top, parent, paths, 0);
}

/** One commit of the first-parent chain. */
export interface ChainStep {
  /** Its full sha. */
  sha: string;
  /** Whether one of the paths differs from its first parent (the root: exists). */
  changed: boolean;
  /** Whether it has more than one parent. */
  merge: boolean;
}

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * One page of the first-parent chain from `parent`, newest first, each commit
 * with whether it changed one of `paths`: every commit of the walk is listed
 * (`--full-history --sparse`), each with its raw diff against its first parent
 * limited to the paths (`-m` for a merge, `--root` for the root), which is
 * empty exactly where `git log --first-parent -- <paths>` leaves the commit
 * out. The options the clone's settings could change are given explicitly
 * (`diff.relative` changes nothing at the top level, where it runs).
 */
async function chainPage(
  git: Git,
  top: string,
  parent: string,
  paths: readonly string[],
  skip: number,
): Promise<ChainStep[]> {
  const args = [
    "--literal-pathspecs",
    "log",
    "--first-parent",
    "--full-history",
    "--sparse",
    "-m",
    "--root",
    "--no-renames",
    "--ignore-submodules=none",
    "--no-color",
    "--no-show-signature",
    "--no-abbrev",
    "--raw",
    "--format=%H %P",
    `--max-count=${PAGE}`,
    `--skip=${skip}`,
    parent,
    "--",
    ...paths,
  ];
  const out = await git.run(args, { cwd: top, memo: true });
  const page: ChainStep[] = [];
  for (const line of out.split("\n")) {
    // `<sha> <parents…>`; a root has none (`<sha> `).
    const [sha, ...rest] = line.split(" ");
    const parents = rest.filter((p) => p !== "");
    if (FULL_SHA.test(sha) && parents.every((p) => FULL_SHA.test(p))) {
      page.push({ sha, changed: false, merge: parents.length > 1 });
    } else if (line.startsWith(":") && page.length > 0) {
      page[page.length - 1].changed = true;
    } else if (line !== "") {
      throw new GitError(args, 0, `it printed an unexpected line: ${line}`);
    }
  }
  return page;
}

/**
 * A chain that ran to its oldest commit without a trusted decision must have
 * reached the history's real root: in a shallow checkout that commit is only
 * the edge of what was fetched, and the versions before it (the rules the
 * change started from, a decision) are missing, so the change's own commits
 * would be the whole chain. Exit 2 with the fetch-depth hint.
 * @throws {InputError} In a shallow checkout.
 */
async function refuseShallowEdge(
  git: Git,
  top: string,
  chain: Chain,
): Promise<void> {
  const oldest = chain.commits.at(-1) ?? "";
  if (!(await shallowCommits(git, top)).has(oldest)) return;
  throw new InputError(
    `the chain of versions reaches ${
      oldest.slice(0, 12)
    }, and the versions before it are not in this checkout: it is a shallow clone, so the rules the change started from cannot be read`,
    [FETCH_DEPTH_HINT],
  );
}

/**
 * With no trusted decision anywhere in HEAD's history and other history merged
 * into the first-parent chain, HEAD's history must grow from one root: a first-parent
 * history of the change's own (an unrelated root merged with the real one as
 * another parent) would otherwise be the whole chain, its rules and its
 * rollout name the change's. Which side of such a merge holds the merged
 * rules cannot be told without a decision, so the job stops.
 * @throws {InputError} Exit 2 naming the roots.
 */
async function refuseUnrelatedHistories(
  git: Git,
  top: string,
  head: string,
): Promise<void> {
  const args = ["rev-list", "--max-parents=0", head];
  const roots = (await git.run(args, { cwd: top, memo: true })).split("\n")
    .filter((line) => line !== "");
  if (roots.length <= 1) return;
  throw new InputError(
    `HEAD's history joins ${roots.length} unrelated histories (roots ${
      roots.slice(0, 3).map((sha) => sha.slice(0, 12)).join(", ")
    }${
      roots.length > 3 ? ", …" : ""
    }) and the ledger records no trusted decision in it, so which of them holds the merged rules cannot be told`,
    [
      "run the wave's push job first (it reads the commit before the push), then run this job again",
    ],
  );
}

/** Which recorded decisions count as bounds of the chain (SPEC.md §4.4). */
export type Counted =
  /** Those the default branch holds: its tip, full sha. */
  | { tip: string }
  /** Every one (a run outside CI). */
  | "all"
  /** None (CI names no default branch). */
  | "none";

/** The recorded trusted decisions that bound a chain. */
export interface ChainBounds {
  /** Every one that counts: the chain's walk stops at the first it meets. */
  stops: Set<string>;
  /**
   * Those no other that counts descends from, newest recorded first: the
   * newest on each line of HEAD's history, each always read.
   */
  newest: string[];
}

/**
 * The recorded trusted decisions that bound HEAD's chain: each a strict
 * ancestor of HEAD (a decision at HEAD itself never bounds its own chain),
 * over HEAD's whole ancestry, that counts (in CI, one the default branch
 * holds: a record is only as trusted as the ledger's write access). Three git
 * walks whatever the number of decisions (the ledger keeps at most a hundred).
 * @param git The git seam.
 * @param top The repository's top level.
 * @param head HEAD's full sha.
 * @param decided The decision heads, oldest first.
 * @param counted Which count.
 * @returns Every one that counts, and the newest of them on each line.
 * @throws {GitError} When git fails.
 */
export async function chainBounds(
  git: Git,
  top: string,
  head: string,
  decided: readonly string[],
  counted: Counted,
): Promise<ChainBounds> {
  if (counted === "none") return { stops: new Set(), newest: [] };
  const here: string[] = [];
  for (const sha of [...decided].reverse()) {
    const resolved = await git.resolveCommit(sha, top);
    if (resolved !== undefined && resolved !== head) here.push(resolved);
  }
  const newestFirst = [...new Set(here)];
  let stops = await ancestorsAmong(git, top, newestFirst, [`${head}^@`]);
  if (counted !== "all") {
    stops = await ancestorsAmong(git, top, [...stops], [counted.tip]);
  }
  const independent = await independentCommits(git, top, [...stops]);
  return {
    stops,
    newest: newestFirst.filter((sha) => independent.has(sha)),
  };
}

/**
 * The newest recorded trusted decision that is a strict ancestor of HEAD in
 * this checkout.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param head HEAD's full sha.
 * @param decided The decision heads, oldest first.
 * @returns Its full sha, or `undefined` when none is (or the checkout lacks them).
 */
export async function lastDecidedAncestor(
  git: Git,
  top: string,
  head: string,
  decided: readonly string[],
): Promise<string | undefined> {
  for (const sha of [...decided].reverse()) {
    const resolved = await git.resolveCommit(sha, top);
    if (
      resolved !== undefined &&
      await isStrictAncestor(git, top, resolved, head)
    ) return resolved;
  }
  return undefined;
}

/**
 * The commits of the chain rule, over the spec and every signers file the
 * spec names at any of them (a newly named file widens the search once more).
 * @param git The git seam.
 * @param top The repository's top level.
 * @param parent `HEAD^1`: where the chain starts.
 * @param specPath The spec's path from the top level.
 * @param specAt Reads the spec at a commit.
 * @param options The environment and the recorded decisions.
 * @returns The versions to read the rules at, newest first, then those beside.
 * @throws {InputError} When the default branch the forge names cannot be had.
 */
export async function chainCommits(
  git: Git,
  top: string,
  parent: string,
  specPath: string,
  specAt: (sha: string) => Promise<BaseSpec>,
  options: {
    env: Record<string, string | undefined>;
    /** HEAD's full sha. */
    head: string;
    /** The recorded trusted decision heads of HEAD's rollout, oldest first. */
    decided: () => Promise<readonly string[]>;
    /**
     * Whether `decided` read the ledger (a read of the base before the
     * ledger is chosen has none: it refuses nothing for want of one).
     */
    ledgerRead?: boolean;
    /** Read a chain that ends at a shallow checkout's edge (else refused). */
    shallowChain?: "read";
  },
): Promise<ChainVersion[]> {
  // The chain's first page is read while the ledger is (its failure reaches
  // the walk, which asks again).
  const paths = new Set([specPath, DEFAULT_SIGNERS]);
  firstChainPage(git, top, parent, [...paths]).catch(() => {});
  const decided = await options.decided();
  const beside = await besideTheChain(git, top, decided, options.env);
  const tip = beside.find((version) => version.label !== LAST_DECISION)?.sha;
  // A decision record is only as trusted as the ledger's write access: in CI a
  // decision counts when the forge's default branch holds its commit (merged
  // rules), and none does when the forge names no default branch.
  const inCi = isCiRun(options.env);
  const bounds = await chainBounds(
    git,
    top,
    options.head,
    decided,
    tip !== undefined ? { tip } : inCi ? "none" : "all",
  );
  for (;;) {
    const chain = await baseChain({
      git,
      top,
      parent,
      paths: [...paths],
      stops: bounds.stops,
    });
    if (chain.stop === undefined && options.shallowChain === undefined) {
      await refuseShallowEdge(git, top, chain);
    }
    const commits = chain.commits;
    const before = paths.size;
    for (const sha of commits) {
      const spec = await specAt(sha);
      const signers = spec.status === "parsed"
        ? normalisePath(spec.spec.signers)
        : undefined;
      if (signers !== undefined) paths.add(signers);
    }
    if (paths.size === before) {
      const read = new Set(commits);
      const more = [
        ...bounds.newest.map((sha) => ({ sha, label: BOUND })),
        ...beside,
      ].filter((version) => {
        if (read.has(version.sha)) return false;
        read.add(version.sha);
        return true;
      });
      if (
        options.ledgerRead === true && bounds.stops.size === 0 &&
        (chain.merges === true ||
          await git.resolveCommit(`${options.head}^2`, top) !== undefined)
      ) {
        await refuseUnrelatedHistories(git, top, options.head);
      }
      return [...commits.map((sha) => ({ sha })), ...more];
    }
  }
}

/**
 * What the chain rule reads beside the first-parent chain, whose history the
 * change chose: the tip of the default branch the forge names (the merged
 * configuration), and the newest commit the ledger records a trusted decision
 * at, when this checkout has it. Reading more versions never loosens anything.
 */
async function besideTheChain(
  git: Git,
  top: string,
  decided: readonly string[],
  env: Record<string, string | undefined>,
): Promise<ChainVersion[]> {
  const beside: ChainVersion[] = [];
  const branch = await defaultBranchName(env);
  if (branch !== undefined) {
    beside.push({
      sha: await defaultBranchTip(git, top, branch),
      label: branch,
    });
  }
  const newest = decided.at(-1);
  const sha = newest && await git.resolveCommit(newest, top);
  if (sha) beside.push({ sha, label: LAST_DECISION });
  return beside;
}

/** How the log names the newest trusted decision read beside the chain. */
const LAST_DECISION = "the last trusted decision";
/** How the log names a decision that bounds the chain, read beside it. */
const BOUND = "a trusted decision before HEAD";
