/**
 * The trees of the git ledger's branch: build a commit that adds record files on
 * top of a tip (through a temporary index in a temporary directory, never the
 * user's index), list the record files a tip holds that another lacks, and look up
 * which paths a tip already has. Private to the git ledger.
 * @module
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "../git/git_env.ts";
import type { Git } from "../git/git.ts";
import { commitTree } from "../git/git_plumbing.ts";

/** One record file on the ledger branch. */
export interface LedgerFile {
  /** `gates/<name>/<gate>/<file>.json`. */
  path: string;
  /** The blob's object id. */
  oid: string;
}

/** A blob as a tree lists it: its mode (`100644`, `120000` for a link) and size. */
export interface ListedBlob extends LedgerFile {
  /** The tree entry's mode. */
  mode: string;
  /** The blob's size in bytes. */
  size: number;
}

/** The identity of every ledger commit, so writes need no user configuration. */
export const LEDGER_IDENTITY: Env = {
  GIT_AUTHOR_NAME: "chant-wave",
  GIT_AUTHOR_EMAIL: "chant-wave@localhost",
  GIT_COMMITTER_NAME: "chant-wave",
  GIT_COMMITTER_EMAIL: "chant-wave@localhost",
};

/**
 * Builds a commit whose tree is `base`'s tree plus `files`, with `base` as its only
 * parent (a root commit without one). The tree is made in a fresh index file in a
 * temporary directory (`GIT_INDEX_FILE`: `read-tree`, `update-index --index-info`,
 * `write-tree`), removed afterwards; no ref moves.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param base The tip to build on, or `undefined` for the first commit.
 * @param files The files to add (an existing path is replaced: check first).
 * @param message The commit message.
 * @returns The new commit's object id.
 * @throws {GitError} When git fails.
 */
export async function buildCommit(
  git: Git,
  cwd: string,
  base: string | undefined,
  files: readonly LedgerFile[],
  message: string,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "chant-wave-ledger-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    if (base !== undefined) {
      await git.run(["read-tree", `${base}^{tree}`], { cwd, env });
    }
    const lines = files.map((file) => `100644 ${file.oid}\t${file.path}\n`);
    await git.run(["update-index", "--add", "--index-info"], {
      cwd,
      env,
      input: lines.join(""),
    });
    const tree = (await git.run(["write-tree"], { cwd, env })).trim();
    return await commitTree(git, cwd, {
      tree,
      parents: base === undefined ? [] : [base],
      message,
      env: LEDGER_IDENTITY,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Parses `ls-tree -l -z` output into blob entries (other entry types dropped). */
function lsTreeBlobs(stdout: string): ListedBlob[] {
  const files: ListedBlob[] = [];
  for (const entry of stdout.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, oid, size] = entry.slice(0, tab).split(/ +/);
    if (type === "blob") {
      files.push({ path: entry.slice(tab + 1), oid, mode, size: Number(size) });
    }
  }
  return files;
}

/**
 * Lists the blobs at or under some paths of a tip (`ls-tree -l -z`, literal
 * paths), with each entry's mode and size.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param tip A commit.
 * @param paths Paths from the top; a path ending in `/` lists that directory.
 * @param recursive Whether to list subdirectories' files too.
 * @returns The blobs found.
 * @throws {GitError} When git fails.
 */
export async function blobsAt(
  git: Git,
  cwd: string,
  tip: string,
  paths: readonly string[],
  recursive = false,
): Promise<ListedBlob[]> {
  const args = ["--literal-pathspecs", "ls-tree", "--full-tree", "-l", "-z"];
  if (recursive) args.push("-r");
  const stdout = await git.run([...args, tip, "--", ...paths], { cwd });
  return lsTreeBlobs(stdout);
}

/**
 * Lists the record files under `gates/` that `tip` has and `base` lacks: the
 * records a local branch holds that never reached the remote's.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param base The tip to compare with (`undefined`: an empty ledger).
 * @param tip The tip whose extra files are wanted.
 * @returns The added files, sorted by path.
 * @throws {GitError} When git fails.
 */
export async function addedFiles(
  git: Git,
  cwd: string,
  base: string | undefined,
  tip: string,
): Promise<LedgerFile[]> {
  if (base === undefined) {
    return (await blobsAt(git, cwd, tip, ["gates/"], true))
      .map(({ path, oid }) => ({ path, oid }));
  }
  const stdout = await git.run([
    "--literal-pathspecs",
    "diff-tree",
    "-r",
    "-z",
    "--no-renames",
    "--diff-filter=A",
    base,
    tip,
    "--",
    "gates/",
  ], { cwd });
  const parts = stdout.split("\0");
  const files: LedgerFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const fields = parts[i].split(" ");
    if (fields[1] === "100644" || fields[1] === "100755") {
      files.push({ path: parts[i + 1], oid: fields[3] });
    }
  }
  return files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
