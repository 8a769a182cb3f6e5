/**
 * The edge that reads a wave's policy at base (SPEC.md §4.4): finds the repository,
 * resolves the base commit, reads the spec file as it was there and hands it to the
 * pure `policyAtBase`. It does not choose the base rev (the caller passes `--base`,
 * else the spec's `base`, else `HEAD^1`).
 * @module
 */

import { realpath } from "node:fs/promises";
import {
  basename,
  dirname,
  isAbsolute,
  relative,
  resolve,
  sep,
} from "node:path";
import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import {
  type ParseSpecFn,
  type PolicyAtBase,
  policyAtBase,
} from "./policy_at_base.ts";

/** The inputs of {@linkcode readPolicyAtBase}. */
export interface ReadPolicyOptions {
  /** The git seam. */
  git: Git;
  /** The working directory the spec path is relative to. */
  cwd: string;
  /** The spec file as the user named it (relative to `cwd`, or absolute). */
  specPath: string;
  /** The base rev: `--base`, else the spec's `base`, else `HEAD^1`. */
  base: string;
  /** The wave whose policy is wanted, by name. */
  waveName: string;
  /** The full spec parser (`parseSpec`). */
  parse: ParseSpecFn;
}

/** A policy read at base, with where it was read. */
export interface PolicyRead extends PolicyAtBase {
  /** The base commit's full sha. */
  baseSha: string;
  /** The spec's path from the repository's top level, `/`-separated. */
  specPathFromTop: string;
}

/** The hint printed under a base commit the checkout lacks. */
export const FETCH_DEPTH_HINT =
  'hint: fetch the full history: `fetch-depth: 0` on GitHub and Forgejo, `GIT_DEPTH: "0"` on GitLab';

/**
 * Reads a wave's policy from the spec as committed at the base commit. The working
 * copy's spec is never read, so a change cannot loosen the gate that guards it.
 * The spec's path is taken relative to the repository's top level after resolving
 * symlinks on both, so a spec or a working directory in a subdirectory works.
 * @param options The git seam, the paths, the base rev, the wave and the parser.
 * @returns The policy, its source and reason (see `policyAtBase`), the base's full
 * sha and the spec's path from the top level.
 * @throws {InputError} Exit 2 when `cwd` is not in a git work tree, when the spec
 * lies outside the repository, or when the checkout lacks the base commit (with the
 * `fetch-depth` hint).
 * @throws {GitError} When git fails otherwise (a bug or a broken repository).
 */
export async function readPolicyAtBase(
  options: ReadPolicyOptions,
): Promise<PolicyRead> {
  const { git, cwd, specPath, base } = options;
  const top = await git.topLevel(cwd);
  if (top === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: "${cwd}" is not in a git repository`,
      [
        "the policy is read from the spec as committed at the base commit (SPEC.md §4.4)",
      ],
    );
  }
  const baseSha = await git.resolveCommit(base, top);
  if (baseSha === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base "${base}": the checkout lacks that commit`,
      [FETCH_DEPTH_HINT],
    );
  }
  const specPathFromTop = await pathFromTop(top, resolve(cwd, specPath));
  if (specPathFromTop === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: the spec is outside the repository "${top}"`,
    );
  }
  const text = await git.showFile(baseSha, specPathFromTop, top);
  const decided = policyAtBase({
    text,
    file: specPath,
    parse: options.parse,
    waveName: options.waveName,
    base: baseSha,
  });
  return { ...decided, baseSha, specPathFromTop };
}

/**
 * `file` relative to `top`, `/`-separated, after resolving symlinks on both; a
 * missing file is resolved through its directory. `undefined` when outside `top`.
 */
async function pathFromTop(
  top: string,
  file: string,
): Promise<string | undefined> {
  const realTop = await realpath(top);
  const realFile = await realpath(file).catch(async () =>
    resolve(
      await realpath(dirname(file)).catch(() => dirname(file)),
      basename(file),
    )
  );
  const rel = relative(realTop, realFile);
  if (
    rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)
  ) {
    return undefined;
  }
  return rel.split(sep).join("/");
}
