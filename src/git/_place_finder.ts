/**
 * Where a directory stands in its work tree (its top level and the path to
 * it), asked of git once per directory however many ask at the same time: it
 * does not move while chant-wave runs. Private to the git seam.
 * @module
 */

import { GitError } from "./git_error.ts";
import type { GitOutput } from "./_spawn_git.ts";

const decoder = new TextDecoder();

function notInWorkTree(stderr: string): boolean {
  return /not a git repository|must be run in a work tree/.test(stderr);
}

/** Where a directory stands in its work tree. */
export interface Place {
  top: string;
  prefix: string;
}

/**
 * Makes the finder of one git seam.
 * @param exec Runs git (its result whatever the exit code).
 * @returns The place of a directory, `undefined` outside a work tree.
 */
export function placeFinder(
  exec: (args: readonly string[], o: { cwd: string }) => Promise<GitOutput>,
): (cwd: string) => Promise<Place | undefined> {
  const places = new Map<string, Promise<Place | undefined>>();
  const find = async (cwd: string) => {
    const args = ["rev-parse", "--show-toplevel", "--show-prefix"];
    const out = await exec(args, { cwd });
    if (out.exitCode === 0) {
      const [top, prefix] = decoder.decode(out.stdout).split("\n");
      return { top, prefix };
    }
    if (notInWorkTree(out.stderr)) return undefined;
    throw new GitError(args, out.exitCode, out.stderr);
  };
  return (cwd) => {
    const known = places.get(cwd);
    if (known !== undefined) return known;
    const asked = find(cwd);
    places.set(cwd, asked);
    // A failure is not kept: the next question asks git again.
    asked.then((place) => {
      if (place === undefined) places.delete(cwd);
    }, () => places.delete(cwd));
    return asked;
  };
}
