/**
 * A sqitch project stays inside the checkout: chant-wave judges the bytes
 * sqitch shows at plan time, and psql reads the files again when it deploys,
 * so a project directory, or a script or directory in it, that is a link
 * leading out of the checkout would let a file the gate never weighed (or one
 * another process rewrites between the judgement and the deploy) run. Every
 * link in the project must lead to a file or directory inside the project,
 * and the project directory must be named by the path it is at (no link on
 * the way from the checkout): sqitch runs in where the links lead, and a
 * `..` after a link, undone by name, would name another place.
 * A link to a directory inside the project is not followed (what it leads to
 * is walked where it is). An edge over the file system.
 * @module
 */

import { readdir, readlink, realpath } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { insideCheckout } from "../fs/program_path.ts";

/** The most entries of a project walked for links. */
const MAX_ENTRIES = 100_000;

/**
 * Why the project may not be deployed from, or undefined when it may.
 * @param dir The project directory as sqitch is given it, made absolute but
 *   not normalized (`/repo/db/s/..`: the system follows `s` before `..`).
 * @param checkout The checkout chant-wave runs in (`checkoutOf`).
 * @returns `the project directory "/tmp/x" leads outside the checkout`, or
 *   `the project holds deploy/evil.sql, a link leading out of it (to /tmp/e.sql)`.
 */
export async function projectEscape(
  dir: string,
  checkout: string,
): Promise<string | undefined> {
  let root: string;
  try {
    root = await realpath(dir);
  } catch {
    return undefined; // Said by sqitch, which cannot read it either.
  }
  if (!insideCheckout(root, checkout)) {
    return `the project directory ${
      JSON.stringify(dir)
    } leads outside the checkout`;
  }
  // sqitch's --chdir, and so psql's directory, is where the links lead; a path
  // through one, read as text (`..` undone by name), would be another place.
  const named = join(
    await realpath(checkout).catch(() => checkout),
    relative(checkout, resolve(dir)),
  );
  if (root !== named) {
    return `the project directory ${
      JSON.stringify(dir)
    } is reached through a link (it is ${
      JSON.stringify(relative(checkout, root) || ".")
    }): name it by the path it is at`;
  }
  const pending = [root];
  let seen = 0;
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (++seen > MAX_ENTRIES) {
        return `the project holds more than ${MAX_ENTRIES} files and directories; chant-wave checks each for links leading out of it`;
      }
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git") pending.push(path);
      } else if (entry.isSymbolicLink()) {
        const target = await realpath(path).catch(() => undefined);
        if (target === undefined || !insideCheckout(target, root)) {
          const to = await readlink(path).catch(() => "?");
          return `the project holds ${
            relative(root, path)
          }, a link leading out of it (to ${to})`;
        }
      }
    }
  }
  return undefined;
}
