/**
 * The edge that reads a sealed gate's signers file as committed at a base commit
 * (SPEC.md §12): never the working copy's, so a change cannot list its own key.
 * Read with plumbing (`ls-tree` for the entry and its size, then `cat-file`),
 * bounded in size; a link or anything but a regular file is refused. Parsing is
 * `parseAllowedSigners`'s job.
 * @module
 */

import type { Git } from "../git/git.ts";
import { formatBytes } from "../limits.ts";
import {
  type AllowedSigners,
  MAX_SIGNERS_FILE,
  parseAllowedSigners,
} from "../seal/allowed_signers.ts";
import type { SignersRef } from "./approval_at_base.ts";

/** A signers file as found at a commit. */
export type SignersAtBase =
  /** Read and parsed (its problems are lines left out). */
  | { ref: SignersRef; status: "read"; file: AllowedSigners }
  /** Absent, or unusable: `why` says so, and the gate counts no seal. */
  | { ref: SignersRef; status: "missing"; why: string };

/**
 * Reads the signers file `ref.path` at commit `ref.sha`.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param ref The commit and the path from the top level.
 * @returns The parsed file; or `missing` with the reason when no regular file
 *   of at most 1 MiB is at that path: `the gate is sealed, and there is no
 *   signers file <path> at <sha12>`, or why the entry there is refused.
 * @throws {GitError} When git fails (an unknown commit, a broken repository).
 */
export async function readSignersAt(
  git: Git,
  top: string,
  ref: SignersRef,
): Promise<SignersAtBase> {
  const where = `${ref.path} at ${ref.sha.slice(0, 12)}`;
  const missing = (why: string): SignersAtBase => ({
    ref,
    status: "missing",
    why,
  });
  const entry = await treeEntry(git, top, ref);
  if (entry === undefined) {
    return missing(`the gate is sealed, and there is no signers file ${where}`);
  }
  if (entry.type !== "blob" || entry.mode === "120000") {
    return missing(
      `the gate is sealed, and the signers file ${where} is not a regular file`,
    );
  }
  if (entry.size > MAX_SIGNERS_FILE) {
    return missing(
      `the gate is sealed, and the signers file ${where} is larger than ${
        formatBytes(MAX_SIGNERS_FILE)
      }`,
    );
  }
  const bytes = await git.runBytes(["cat-file", "blob", entry.oid], {
    cwd: top,
  });
  const text = new TextDecoder().decode(bytes);
  return { ref, status: "read", file: parseAllowedSigners(text) };
}

/** The entry at exactly `ref.path` in `ref.sha`: mode, type, object and size. */
async function treeEntry(
  git: Git,
  top: string,
  ref: SignersRef,
): Promise<
  { mode: string; type: string; oid: string; size: number } | undefined
> {
  const stdout = await git.run([
    "--literal-pathspecs",
    "ls-tree",
    "-l",
    "--full-tree",
    "-z",
    ref.sha,
    "--",
    ref.path,
  ], { cwd: top });
  for (const record of stdout.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0 || record.slice(tab + 1) !== ref.path) continue;
    const [mode, type, oid, size] = record.slice(0, tab).trim().split(/\s+/);
    return { mode, type, oid, size: size === "-" ? 0 : Number(size) };
  }
  return undefined;
}
