/**
 * The chain rule of SPEC.md §4.4, for a change with no trusted commit before it
 * (a manual run, a new branch, a force push, a run outside CI): every commit on
 * the first-parent chain from `HEAD^1` back to, and including, the newest commit
 * at which the ledger records a decision made under a trusted base (in CI, one
 * the default branch holds), or back to the root, keeping those where a file that decides the gate changed, plus the
 * chain's oldest commit. Every rule is then read at each of them and the
 * strictest wins. This module walks git; which commits carry such decisions is
 * the caller's (the ledger's) answer.
 * @module
 */

import type { Git } from "../git/git.ts";

/** What {@linkcode baseChain} needs. */
export interface ChainInput {
  git: Git;
  /** The repository's top level. */
  top: string;
  /** `HEAD^1`, full sha: where the chain starts. */
  parent: string;
  /** The files that decide the gate, from the top level (the spec, signers files). */
  paths: readonly string[];
  /** Commits at which the ledger records a decision under a trusted base. */
  stops: ReadonlySet<string>;
  /**
   * Whether a stop's commit is merged (the default branch holds it); absent,
   * every stop counts.
   */
  merged?: (sha: string) => Promise<boolean>;
}

/** The commits the rules are read at. */
export interface Chain {
  /** Newest first, without repeats. */
  commits: string[];
  /** Where the chain stopped: the newest commit with a trusted decision. */
  stop?: string;
}

const PAGE = 1000;

/**
 * Finds the commits of the chain rule.
 * @param input The repository, `HEAD^1`, the paths and the recorded decisions.
 * @returns The commits to read every rule at, newest first.
 * @throws {GitError} When git fails.
 */
export async function baseChain(input: ChainInput): Promise<Chain> {
  const { stop, oldest } = await findStop(input);
  const range = stop === undefined
    ? [input.parent]
    : [input.parent, `^${stop}`];
  const changed = (await input.git.run([
    "--literal-pathspecs",
    "log",
    "--first-parent",
    "--format=%H",
    ...range,
    "--",
    ...input.paths,
  ], { cwd: input.top, memo: true })).split("\n").filter((line) => line !== "");
  const commits = [...new Set([...changed, stop ?? oldest])];
  return stop === undefined ? { commits } : { commits, stop };
}

/**
 * Starts reading the first page of the first-parent chain from `parent`, which
 * {@linkcode baseChain} reads first whatever the stops: a caller that waits
 * for the ledger's decisions meanwhile starts it, and the walk takes the answer.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param parent `HEAD^1`, full sha.
 * @returns The page's commits, newest first.
 * @throws {GitError} When git fails.
 */
export async function firstChainPage(
  git: Git,
  top: string,
  parent: string,
): Promise<string[]> {
  return await chainPage(git, top, parent, 0);
}

/** One page of the first-parent chain from `parent`, newest first. */
async function chainPage(
  git: Git,
  top: string,
  parent: string,
  skip: number,
): Promise<string[]> {
  const out = await git.run([
    "rev-list",
    "--first-parent",
    `--max-count=${PAGE}`,
    `--skip=${skip}`,
    parent,
  ], { cwd: top, memo: true });
  return out.split("\n").filter((line) => line !== "");
}

/** Walks the first-parent chain from `parent` to the first stop, or the root. */
async function findStop(
  input: ChainInput,
): Promise<{ stop?: string; oldest: string }> {
  let oldest = input.parent;
  for (let skip = 0;; skip += PAGE) {
    const page = await chainPage(input.git, input.top, input.parent, skip);
    for (const sha of page) {
      oldest = sha;
      if (input.stops.has(sha) && (await input.merged?.(sha) ?? true)) {
        return { stop: sha, oldest };
      }
    }
    if (page.length < PAGE) return { oldest };
  }
}
