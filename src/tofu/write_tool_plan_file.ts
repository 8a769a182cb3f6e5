/**
 * The file edge of the OpenTofu and Terraform support (SPEC.md §15): reads the
 * saved output of `show -json` as untrusted input (a regular file of at most 64
 * MiB, UTF-8) and writes the plan file made from it atomically. The conversion
 * itself is `tofu_plan_file.ts`.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { MAX_PLAN_DOCUMENT } from "./_plan_document.ts";
import { tofuPlanFile, type ToolPlanFile } from "./tofu_plan_file.ts";

/** A plan document that could not be read or turned into a plan file. */
export class ShowJsonError extends Error {
  /**
   * @param message One line naming the file, e.g. `"show.json" is not JSON: …`.
   */
  constructor(message: string) {
    super(message);
    this.name = "ShowJsonError";
  }
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES") return "permission denied";
  return (error as Error).message;
}

/**
 * Reads a plan document: a regular file (a FIFO or device is refused without
 * blocking on it) of at most 64 MiB of UTF-8.
 * @param path The file.
 * @param shownAs How messages name it.
 * @returns Its text.
 * @throws {ShowJsonError} When it cannot be read, is not a regular file, is too
 *   large or is not UTF-8.
 */
async function readShowJson(path: string, shownAs: string): Promise<string> {
  const fail = (why: string) =>
    new ShowJsonError(`cannot read ${JSON.stringify(shownAs)}: ${why}`);
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fail(reasonOf(error));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw fail("it is not a regular file");
    if (stat.size > MAX_PLAN_DOCUMENT) throw fail("it is larger than 64 MiB");
    // Sized by the file, grown if it grows while read, never past the limit + 1.
    let buffer = new Uint8Array(Math.min(stat.size + 1, MAX_PLAN_DOCUMENT + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > MAX_PLAN_DOCUMENT) throw fail("it is larger than 64 MiB");
        const bigger = new Uint8Array(
          Math.min(length * 2, MAX_PLAN_DOCUMENT + 1),
        );
        bigger.set(buffer);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(
        buffer,
        length,
        buffer.length - length,
      );
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_PLAN_DOCUMENT) throw fail("it is larger than 64 MiB");
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(
        buffer.subarray(0, length),
      );
    } catch {
      throw fail("it is not UTF-8 text");
    }
  } catch (error) {
    throw error instanceof ShowJsonError ? error : fail(reasonOf(error));
  } finally {
    await handle.close();
  }
}

/** Paths of {@linkcode writeToolPlanFile}, with the names messages use. */
export interface ToolPlanPaths {
  /** The saved output of `show -json <planfile>`. */
  showJson: string;
  /** The plan file to write (replaced atomically). */
  planFile: string;
  /** How messages name the `show -json` output. @default {showJson} */
  showJsonShownAs?: string;
  /** How messages name the plan file. @default {planFile} */
  planFileShownAs?: string;
  /** Where the adapter planned, for the digest (`tofuPlanFile`'s `place`). */
  place?: readonly string[];
}

/**
 * Reads the `show -json` output at `paths.showJson`, turns it into a plan file
 * and writes it to `paths.planFile` (a temporary file renamed over it, so it is
 * whole or untouched).
 * @param paths Where to read and write.
 * @returns The plan file written.
 * @throws {ShowJsonError} One line naming the file: it cannot be read, is not a
 *   plan document (`"show.json" is not JSON: …`), or the plan file cannot be
 *   written. No value of the plan is ever part of the message.
 */
export async function writeToolPlanFile(
  paths: ToolPlanPaths,
): Promise<ToolPlanFile> {
  const showName = paths.showJsonShownAs ?? paths.showJson;
  const text = await readShowJson(paths.showJson, showName);
  let plan: ToolPlanFile;
  try {
    plan = tofuPlanFile(text, paths.place);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new ShowJsonError(`${JSON.stringify(showName)} ${error.message}`);
  }
  try {
    await writeFileAtomic(paths.planFile, `${JSON.stringify(plan)}\n`);
  } catch (error) {
    const name = JSON.stringify(paths.planFileShownAs ?? paths.planFile);
    throw new ShowJsonError(
      `cannot write plan file ${name}: ${reasonOf(error)}`,
    );
  }
  return plan;
}
