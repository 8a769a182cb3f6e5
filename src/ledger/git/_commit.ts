/**
 * Building the git ledger's next commit in one git process: `git fast-import`
 * writes the new record blobs, checks which paths the tip already holds, and
 * writes the trees and the commit on top of the tip, without touching any ref,
 * index or work tree (its scratch branch is reset before the import ends, so no
 * ref is written). Removing many files at once (compaction) writes each folder
 * that loses some again in one `git mktree --batch` (`pruneTrees`), at a cost
 * linear in the folders. Private to the git ledger; pushing is not its job.
 * @module
 */

import type { Git } from "../../git/git.ts";
import { InputError } from "../../errors.ts";
import { LEDGER_BRANCH } from "./_sync.ts";
import type { LedgerFile } from "./_local.ts";
import { GitError } from "../../git/git_error.ts";
import type { ObjectReader } from "./_objects.ts";

/**
 * A record file to add: new text (`optional`: left out when the tip has the
 * path already, whatever it holds), or a blob the repository already has.
 */
export type CommitFile =
  | { path: string; text: string; optional?: boolean }
  | LedgerFile;

/** What {@linkcode buildCommit} made. */
export interface BuiltCommit {
  /** The new commit's object id. */
  commit: string;
  /** Files the base did not have (0: the commit changes nothing; drop it). */
  added: number;
}

/** The identity of every ledger commit, so writes need no user configuration. */
const IDENTITY = "chant-wave <chant-wave@localhost>";
/** fast-import needs a branch name; it is reset before the end, never written. */
const SCRATCH = "refs/chant-wave/build";
const encoder = new TextEncoder();

/**
 * Builds a commit whose tree is `base`'s tree with `trees` set and `remove`
 * removed, plus `files`, with `base` as its only parent (a root commit without
 * one), in one `git fast-import` process. A file the base already holds with
 * the same content is not counted in `added`.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param options The tip to build on, the files, the message and the time.
 * @returns The commit and how many files it adds.
 * @throws {InputError} When a path of `files` holds other content at `base`.
 * @throws {GitError} When git fails.
 */
export async function buildCommit(
  git: Git,
  cwd: string,
  options: {
    base: string | undefined;
    files: readonly CommitFile[];
    /** Files written as they are, unchecked and uncounted (numbers, the counter). */
    extra?: readonly { path: string; text: string }[];
    /**
     * Folders the commit sets to a tree (compaction's, the pruning below),
     * parents first, before anything is removed or added.
     */
    trees?: readonly { path: string; oid: string }[];
    /** Paths the commit removes (compaction), before anything is added. */
    remove?: readonly string[];
    message: string;
    /** Milliseconds since the epoch, the commit's time. */
    when: number;
  },
): Promise<BuiltCommit> {
  const { base, files } = options;
  const chunks: Uint8Array[] = [];
  const put = (text: string) => chunks.push(encoder.encode(text));
  const texts = files.flatMap((file, i) => "text" in file ? [i] : []);
  for (const i of texts) {
    const bytes = encoder.encode((files[i] as { text: string }).text);
    put(`blob\nmark :${i + 1}\ndata ${bytes.length}\n`);
    chunks.push(bytes);
    put(`\nget-mark :${i + 1}\n`);
  }
  const extraMarks = new Map<string, number>();
  for (const { text } of options.extra ?? []) {
    if (extraMarks.has(text)) continue;
    const mark = files.length + 2 + extraMarks.size;
    extraMarks.set(text, mark);
    const bytes = encoder.encode(text);
    put(`blob\nmark :${mark}\ndata ${bytes.length}\n`);
    chunks.push(bytes);
    put("\n");
  }
  const commitMark = files.length + 1;
  const message = encoder.encode(`${options.message}\n`);
  const seconds = Math.floor(options.when / 1000);
  put(`reset ${SCRATCH}\n\ncommit ${SCRATCH}\nmark :${commitMark}\n`);
  put(`author ${IDENTITY} ${seconds} +0000\n`);
  put(`committer ${IDENTITY} ${seconds} +0000\n`);
  put(`data ${message.length}\n`);
  chunks.push(message);
  if (base !== undefined) put(`from ${base}\n`);
  for (const file of files) put(`ls ${quotePath(file.path)}\n`);
  for (const { path, oid } of options.trees ?? []) {
    put(`M 040000 ${oid} ${quotePath(path)}\n`);
  }
  for (const path of options.remove ?? []) put(`D ${quotePath(path)}\n`);
  files.forEach((file, i) => {
    const ref = "text" in file ? `:${i + 1}` : file.oid;
    put(`M 100644 ${ref} ${quotePath(file.path)}\n`);
  });
  for (const { path, text } of options.extra ?? []) {
    put(`M 100644 :${extraMarks.get(text)} ${quotePath(path)}\n`);
  }
  put(`reset ${SCRATCH}\n\nget-mark :${commitMark}\ndone\n`);
  const input = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    input.set(chunk, at);
    at += chunk.length;
  }
  // unpackLimit=0: keep the few objects as one small pack instead of spawning
  // unpack-objects to explode it (git's own gc --auto folds small packs later).
  const lines = (await git.run([
    "-c",
    "fastimport.unpackLimit=0",
    "fast-import",
    "--quiet",
    "--done",
  ], { cwd, input })).split("\n");
  const oids = files.map((file) => "text" in file ? "" : file.oid);
  texts.forEach((i, n) => oids[i] = lines[n]);
  let added = 0;
  files.forEach((file, i) => {
    const there = lines[texts.length + i] ?? "";
    if (there.startsWith("missing ")) return added++;
    const [mode, type, oid] = there.split("\t")[0].split(" ");
    if (type === "blob" && oid === oids[i] && /^1006[04]4$/.test(mode)) return;
    throw new InputError(
      `cannot record "${file.path}" in the ledger branch ${LEDGER_BRANCH}: ` +
        `a different record with that name is already there`,
    );
  });
  return { commit: lines[texts.length + files.length], added };
}

/** A path as fast-import reads it: double-quoted, with C-style escapes. */
function quotePath(path: string): string {
  let quoted = '"';
  for (const char of path) {
    const code = char.charCodeAt(0);
    if (char === "\\" || char === '"') quoted += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) {
      quoted += `\\${code.toString(8).padStart(3, "0")}`;
    } else quoted += char;
  }
  return `${quoted}"`;
}

/** What removing files from a tip's tree comes to, folder by folder. */
export interface PrunedTrees {
  /** Folders that keep some of their entries: each one's new tree, parents first. */
  trees: { path: string; oid: string }[];
  /**
   * Paths still to remove one by one: folders that keep none of their
   * entries (git drops a parent emptied by that) and files at the top.
   */
  remove: string[];
}

/** The type `git mktree` wants beside a mode: a folder, a submodule, a file. */
function typeOf(mode: string): string {
  const kind = parseInt(mode, 8) & 0o170000;
  return kind === 0o040000 ? "tree" : kind === 0o160000 ? "commit" : "blob";
}

/**
 * The names each folder loses, parents first; a folder that goes itself (it,
 * or a folder above it, is in `remove`) is left out. Paths at the top go to
 * `top`.
 */
function byFolder(remove: readonly string[], top: string[]) {
  const removed = new Set(remove);
  const folders = new Map<string, Set<string>>();
  for (const path of removed) {
    const cut = path.lastIndexOf("/");
    if (cut < 0) {
      top.push(path);
      continue;
    }
    const folder = path.slice(0, cut);
    const names = folders.get(folder) ?? new Set();
    folders.set(folder, names.add(path.slice(cut + 1)));
  }
  const goes = (folder: string) =>
    folder.split("/").some((_, i, parts) =>
      removed.has(parts.slice(0, i + 1).join("/"))
    );
  return [...folders].filter(([folder]) => !goes(folder)).sort(([a], [b]) =>
    a.split("/").length - b.split("/").length || (a < b ? -1 : a > b ? 1 : 0)
  );
}

/**
 * Works out the trees of `base`'s folders without the paths `remove` names
 * (one that is not there is left alone), and writes them (see the module).
 * Setting the trees, parents first, then removing `remove` of the answer,
 * leaves the tree that removing each path of `remove` would.
 * @param objects The clone's checked objects (the folders are read through it).
 * @param base The tip to remove from.
 * @param remove Paths from the top.
 * @returns The new trees and what is still to remove.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its name.
 */
export async function pruneTrees(
  objects: ObjectReader,
  base: string,
  remove: readonly string[],
): Promise<PrunedTrees> {
  const rest: string[] = [];
  const folders = byFolder(remove, rest);
  const found = await objects.at(base, folders.map(([path]) => path));
  const trees: { path: string; entries: string }[] = [];
  folders.forEach(([path, gone], i) => {
    const tree = found[i];
    if (tree?.type !== "tree") return;
    const kept = [...objects.entries(tree).values()]
      .filter((entry) => !gone.has(entry.name));
    if (kept.length === 0) return rest.push(path);
    trees.push({
      path,
      entries: kept.map(({ mode, oid, name }) =>
        `${mode} ${typeOf(mode)} ${oid}\t${name}\0`
      ).join(""),
    });
  });
  if (trees.length === 0) return { trees: [], remove: rest };
  // --missing: a submodule's commit is never here, and every entry comes from
  // a tree already checked, so there is nothing for mktree to look up.
  const args = ["mktree", "-z", "--missing", "--batch"];
  const out = await objects.git.run(args, {
    cwd: objects.cwd,
    input: trees.map((tree) => `${tree.entries}\0`).join(""),
  });
  const oids = out.split("\n").slice(0, trees.length);
  if (!oids.every((oid) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid))) {
    throw new GitError(args, 0, `unexpected output "${out.slice(0, 100)}"`);
  }
  return {
    trees: trees.map((tree, i) => ({ path: tree.path, oid: oids[i] })),
    remove: rest,
  };
}
