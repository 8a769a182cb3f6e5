/**
 * Git plumbing on top of the `Git` seam, for callers that keep a branch without a
 * work tree and for base resolution (SPEC.md §4.4): read and move refs with
 * compare-and-swap, ask ancestry and whether the clone is shallow. Every
 * function runs git through
 * `Git.exec`/`Git.run` (no shell, isolated environment) and never touches the work
 * tree, the index or HEAD. It knows nothing of ledgers.
 * @module
 */

import { type Git, GitError } from "./git.ts";
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";

const decoder = new TextDecoder();
/** A full object id, SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The outcome of {@linkcode updateRef}. */
export type UpdateRefResult =
  | { ok: true }
  /** The ref was not at the expected old value (another writer moved it). */
  | { ok: false; reason: "moved"; stderr: string }
  /** A lock file is in the way (another git process, or a stale one). */
  | { ok: false; reason: "locked"; lockPath: string; stderr: string };

const LOCK_FILE = /Unable to create '([^']+\.lock)': File exists/;

/**
 * Moves `ref` to `newOid` only if it is still at `oldOid`: `update-ref` with the
 * old value, which git checks under the ref's lock (compare-and-swap).
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param ref The full ref name (`refs/heads/chant/ledger`).
 * @param newOid The new value.
 * @param oldOid The value it must have now; `undefined` means it must not exist.
 * @param message The reflog message.
 * @returns `ok`, or why it did not move (`moved`, or `locked` with the lock file).
 * @throws {GitError} On any other failure.
 */
export async function updateRef(
  git: Git,
  cwd: string,
  ref: string,
  newOid: string,
  oldOid: string | undefined,
  message = "chant-wave",
): Promise<UpdateRefResult> {
  const args = ["update-ref", "-m", message, ref, newOid, oldOid ?? ""];
  return await refUpdate(git, cwd, args);
}

async function refUpdate(
  git: Git,
  cwd: string,
  args: readonly string[],
): Promise<UpdateRefResult> {
  const out = await git.exec(args, { cwd });
  if (out.exitCode === 0) return { ok: true };
  const lock = LOCK_FILE.exec(out.stderr);
  if (lock) {
    return {
      ok: false,
      reason: "locked",
      lockPath: lock[1],
      stderr: out.stderr,
    };
  }
  if (
    /cannot lock ref|reference already exists|but expected/.test(out.stderr)
  ) {
    return { ok: false, reason: "moved", stderr: out.stderr };
  }
  throw new GitError(args, out.exitCode, out.stderr);
}

/**
 * Reads the values of some refs in one `cat-file --batch-check` (the command's
 * long-lived one, when it has it: no process of its own); refs that do not
 * exist are absent from the result.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param refs Full ref names (`refs/…`).
 * @returns Ref name → object id.
 * @throws {GitError} When git fails, or a name is not a full ref name.
 */
export async function readRefs(
  git: Git,
  cwd: string,
  refs: readonly string[],
): Promise<Map<string, string>> {
  for (const ref of refs) {
    if (!/^refs\/[^\s]+$/.test(ref)) {
      throw new GitError(
        ["cat-file", "--batch-check"],
        128,
        `not a ref: ${ref}`,
      );
    }
  }
  const out = decoder.decode(await git.catFile("batch-check", refs, cwd));
  const values = new Map<string, string>();
  out.split("\n").slice(0, refs.length).forEach((line, i) => {
    // `<oid> <type> <size>`, or `<name> missing`.
    const [oid, type] = line.split(" ");
    if (type !== "missing" && OBJECT_ID.test(oid)) values.set(refs[i], oid);
  });
  return values;
}

/**
 * Tells whether commit `ancestor` is reachable from `descendant` (or equal).
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param ancestor A commit.
 * @param descendant Another commit.
 * @returns `true` when `ancestor` is in `descendant`'s history.
 * @throws {GitError} When git fails (e.g. an unknown commit).
 */
export async function isAncestor(
  git: Git,
  cwd: string,
  ancestor: string,
  descendant: string,
): Promise<boolean> {
  if (ancestor === descendant) return true;
  const args = ["merge-base", "--is-ancestor", ancestor, descendant];
  const out = await git.exec(args, { cwd });
  if (out.exitCode === 0) return true;
  if (out.exitCode === 1) return false;
  throw new GitError(args, out.exitCode, out.stderr);
}

/**
 * The best common ancestor of two commits (`git merge-base a b`).
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param a A commit.
 * @param b Another commit.
 * @returns Its full sha; `undefined` when they share no history.
 * @throws {GitError} When git fails (e.g. an unknown commit).
 */
export async function mergeBase(
  git: Git,
  cwd: string,
  a: string,
  b: string,
): Promise<string | undefined> {
  const args = ["merge-base", a, b];
  const out = await git.exec(args, { cwd });
  if (out.exitCode === 1) return undefined;
  if (out.exitCode !== 0) throw new GitError(args, out.exitCode, out.stderr);
  return new TextDecoder().decode(out.stdout).trim();
}

/**
 * Tells whether `ancestor` is a strict ancestor of `descendant`: an ancestor, and
 * not the same commit.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param ancestor A full commit sha.
 * @param descendant A full commit sha.
 * @returns `true` when it is.
 * @throws {GitError} When git fails.
 */
export async function isStrictAncestor(
  git: Git,
  cwd: string,
  ancestor: string,
  descendant: string,
): Promise<boolean> {
  return ancestor !== descendant &&
    await isAncestor(git, cwd, ancestor, descendant);
}

/**
 * Which of `commits` are ancestors of (or the same as) one of `tips`, in one
 * walk: `git rev-list <commits> --not <tips>` lists every commit reachable from
 * them that is not from the tips, so those it does not list are. A tip may be
 * a revision such as `<sha>^@` (its parents: the strict ancestors of `<sha>`).
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param commits Full commit shas this checkout holds.
 * @param tips The revisions to reach them from.
 * @returns Those of `commits` that are.
 * @throws {GitError} When git fails.
 */
export async function ancestorsAmong(
  git: Git,
  cwd: string,
  commits: readonly string[],
  tips: readonly string[],
): Promise<Set<string>> {
  if (commits.length === 0) return new Set();
  const out = await git.run(["rev-list", ...commits, "--not", ...tips], {
    cwd,
  });
  const outside = new Set(out.split("\n"));
  return new Set(commits.filter((sha) => !outside.has(sha)));
}

/**
 * The commits of `commits` that no other of them descends from
 * (`git merge-base --independent`): the newest on each line of history.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param commits Full commit shas this checkout holds.
 * @returns Those commits, as a set.
 * @throws {GitError} When git fails.
 */
export async function independentCommits(
  git: Git,
  cwd: string,
  commits: readonly string[],
): Promise<Set<string>> {
  if (commits.length < 2) return new Set(commits);
  const out = await git.run(["merge-base", "--independent", ...commits], {
    cwd,
  });
  return new Set(out.split("\n").filter((line) => line !== ""));
}

/**
 * The commits where a shallow checkout's history is cut off (git's
 * `shallow` file: their parents are not fetched). A shallow fetch of another
 * branch (the git ledger's) lists its own commits there too, so a walk asks
 * whether the commit it stopped at is one.
 * @param git The git seam.
 * @param cwd A directory in the repository.
 * @returns Their full shas; empty for a complete history.
 * @throws {GitError} When git fails.
 */
export async function shallowCommits(
  git: Git,
  cwd: string,
): Promise<Set<string>> {
  const top = await git.topLevel(cwd);
  const dotGit = top === undefined
    ? undefined
    : await lstat(join(top, ".git")).catch(() => undefined);
  const folder = top !== undefined && dotGit?.isDirectory()
    ? join(top, ".git")
    : (await git.run(
      ["rev-parse", "--path-format=absolute", "--git-common-dir"],
      { cwd, memo: true },
    )).trim();
  const text = await readFile(join(folder, "shallow"), "utf8")
    .catch(() => "");
  return new Set(text.split("\n").filter((line) => line !== ""));
}

/**
 * Tells whether the checkout is a shallow clone (its history cut off).
 * @param git The git seam.
 * @param cwd A directory in the repository.
 * @returns `true` for a shallow clone.
 * @throws {GitError} When git fails.
 */
export async function isShallow(git: Git, cwd: string): Promise<boolean> {
  // git's plain layout: a shallow clone is one whose .git holds "shallow"
  // (no process; the chain rule asks this of every walk that ends at a root).
  const top = await git.topLevel(cwd);
  if (top !== undefined) {
    const dotGit = await lstat(join(top, ".git")).catch(() => undefined);
    if (dotGit?.isDirectory()) {
      return await lstat(join(top, ".git", "shallow")).then(
        () => true,
        () => false,
      );
    }
  }
  const out = await git.run(["rev-parse", "--is-shallow-repository"], {
    cwd,
    memo: true,
  });
  return out.trim() === "true";
}
