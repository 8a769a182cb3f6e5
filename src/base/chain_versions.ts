/**
 * The versions the chain rule reads (SPEC.md §4.4): the commits of the chain,
 * over the spec and every signers file the spec names at any of them, each
 * stop a decision the ledger records (in CI, only at a commit the forge's
 * default branch holds), and beside them the default branch's tip and the last
 * trusted decision. An edge over git; the decisions are the caller's.
 * @module
 */

import type { Git } from "../git/git.ts";
import { isAncestor } from "../git/git_history.ts";
import { DEFAULT_SIGNERS } from "../spec/types.ts";
import { baseChain, firstChainPage } from "./base_chain.ts";
import { type BaseSpec, normalisePath } from "../gate/base_spec.ts";
import { defaultBranchName, defaultBranchTip } from "./default_branch.ts";
import type { ChainVersion } from "./resolve_base.ts";

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
    /** The recorded trusted decision heads of HEAD's rollout, oldest first. */
    decided: () => Promise<readonly string[]>;
  },
): Promise<ChainVersion[]> {
  // The chain's first page is read while the ledger is (its failure reaches
  // the walk, which asks again).
  firstChainPage(git, top, parent).catch(() => {});
  const decided = await options.decided();
  const stops = new Set(decided);
  const beside = await besideTheChain(git, top, decided, options.env);
  const tip = beside.find((version) => version.label !== LAST_DECISION)?.sha;
  // A decision record is only as trusted as the ledger's write access: in CI a
  // stop counts when the forge's default branch holds its commit (merged
  // rules), and none does when the forge names no default branch.
  const env = options.env;
  const inCi = Boolean(
    env.GITLAB_CI || env.GITHUB_ACTIONS || env.FORGEJO_ACTIONS ||
      env.GITEA_ACTIONS,
  );
  const merged = tip !== undefined
    ? (sha: string) => isAncestor(git, sha, tip, top)
    : inCi
    ? () => Promise.resolve(false)
    : undefined;
  const paths = new Set([specPath, DEFAULT_SIGNERS]);
  for (;;) {
    const chain = await baseChain({
      git,
      top,
      parent,
      paths: [...paths],
      stops,
      ...(merged ? { merged } : {}),
    });
    const before = paths.size;
    for (const sha of chain.commits) {
      const spec = await specAt(sha);
      const signers = spec.status === "parsed"
        ? normalisePath(spec.spec.signers)
        : undefined;
      if (signers !== undefined) paths.add(signers);
    }
    if (paths.size === before) {
      return [
        ...chain.commits.map((sha) => ({ sha })),
        ...beside.filter((v) => !chain.commits.includes(v.sha)),
      ];
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
