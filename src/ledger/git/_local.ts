/**
 * The records only the local branch of the git ledger holds (written while
 * there was no remote), told apart from records the remote's tip lacks because
 * compaction folded them away, and the tree listings that find them. Private
 * to the git ledger.
 * @module
 */

import type { Git } from "../../git/git.ts";

/**
 * The record files of `local` that never reached the remote: those `base`
 * lacks, less those of the last commit `local` shares with `base`'s history
 * (`base` lacks those only because `ledger compact` folded them away, and
 * carrying them again would bring back what a revoke ended). A shallow clone
 * that finds no shared commit fetches the branch's whole history first, once;
 * branches with no history in common share nothing.
 * @param ctx The ledger: the git seam, the checkout, the remote (none: local mode).
 * @param base The remote's tip (`undefined`: none yet).
 * @param local The local branch.
 * @param deepen Fetches the branch's whole history.
 * @returns The files, sorted by path.
 * @throws {GitError} When git fails.
 */
export async function localOnlyFiles(
  ctx: { git: Git; cwd: string; remote?: string },
  base: string | undefined,
  local: string,
  deepen: () => Promise<void>,
): Promise<LedgerFile[]> {
  const { git, cwd } = ctx;
  const added = await addedFiles(git, cwd, base, local);
  if (added.length === 0 || base === undefined) return added;
  let common = await mergeBase(git, cwd, base, local);
  if (common === undefined && ctx.remote !== undefined) {
    await deepen();
    common = await mergeBase(git, cwd, base, local);
  }
  if (common === undefined) return added;
  const shared = new Set(
    (await blobsAt(git, cwd, common, ["gates/"], true)).map((b) => b.path),
  );
  return added.filter((file) => !shared.has(file.path));
}

/** The best common ancestor of two commits, if they have one here. */
async function mergeBase(
  git: Git,
  cwd: string,
  a: string,
  b: string,
): Promise<string | undefined> {
  const out = await git.exec(["merge-base", a, b], { cwd });
  const sha = new TextDecoder().decode(out.stdout).trim();
  return out.exitCode === 0 && sha !== "" ? sha : undefined;
}

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
 * @throws {GitError} When git fails.
 */
async function blobsAt(
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
 * @throws {GitError} When git fails.
 */
async function addedFiles(
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
