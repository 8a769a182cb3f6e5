/**
 * Reads and validates the spec file a command names (`--spec F`): the one place a
 * command turns a path into a `Spec`. The parser (and zod behind it) is loaded on
 * first use, so commands that read no spec (`--version`, `--help`, `approve`)
 * start faster.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { MAX_SPEC_BYTES } from "../limits.ts";
import type { parseSpec } from "../spec/parse_spec.ts";
import type { Spec } from "../spec/types.ts";

/**
 * Reads the spec at `file` (relative to `cwd`) and validates it.
 * @param file The path as the user gave it; messages name it so.
 * @param cwd The working directory.
 * @returns The spec and its text.
 * @throws {InputError} When the file cannot be read, is not a regular file, or
 *   is larger than 1 MiB.
 * @throws {SpecError} When it fails SPEC.md §3.
 */
export async function loadSpec(
  file: string,
  cwd: string,
): Promise<{ spec: Spec; text: string }> {
  let text: string;
  try {
    text = await readBounded(resolve(cwd, file), {
      maxBytes: MAX_SPEC_BYTES,
      followLinks: true,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = error instanceof BoundedReadError
      ? error.why
      : code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
      ? "it is a directory"
      : (error as Error).message;
    throw new InputError(`cannot read spec "${file}": ${why}`);
  }
  const parse = await specParser();
  return { spec: parse(text, file), text };
}

/**
 * Loads the spec parser on first use.
 * @returns `parseSpec`.
 */
export async function specParser(): Promise<typeof parseSpec> {
  return (await import("../spec/parse_spec.ts")).parseSpec;
}
