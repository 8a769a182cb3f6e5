/**
 * Where a directory stands in its work tree, read from the file system without
 * starting git, when the repository has git's plain layout: the nearest `.git`
 * upwards is a folder of the current user with a valid `HEAD`, `objects/` and
 * `refs/`, no `commondir`, and a `config` that names no work tree, no include
 * and no `bare` other than `bare = false`; no folder on the way is itself a git
 * folder, and the way stays on one file system. That is the answer
 * `git rev-parse --show-toplevel --show-prefix` gives in the isolated
 * environment chant-wave runs git in (no `GIT_DIR`, `GIT_WORK_TREE` or
 * `GIT_CEILING_DIRECTORIES`, no global or system configuration). Anything else
 * (a linked worktree, a submodule's `.git` file, a bare repository, a folder of
 * another user that git may refuse) is left to git: the answer is then
 * `undefined`, never a guess.
 * @module
 */

import process from "node:process";
import { lstat, open, realpath, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";

/** Where a directory stands in its work tree. */
export interface Place {
  /** The work tree's top, a real path (as `git rev-parse --show-toplevel`). */
  top: string;
  /** The path from the top to the directory, `/`-ended, `""` at the top (as `--show-prefix`). */
  prefix: string;
}

/** A `HEAD` git reads as valid: a symbolic ref under `refs/`, or an object id. */
const HEAD = /^(?:ref: refs\/[^\n]+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/;

/** The most of a `HEAD` or `config` file read; a larger one is left to git. */
const MOST_BYTES = 64 * 1024;

/** The one `bare` line a plain clone's `config` holds. */
const NOT_BARE = /^\s*bare\s*=\s*false\s*(?:[#;].*)?$/i;

/**
 * Reads a small regular file (not through a link), or `undefined`.
 * @param path The file.
 * @returns Its text.
 */
async function smallFile(path: string): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile() || info.size > MOST_BYTES) return undefined;
  const handle = await open(path, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = new Uint8Array(MOST_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MOST_BYTES) return undefined;
    return new TextDecoder().decode(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Whether `config` says nothing that moves the work tree or reads another file. */
function plainConfig(text: string): boolean {
  return text.split("\n").every((line) =>
    !/worktree|include/i.test(line) &&
    (!/bare/i.test(line) || NOT_BARE.test(line))
  );
}

/** Whether `dotGit` (a real folder) is a git folder of the plain layout. */
async function plainGitFolder(dotGit: string): Promise<boolean> {
  const [head, objects, refs, commondir, config] = await Promise.all([
    smallFile(join(dotGit, "HEAD")),
    stat(join(dotGit, "objects")).catch(() => undefined),
    stat(join(dotGit, "refs")).catch(() => undefined),
    lstat(join(dotGit, "commondir")).catch(() => undefined),
    lstat(join(dotGit, "config")).catch(() => undefined)
      .then((info) =>
        info === undefined ? "" : smallFile(join(dotGit, "config"))
      ),
  ]);
  return head !== undefined && HEAD.test(head) &&
    objects?.isDirectory() === true && refs?.isDirectory() === true &&
    commondir === undefined && config !== undefined && plainConfig(config);
}

/**
 * Finds where `cwd` stands in its work tree from the file system (see the
 * module), or says it cannot tell.
 * @param cwd A directory.
 * @returns Its place, or `undefined` when git must be asked.
 * @example
 * ```ts
 * await plainPlace("/work/repo/deploy");
 * // { top: "/work/repo", prefix: "deploy/" }
 * ```
 */
export async function plainPlace(cwd: string): Promise<Place | undefined> {
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  const start = await realpath(cwd).catch(() => undefined);
  if (start === undefined) return undefined;
  const first = await stat(start).catch(() => undefined);
  if (!first?.isDirectory()) return undefined;
  for (let dir = start, here = first;;) {
    const dotGit = await lstat(join(dir, ".git")).catch(() => undefined);
    if (dotGit !== undefined) {
      const plain = dotGit.isDirectory() && dotGit.uid === uid &&
        here.uid === uid && await plainGitFolder(join(dir, ".git"));
      if (!plain) return undefined;
      const path = relative(dir, start);
      return { top: dir, prefix: path === "" ? "" : `${path}/` };
    }
    // A folder holding HEAD may be a git folder itself (a bare repository, or
    // the inside of `.git`): git's business.
    if (await lstat(join(dir, "HEAD")).catch(() => undefined)) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    const next = await stat(up).catch(() => undefined);
    if (next === undefined || next.dev !== first.dev) return undefined;
    dir = up;
    here = next;
  }
}
