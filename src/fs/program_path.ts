/**
 * Where the programs chant-wave starts for the gate (git, sqitch, the database
 * client) are found: in the absolute directories of `PATH` that lie outside
 * the checkout chant-wave runs in. The checkout is the change's: a directory
 * of it on `PATH` (a relative entry, or an install line that puts
 * `$PWD/.chant/bin` first) would let a file the change commits there run as
 * `psql` or `git` (SPEC.md §4.12). An edge over the file system; it knows
 * nothing of what the programs do.
 * @module
 */

import {
  accessSync,
  constants,
  existsSync,
  realpathSync,
  statSync,
} from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";

/**
 * The checkout around `cwd`: the real path of the nearest directory at or
 * above it that holds `.git`, else of `cwd` itself.
 * @param cwd Where chant-wave runs.
 * @returns An absolute real path.
 */
export function checkoutOf(cwd: string): string {
  const start = realOrSelf(cwd);
  for (let dir = start;; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/**
 * Whether `path` leads into `checkout` (its real path, links followed).
 * @param path An absolute path.
 * @param checkout The checkout, from {@linkcode checkoutOf}.
 * @returns True when the file or directory is the checkout or inside it.
 */
export function insideCheckout(path: string, checkout: string): boolean {
  const real = realOrSelf(path);
  return real === checkout || real.startsWith(checkout + sep);
}

/**
 * Why a program the spec names by a path may not run: the path leads into the
 * checkout. A name is looked up with {@linkcode programOnPath}, outside it.
 * @param what How the message names it (`the client`, `the program`).
 * @param program The program as the spec names it.
 * @param cwd Where a relative path resolves.
 * @param checkout The checkout, from {@linkcode checkoutOf}.
 * @returns `the program "./tofu" is inside the checkout, whose files the
 *   change chooses`, or undefined when it may run.
 */
export function programInCheckout(
  what: string,
  program: string,
  cwd: string,
  checkout: string,
): string | undefined {
  if (!program.includes("/")) return undefined;
  return insideCheckout(resolve(cwd, program), checkout)
    ? `${what} ${
      JSON.stringify(program)
    } is inside the checkout, whose files the change chooses`
    : undefined;
}

/**
 * The directories of `PATH` a program may come from: the absolute ones
 * outside the checkout, in order.
 * @param path The `PATH` variable.
 * @param checkout The checkout, from {@linkcode checkoutOf}.
 * @returns The directories.
 * @example
 * ```ts
 * trustedPath("/repo/.chant/bin:bin:/usr/bin", "/repo"); // ["/usr/bin"]
 * ```
 */
export function trustedPath(
  path: string | undefined,
  checkout: string,
): string[] {
  return (path ?? "").split(delimiter).filter((dir) =>
    isAbsolute(dir) && !insideCheckout(dir, checkout)
  );
}

/**
 * The first executable regular file `name` in the trusted directories.
 * @param name A program name (`git`, `psql`).
 * @param path The `PATH` variable.
 * @param checkout The checkout, from {@linkcode checkoutOf}.
 * @returns Its absolute path, or undefined when none is found.
 */
export function programOnPath(
  name: string,
  path: string | undefined,
  checkout: string,
): string | undefined {
  for (const dir of trustedPath(path, checkout)) {
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      if (insideCheckout(file, checkout)) continue;
      return file;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The real path of `path`, or `path` itself when it does not exist. */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
