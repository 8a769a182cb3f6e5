/**
 * Where `chant-wave pipeline` writes, and whether its `--spec` works there: the
 * generated jobs run `chant-wave run --spec <that path>` from the repository root
 * on a runner, so the path must be relative and lead from the root to the spec.
 * @module
 */

import { realpath } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { isAbsolute, normalize, relative, resolve } from "@std/path";
import { InputError } from "../errors.ts";
import type { CliIo } from "./io.ts";

const WHY = "the generated jobs run it from the repository root";

/**
 * Finds the root the pipeline files go under and checks `--spec` against it:
 * `--out` when given, else the top level of the git work tree holding the
 * working directory, else the working directory.
 * @param file `--spec` as given.
 * @param out `--out`, when given.
 * @param io The working directory and git.
 * @returns The root, an absolute path.
 * @throws {InputError} When `--spec` is absolute, leads outside the root, or
 *   (without `--out`) is given from a directory below the repository root.
 */
export async function pipelineRoot(
  file: string,
  out: string | undefined,
  io: Pick<CliIo, "cwd" | "git">,
): Promise<string> {
  const cwd = await realpath(io.cwd).catch(() => io.cwd);
  const root = out !== undefined
    ? resolve(cwd, out)
    : await io.git.topLevel(cwd).catch(() => undefined) ?? cwd;
  const fromRoot = relative(root, resolve(cwd, file));
  const inside = fromRoot !== "" && !fromRoot.startsWith("..") &&
    !isAbsolute(fromRoot);
  if (isAbsolute(file)) {
    const instead = inside ? ` ("${fromRoot}")` : "";
    throw new InputError(
      `"--spec ${file}" is an absolute path: ${WHY}, so give the path from there${instead}`,
    );
  }
  const given = normalize(file);
  if (out === undefined ? !inside : given.startsWith("..")) {
    throw new InputError(
      `"--spec ${file}" is outside the repository root "${root}": ${WHY}, where it cannot be read`,
    );
  }
  if (out === undefined && given !== fromRoot) {
    throw new InputError(
      `"--spec ${file}" is not a path from the repository root "${root}": ${WHY}; run "chant-wave pipeline" there with "--spec ${fromRoot}"`,
    );
  }
  return root;
}
