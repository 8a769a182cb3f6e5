/**
 * The edge that reads the base (SPEC.md §4.4): finds the repository and HEAD,
 * resolves the base commit by its rules, and reads the spec file as it was there,
 * parsed once per commit. Every policy of a job (the gate now, other rules later)
 * is then decided purely from what this returns.
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
import { type BaseSpec, baseSpecOf, type ParseSpecFn } from "./base_spec.ts";
import { resolveBase, type ResolvedBase } from "./resolve_base.ts";

/** The inputs of {@linkcode readBase}. */
export interface ReadBaseOptions {
  git: Git;
  /** The working directory the spec path is relative to. */
  cwd: string;
  /** The spec file as the user named it (relative to `cwd`, or absolute). */
  specPath: string;
  /** `--base`, when given. */
  flag?: string;
  /** The environment (CI variables name the commit before the push). */
  env: Record<string, string | undefined>;
  /** The full spec parser (`parseSpec`). */
  parse: ParseSpecFn;
}

/** The base of a job: where it is, why, and the spec there. */
export interface BaseRead extends ResolvedBase {
  /** The spec at the base commit. */
  spec: BaseSpec;
  /** HEAD's full sha. */
  head: string;
  /** The repository's top level. */
  top: string;
  /** The spec file's path from the top level, `/`-separated (as read at base). */
  specPath: string;
  /** Reads the spec at another commit (a decision record's base), cached. */
  specAt(sha: string): Promise<BaseSpec>;
}

/**
 * Resolves the base of a job and reads the spec there. The working copy's spec
 * is never read, so a change cannot loosen the gates that guard it. The spec's
 * path is taken relative to the repository's top level after resolving symlinks
 * on both, so a spec or a working directory in a subdirectory works.
 * @param options The git seam, the paths, the flag, the environment, the parser.
 * @returns The base commit, the rule that chose it, the spec there and HEAD.
 * @throws {InputError} Exit 2 when `cwd` is not in a git work tree, when the spec
 * lies outside the repository, or when the base cannot be resolved (see
 * `resolveBase`).
 * @throws {GitError} When git fails otherwise (a bug or a broken repository).
 */
export async function readBase(options: ReadBaseOptions): Promise<BaseRead> {
  const { git, cwd, specPath } = options;
  const top = await git.topLevel(cwd);
  if (top === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: "${cwd}" is not in a git repository`,
      [
        "the policy is read from the spec as committed at the base commit",
      ],
    );
  }
  const head = await git.resolveCommit("HEAD", top);
  if (head === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: the repository has no commit yet`,
    );
  }
  const fromTop = await pathFromTop(top, resolve(cwd, specPath));
  if (fromTop === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: the spec is outside the repository "${top}"`,
    );
  }
  const cache = new Map<string, Promise<BaseSpec>>();
  // The spec is most often the same text at HEAD and at base: parsed once, and
  // both commits share the (read-only) result.
  const byText = new Map<string | undefined, BaseSpec>();
  const parsed = (text: string | undefined) => {
    let spec = byText.get(text);
    if (spec === undefined) {
      spec = baseSpecOf(text, specPath, options.parse);
      byText.set(text, spec);
    }
    return spec;
  };
  const specAt = (sha: string) => {
    let read = cache.get(sha);
    if (read === undefined) {
      read = git.showFile(sha, fromTop, top).then(parsed);
      cache.set(sha, read);
    }
    return read;
  };
  const base = await resolveBase({
    git,
    top,
    head,
    ...(options.flag === undefined ? {} : { flag: options.flag }),
    env: options.env,
    specAt,
  });
  return {
    ...base,
    spec: await specAt(base.sha),
    head,
    top,
    specPath: fromTop,
    specAt,
  };
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
