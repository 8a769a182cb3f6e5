/**
 * Chooses the base commits (SPEC.md §4.4): `--base` (from the pipeline file);
 * else, for a push whose commit before CI names, the `base` field of the spec as
 * it was there, or that commit; else (no trusted commit before the change) every
 * commit of the chain rule. A base from the spec must be a strict ancestor of
 * HEAD, so a change can never choose its own base. It resolves revisions with
 * git and reads the spec before the change; it does not read any policy.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { isShallow, isStrictAncestor } from "../git/git_plumbing.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import { pushBefore } from "./push_before.ts";

import type { BaseRule } from "../gate/base_rule.ts";

export type { BaseRule } from "../gate/base_rule.ts";

/** The chosen base: one trusted commit, or every commit of the chain rule. */
export interface ResolvedBase {
  /**
   * The commits every rule is read at (the strictest wins), newest first, at
   * least one; one unless the chain rule chose them.
   */
  shas: string[];
  /** The first of `shas`: the base commit records and messages name. */
  sha: string;
  /** The rule that chose them. */
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
  /**
   * The commits of the chain rule from `parent` (`HEAD^1`) back, newest first
   * (see `baseChain`), then any the rule reads beside them, each with a label
   * for the log (the default branch's tip, the last trusted decision).
   */
  chain: (parent: string) => Promise<ChainVersion[]>;
  /** The spec's path from the top level, for the log. */
  specPath: string;
}

/** A commit the chain rule reads the rules at, and why when it is not on the chain. */
export interface ChainVersion {
  /** The commit's full sha. */
  sha: string;
  /** Why it is read though not on the first-parent chain (`main`, …). */
  label?: string;
}

/** The hint printed under a commit a shallow checkout lacks. */
export const FETCH_DEPTH_HINT =
  'hint: fetch the full history: `fetch-depth: 0` on GitHub and Forgejo, `GIT_DEPTH: "0"` on GitLab';

/**
 * Resolves the base by the rules of SPEC.md §4.4: `--base`; else, when CI names
 * a trusted commit before the push (a strict ancestor of HEAD), the spec's
 * `base` as it was there, or that commit itself; else the chain rule: every
 * version of the rules on the first-parent chain since the last recorded
 * decision, together with the bases those versions name, so no single commit of
 * the change's own history decides what governs it.
 * @param input The repository, HEAD, the flag, the environment, the readers.
 * @returns The base commits and the rule that chose them.
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
    return one(sha, "flag", `--base ${flag}`, []);
  }
  const warnings: string[] = [];
  const pushed = await trustedBefore(input, warnings);
  if ("sha" in pushed) {
    const fromSpec = await specBase(input, pushed.sha);
    if (fromSpec) return one(fromSpec.sha, "spec", fromSpec.reason, warnings);
    return one(pushed.sha, "push", "the commit before the push", warnings);
  }
  const parent = await git.resolveCommit("HEAD^1", top);
  if (parent === undefined) throw await noParent(input);
  const chain = await input.chain(parent);
  const named = await namedBases(input, chain.map((v) => v.sha));
  const labels = new Map<string, string | undefined>();
  for (const { sha, label } of chain) {
    if (!labels.has(sha)) labels.set(sha, label);
  }
  for (const sha of named) if (!labels.has(sha)) labels.set(sha, undefined);
  const shas = [...labels.keys()];
  const versions = shas.length === 1 ? "version" : "versions";
  const shown = shas.map((sha) => {
    const label = labels.get(sha);
    return label ? `${sha.slice(0, 12)} (${label})` : sha.slice(0, 12);
  });
  return {
    shas,
    sha: shas[0],
    rule: "chain",
    reason:
      `no trusted commit before this change (${pushed.why}); the strictest of ${shas.length} ${versions} of ${input.specPath} at ${
        shown.join(", ")
      }`,
    warnings,
  };
}

function one(
  sha: string,
  rule: BaseRule,
  reason: string,
  warnings: string[],
): ResolvedBase {
  return { shas: [sha], sha, rule, reason, warnings };
}

/**
 * The commit before the push, when CI names one that is a strict ancestor of
 * HEAD; else why there is none.
 */
async function trustedBefore(
  input: ResolveBaseInput,
  warnings: string[],
): Promise<{ sha: string } | { why: string }> {
  const said = await pushBefore(input.env);
  if ("none" in said) return { why: said.none };
  const fallback =
    "; reading every version of the rules since the last recorded decision instead";
  if ("ignored" in said) {
    warnings.push(`${said.ignored}${fallback}`);
    return { why: said.why };
  }
  const sha12 = said.sha.slice(0, 12);
  const sha = await input.git.resolveCommit(said.sha, input.top);
  if (sha === undefined) {
    warnings.push(
      `${said.source} ${sha12} is not in this checkout (a force push, or a shallow clone)${fallback}`,
    );
    return { why: "the commit before the push is not here" };
  }
  if (!await isStrictAncestor(input.git, input.top, sha, input.head)) {
    warnings.push(
      `${said.source} ${sha12} is not an ancestor of HEAD (a force push)${fallback}`,
    );
    return { why: "a force push" };
  }
  return { sha };
}

/**
 * The bases the spec names at the chain's commits: each must be a strict
 * ancestor of HEAD, as any base the spec names, and adds one more version to
 * read.
 */
async function namedBases(
  input: ResolveBaseInput,
  chain: readonly string[],
): Promise<string[]> {
  const named: string[] = [];
  for (const at of chain) {
    const fromSpec = await specBase(input, at);
    if (fromSpec) named.push(fromSpec.sha);
  }
  return named;
}

/** The base the spec names, as it was at `before`; checked to be a strict ancestor. */
async function specBase(
  input: ResolveBaseInput,
  before: string,
): Promise<{ sha: string; reason: string } | undefined> {
  const spec = await input.specAt(before);
  const rev = spec.status === "parsed" ? spec.spec.base : undefined;
  if (rev === undefined) return undefined;
  const what = `the spec's base "${rev}"`;
  const sha = await input.git.resolveCommit(rev, input.top);
  if (sha === undefined) throw await missing(input, what);
  if (!await isStrictAncestor(input.git, input.top, sha, input.head)) {
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
  return { sha, reason: `${what} (read at ${before.slice(0, 12)})` };
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
