/**
 * Reads the files of a sqitch project that a deploy runs or that decide how it
 * runs (`sqitch.conf`, `sqitch.plan`, the files scripts include), by a path
 * relative to the project: only a regular file whose real path is inside the
 * project, opened without blocking and read up to a bound, each read once per
 * planning pass; and names their bytes as the digest does. It knows nothing of
 * what the files mean.
 * @module
 */

import { hashHex } from "../digest/hash.ts";
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { posix } from "node:path";
import { formatBytes } from "../limits.ts";

/** The most bytes of one project file read. */
export const MAX_PROJECT_FILE_BYTES = 16 * 1024 * 1024;

/** A file's bytes, or why it was not read. */
export type ProjectFile = { bytes: Uint8Array } | { why: string };

/** The files of one project, read once each. */
export interface ProjectFiles {
  /** The project's directory, absolute. */
  root: string;
  /**
   * Reads a file of the project.
   * @param path Relative to the project, `/`-separated, normalised.
   * @returns Its bytes, or why not (`does not exist`, `is outside the project`).
   */
  read(path: string): Promise<ProjectFile>;
}

/**
 * The files of the project at `root`.
 * @param root The project's directory, absolute.
 * @returns The reader; it remembers every answer.
 */
export function projectFiles(root: string): ProjectFiles {
  const memo = new Map<string, Promise<ProjectFile>>();
  return {
    root,
    read(path) {
      let got = memo.get(path);
      if (got === undefined) {
        got = readInside(root, path);
        memo.set(path, got);
      }
      return got;
    },
  };
}

/**
 * How the plan digest names a file's bytes.
 * @param bytes The bytes.
 * @returns `sha256:` and the lowercase hex SHA-256.
 * @example
 * ```ts
 * digestOf(new Uint8Array()); // "sha256:e3b0c442…b855"
 * ```
 */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${hashHex("sha256", bytes)}`;
}

/**
 * A path as psql takes it, relative to the project: `\i` from the project's
 * directory (sqitch runs psql there), `\ir` from the including file's.
 * @param path The path written.
 * @param from The including file's path in the project, for a relative include; none for `\i`.
 * @returns The normalised path in the project, or undefined when it leaves the project.
 * @example
 * ```ts
 * projectPath("../shared/a.sql", "deploy/x.sql"); // "shared/a.sql"
 * projectPath("../../etc/passwd", "deploy/x.sql"); // undefined
 * ```
 */
export function projectPath(path: string, from?: string): string | undefined {
  if (posix.isAbsolute(path)) return undefined;
  const joined = posix.normalize(
    posix.join(from === undefined ? "." : posix.dirname(from), path),
  );
  return joined === ".." || joined.startsWith("../") || joined === "."
    ? undefined
    : joined;
}

/** Reads `path` under `root`: a regular file whose real path is inside the real root. */
async function readInside(root: string, path: string): Promise<ProjectFile> {
  const full = posix.join(root, path);
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(full), realpath(root)]);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      why: code === "ENOENT" ? "does not exist" : `cannot be read (${code})`,
    };
  }
  if (!real.startsWith(`${realRoot}/`)) {
    return { why: "is a link to a file outside the project" };
  }
  const file = await open(real, constants.O_RDONLY | constants.O_NONBLOCK)
    .catch(() => undefined);
  if (file === undefined) return { why: "cannot be opened" };
  try {
    const stat = await file.stat();
    if (!stat.isFile()) return { why: "is not a regular file" };
    if (stat.size > MAX_PROJECT_FILE_BYTES) {
      return { why: `is larger than ${formatBytes(MAX_PROJECT_FILE_BYTES)}` };
    }
    const bytes = new Uint8Array(stat.size);
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await file.read(
        bytes,
        length,
        bytes.length - length,
      );
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { bytes: bytes.subarray(0, length) };
  } finally {
    await file.close();
  }
}
