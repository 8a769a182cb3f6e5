/**
 * The database client a sqitch deploy runs (psql), found the way chant-wave
 * will start it: an absolute path as given, or a program name looked up in the
 * absolute directories of `PATH` (never a relative one, which would resolve in
 * the change's checkout), and digested, so a plan covers the client it runs.
 * @module
 */

import { constants } from "node:fs";
import { access, readFile, realpath, stat } from "node:fs/promises";
import { posix } from "node:path";
import { digestOf } from "./project_files.ts";

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
 * @returns The client, or why it cannot be run (`"psql" is not on PATH`).
 */
export async function resolveClient(
  client: string,
  path: string | undefined,
): Promise<ResolvedClient | string> {
  const candidates = client.startsWith("/")
    ? [client]
    : (path ?? "").split(":").filter((dir) => dir.startsWith("/"))
      .map((dir) => posix.join(dir, client));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      const target = await realpath(candidate);
      const info = await stat(target);
      if (!info.isFile()) continue;
      if (info.size > MAX_CLIENT_BYTES) {
        return `the client ${JSON.stringify(candidate)} is too large to digest`;
      }
      const bytes = await readFile(target);
      return {
        path: candidate,
        sha256: digestOf(bytes),
      };
    } catch {
      continue;
    }
  }
  return client.startsWith("/")
    ? `the client ${JSON.stringify(client)} is not an executable file`
    : `the client ${JSON.stringify(client)} is not on PATH`;
}
