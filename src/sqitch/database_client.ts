/**
 * The database client a sqitch deploy runs (psql), found the way chant-wave
 * will start it: an absolute path as given, or a program name looked up in the
 * absolute directories of `PATH` outside the checkout (never a relative one,
 * nor one the change's files could fill, `fs/program_path.ts`), and digested,
 * so a plan covers the client it runs. A client inside the checkout is
 * refused: the change would choose what runs as psql.
 * @module
 */

import { constants } from "node:fs";
import { access, readFile, realpath, stat } from "node:fs/promises";
import { digestOf } from "./project_files.ts";
import { programInCheckout, programOnPath } from "../fs/program_path.ts";

/** A client found: the path sqitch is given, and the SHA-256 of the file it leads to. */
export interface ResolvedClient {
  /** The absolute path (`/usr/bin/psql`). */
  path: string;
  /** `sha256:` of the bytes of the file the path leads to. */
  sha256: string;
}

/** The most bytes of a client read for its digest. */
const MAX_CLIENT_BYTES = 512 * 1024 * 1024;

/**
 * Finds and digests the client.
 * @param client A program name or an absolute path (the spec's, at base).
 * @param path The `PATH` the run's commands inherit.
 * @param checkout The checkout chant-wave runs in (`checkoutOf`).
 * @returns The client, or why it cannot be run (`"psql" is not on PATH`).
 */
export async function resolveClient(
  client: string,
  path: string | undefined,
  checkout: string,
): Promise<ResolvedClient | string> {
  const inside = programInCheckout("the client", client, "/", checkout);
  if (inside !== undefined) return inside;
  const candidate = client.startsWith("/")
    ? client
    : programOnPath(client, path, checkout);
  if (candidate === undefined) {
    return `the client ${
      JSON.stringify(client)
    } is not on PATH (outside the checkout)`;
  }
  try {
    await access(candidate, constants.X_OK);
    const target = await realpath(candidate);
    const info = await stat(target);
    if (info.isFile()) {
      if (info.size > MAX_CLIENT_BYTES) {
        return `the client ${JSON.stringify(candidate)} is too large to digest`;
      }
      return { path: candidate, sha256: digestOf(await readFile(target)) };
    }
  } catch {
    // Said below.
  }
  return `the client ${JSON.stringify(client)} is not an executable file`;
}
