/**
 * Chooses the base commits (SPEC.md §4.4): `--base` (from the pipeline file);
 * else, for a push whose commit before CI names, the `base` field of the spec as
 * it was there, or that commit; else (no trusted commit before the change) every
 * commit of the chain rule. A base from the spec or `--base` never falls inside
 * the change: with a commit before the push it must be that commit or an
 * ancestor of it (else the commit before the push is read, with a warning);
 * with none, a revision relative to HEAD (`HEAD^1`, `@~2`, …) is ignored in
 * favour of the chain rule (`--base` outside CI excepted: it is the user's), and
 * any other must be a strict ancestor of HEAD. It resolves revisions with git
 * and reads the spec before the change; it does not read any policy.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import {
  isAncestor,
  isShallow,
  isStrictAncestor,
} from "../git/git_plumbing.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import { isRelativeRevision } from "../spec/relative_revision.ts";
import { isCiRun, pushBefore } from "./push_before.ts";

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
 * the change's own history decides what governs it. A base from `--base` or the
 * spec that would fall inside the change is not read (a warning says so).
 * @param input The repository, HEAD, the flag, the environment, the readers.
 * @returns The base commits and the rule that chose them.
 * @throws {InputError} Exit 2 when `--base` or the spec's base names no commit
 *   here, when a fixed base the spec names with no commit before the push is
 *   not a strict ancestor of HEAD, or when HEAD has no parent to fall back to.
 */
export async function resolveBase(
  input: ResolveBaseInput,
): Promise<ResolvedBase> {
  const { git, top, flag } = input;
  const before: string[] = [];
  const pushed = await trustedBefore(input, before);
  const warnings: string[] = [];
  if (flag !== undefined) {
    const sha = await git.resolveCommit(flag, top);
    if (sha === undefined) throw await missing(input, `--base "${flag}"`);
    const what = `--base "${flag}"`;
    if ("sha" in pushed) {
      if (await isAncestor(git, top, sha, pushed.sha)) {
        return one(sha, "flag", `--base ${flag}`, []);
      }
      warnings.push(insideTheChange(what, sha, pushed.sha));
    } else if (!isRelativeRevision(flag) || !isCiRun(input.env)) {
      return one(sha, "flag", `--base ${flag}`, []);
    } else warnings.push(relativeIgnored(what));
  }
  warnings.push(...before);
  if ("sha" in pushed) {
    const fromSpec = await specBase(input, pushed.sha, warnings);
    if (fromSpec) return one(fromSpec.sha, "spec", fromSpec.reason, warnings);
    return one(pushed.sha, "push", "the commit before the push", warnings);
  }
  const parent = await git.resolveCommit("HEAD^1", top);
  if (parent === undefined) throw await noParent(input);
  const chain = await input.chain(parent);
  const named = await namedBases(input, chain.map((v) => v.sha), warnings);
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
 * read; one relative to HEAD names a commit the change chose, and is ignored.
 */
async function namedBases(
  input: ResolveBaseInput,
  chain: readonly string[],
  warnings: string[],
): Promise<string[]> {
  const named: string[] = [];
  const ignored = new Set<string>();
  for (const at of chain) {
    const spec = await input.specAt(at);
    const rev = spec.status === "parsed" ? spec.spec.base : undefined;
    if (rev === undefined) continue;
    if (isRelativeRevision(rev)) {
      if (!ignored.has(rev)) {
        warnings.push(relativeIgnored(`the spec's base "${rev}"`));
      }
      ignored.add(rev);
      continue;
    }
    named.push(await strictAncestor(input, rev, at));
  }
  return named;
}

/**
 * The base the spec names, as it was at `before`, when it is that commit or an
 * ancestor of it; else `undefined`, with a warning (it falls inside the change,
 * or off HEAD's history: the commit before the push is read instead).
 */
async function specBase(
  input: ResolveBaseInput,
  before: string,
  warnings: string[],
): Promise<{ sha: string; reason: string } | undefined> {
  const spec = await input.specAt(before);
  const rev = spec.status === "parsed" ? spec.spec.base : undefined;
  if (rev === undefined) return undefined;
  const what = `the spec's base "${rev}"`;
  const sha = await input.git.resolveCommit(rev, input.top);
  if (sha === undefined) throw await missing(input, what);
  if (!await isAncestor(input.git, input.top, sha, before)) {
    warnings.push(insideTheChange(what, sha, before));
    return undefined;
  }
  return { sha, reason: `${what} (read at ${before.slice(0, 12)})` };
}

/** A fixed base a version of the spec names: a strict ancestor of HEAD, else exit 2. */
async function strictAncestor(
  input: ResolveBaseInput,
  rev: string,
  at: string,
): Promise<string> {
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
          at.slice(0, 12)
        }, before the change; set --base in the pipeline file to override it`,
      ],
    );
  }
  return sha;
}

/** The warning for a base that is not the commit before the push nor an ancestor of it. */
function insideTheChange(what: string, sha: string, before: string): string {
  return `${what} is ${
    sha.slice(0, 12)
  }, which is neither the commit before the push (${
    before.slice(0, 12)
  }) nor an ancestor of it: a change cannot choose its own base; reading the rules at the commit before the push instead`;
}

/** The warning for a base relative to HEAD with no commit before the push. */
function relativeIgnored(what: string): string {
  return `${what} is relative to HEAD, which the change chose, and no commit before this change is trusted: ignored; reading every version of the rules since the last recorded decision instead`;
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
