/**
 * Chooses the base commit (SPEC.md §4.4): `--base` (from the pipeline file), else
 * the `base` field of the spec as it was before the change, else the commit
 * before the push, else `HEAD^1`. A base from the spec must be a strict ancestor
 * of HEAD, so a change can never choose its own base. It resolves revisions with
 * git and reads the spec before the change; it does not read any policy.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { isShallow, isStrictAncestor } from "../git/git_history.ts";
import type { BaseSpec } from "./base_spec.ts";
import { pushBefore } from "./push_before.ts";

/** Which rule chose the base. */
export type BaseRule = "flag" | "spec" | "push" | "parent";

/** The chosen base. */
export interface ResolvedBase {
  /** The base commit's full sha. */
  sha: string;
  /** The rule that chose it. */
  rule: BaseRule;
  /** The rule in words, for the log: `the commit before the push`. */
  reason: string;
  /** Lines to log as warnings (a push-before commit that could not be used). */
  warnings: string[];
}

/** What {@linkcode resolveBase} needs. */
export interface ResolveBaseInput {
  git: Git;
  /** The repository's top level. */
  top: string;
  /** HEAD's full sha. */
  head: string;
  /** `--base`, when given. */
  flag?: string;
  /** The environment (CI variables). */
  env: Record<string, string | undefined>;
  /** Reads the spec as it was at a commit. */
  specAt: (sha: string) => Promise<BaseSpec>;
}

/** The hint printed under a commit a shallow checkout lacks. */
export const FETCH_DEPTH_HINT =
  'hint: fetch the full history: `fetch-depth: 0` on GitHub and Forgejo, `GIT_DEPTH: "0"` on GitLab';

/**
 * Resolves the base by the rules of SPEC.md §4.4. The spec's `base` field is read
 * from the spec as it was before the change: at the commit before the push when CI
 * names a usable one (so a push of several commits cannot set it in its first
 * commit), else at `HEAD^1`.
 * @param input The repository, HEAD, the flag, the environment, the spec reader.
 * @returns The base and the rule that chose it.
 * @throws {InputError} Exit 2 when `--base` or the spec's base names no commit
 *   here, when the spec's base is not a strict ancestor of HEAD, or when HEAD has
 *   no parent to fall back to.
 */
export async function resolveBase(
  input: ResolveBaseInput,
): Promise<ResolvedBase> {
  const { git, top, flag } = input;
  if (flag !== undefined) {
    const sha = await git.resolveCommit(flag, top);
    if (sha === undefined) throw await missing(input, `--base "${flag}"`);
    return { sha, rule: "flag", reason: `--base ${flag}`, warnings: [] };
  }
  const warnings: string[] = [];
  const pushed = await usablePushBefore(input, warnings);
  const parent = await git.resolveCommit("HEAD^1", top);
  const before = pushed ?? parent;
  if (before !== undefined) {
    const fromSpec = await specBase(input, before);
    if (fromSpec) return { ...fromSpec, warnings };
  }
  if (pushed !== undefined) {
    return {
      sha: pushed,
      rule: "push",
      reason: "the commit before the push",
      warnings,
    };
  }
  if (parent === undefined) throw await noParent(input);
  return { sha: parent, rule: "parent", reason: "HEAD^1", warnings };
}

/** The commit before the push, when CI names one that is a strict ancestor of HEAD. */
async function usablePushBefore(
  input: ResolveBaseInput,
  warnings: string[],
): Promise<string | undefined> {
  const said = await pushBefore(input.env);
  if (said === undefined) return undefined;
  const fallback = "; judging the change against HEAD^1";
  if ("ignored" in said) {
    warnings.push(`${said.ignored}${fallback}`);
    return undefined;
  }
  const sha12 = said.sha.slice(0, 12);
  const sha = await input.git.resolveCommit(said.sha, input.top);
  if (sha === undefined) {
    warnings.push(
      `${said.source} ${sha12} is not in this checkout (a force push, or a shallow clone)${fallback}`,
    );
    return undefined;
  }
  if (!await isStrictAncestor(input.git, sha, input.head, input.top)) {
    warnings.push(
      `${said.source} ${sha12} is not an ancestor of HEAD (a force push)${fallback}`,
    );
    return undefined;
  }
  return sha;
}

/** The base the spec names, as it was at `before`; checked to be a strict ancestor. */
async function specBase(
  input: ResolveBaseInput,
  before: string,
): Promise<Omit<ResolvedBase, "warnings"> | undefined> {
  const spec = await input.specAt(before);
  const rev = spec.status === "parsed" ? spec.spec.base : undefined;
  if (rev === undefined) return undefined;
  const what = `the spec's base "${rev}"`;
  const sha = await input.git.resolveCommit(rev, input.top);
  if (sha === undefined) throw await missing(input, what);
  if (!await isStrictAncestor(input.git, sha, input.head, input.top)) {
    throw new InputError(
      `${what} is ${
        sha.slice(0, 12)
      }, which is not an ancestor of HEAD; a change cannot choose its own base`,
      [
        `the spec's base is read from the spec at ${
          before.slice(0, 12)
        }, before the change; set --base in the pipeline file to override it`,
      ],
    );
  }
  return {
    sha,
    rule: "spec",
    reason: `${what} (read at ${before.slice(0, 12)})`,
  };
}

async function missing(input: ResolveBaseInput, what: string) {
  return await isShallow(input.git, input.top)
    ? new InputError(
      `${what} is not in this checkout: it is a shallow clone`,
      [FETCH_DEPTH_HINT],
    )
    : new InputError(`${what} names no commit in this repository`);
}

async function noParent(input: ResolveBaseInput) {
  return await isShallow(input.git, input.top)
    ? new InputError(
      "HEAD^1 is not in this checkout: it is a shallow clone, so there is no base to read the policy at",
      [FETCH_DEPTH_HINT],
    )
    : new InputError(
      "HEAD has no parent commit, so there is no base to read the policy at",
      [
        "hint: pass --base HEAD to read the policy from the committed spec itself (for a first run only)",
      ],
    );
}
