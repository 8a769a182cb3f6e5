/**
 * The edge that reads a sealed gate's signers file as committed at a base commit
 * (SPEC.md §12): never the working copy's, so a change cannot list its own key.
 * Read with plumbing (`treeEntryAt` for the entry, `cat-file` for its size and content),
 * bounded in size; a link or anything but a regular file is refused. Parsing is
 * `parseAllowedSigners`'s job.
 * @module
 */

import type { Git } from "../git/git.ts";
import { readBlob, treeEntryAt } from "../git/tree_file.ts";
import { formatBytes } from "../limits.ts";
import {
  MAX_SIGNERS_FILE,
  parseAllowedSigners,
} from "../seal/allowed_signers.ts";
import type { SignersRef } from "../gate/approval_at_base.ts";
import type { SignersAtBase } from "../gate/judge_approvals.ts";

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
  const entry = await treeEntryAt(git, top, ref.sha, ref.path);
  if (entry.status === "absent") {
    return missing(`the gate is sealed, and there is no signers file ${where}`);
  }
  if (entry.status !== "entry") {
    return missing(
      `the gate is sealed, and the signers file ${where} is not a regular file`,
    );
  }
  const [line] = new TextDecoder().decode(
    await git.catFile("batch-check", [entry.oid], top),
  ).split("\n");
  const size = Number(line.split(" ")[2]);
  if (!(size <= MAX_SIGNERS_FILE)) {
    return missing(
      `the gate is sealed, and the signers file ${where} is larger than ${
        formatBytes(MAX_SIGNERS_FILE)
      }`,
    );
  }
  const text = new TextDecoder().decode(await readBlob(git, top, entry.oid));
  return { ref, status: "read", file: parseAllowedSigners(text) };
}
