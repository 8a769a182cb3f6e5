/**
 * The spec as it was at a commit (SPEC.md §4.4): absent there, present but not a
 * valid spec, or parsed; and a parser that parses each text once. Pure: the
 * text and the parser are given; reading git is `read_base.ts`'s job. Every
 * policy read at base starts from this.
 * @module
 */

import type { Spec } from "../spec/types.ts";

/** The spec file at a commit. */
export type BaseSpec =
  | { status: "absent" }
  | { status: "unparsable"; problem: string }
  | { status: "parsed"; spec: Spec };

/**
 * The spec parser, injected: `parseSpec` in production. It throws on a spec that
 * is not valid JSONC or fails validation; the message's first line is the first
 * problem.
 */
export type ParseSpecFn = (text: string, file: string) => Spec;

/**
 * Parses the spec text found at a commit. A text that fails validation counts as
 * unparsable (its first problem quoted): a broken spec at base can never loosen a
 * gate, since every policy then falls back to the strictest.
 * @param text The file's text at the commit, or `undefined` when it is absent.
 * @param file The spec file as the user named it (for messages).
 * @param parse The full spec parser.
 * @returns The spec at the commit.
 * @example
 * ```ts
 * baseSpecOf(undefined, "waves.jsonc", parseSpec); // { status: "absent" }
 * baseSpecOf("{", "waves.jsonc", parseSpec).status; // "unparsable"
 * ```
 */
export function baseSpecOf(
  text: string | undefined,
  file: string,
  parse: ParseSpecFn,
): BaseSpec {
  if (text === undefined) return { status: "absent" };
  try {
    return { status: "parsed", spec: parse(text, file) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: "unparsable",
      problem: message.split("\n")[0] || "unknown error",
    };
  }
}

/**
 * A parser that remembers the specs it parsed, by text: a job reads the spec at
 * several commits (and a job that goes on to rest waves reads them again for
 * each), and most of them hold the same text, often the one the command line
 * parsed already. Only specs are remembered: a text that fails is parsed again,
 * since its message names the file.
 * @param parse The full spec parser.
 * @param known Texts parsed already, and the spec each parses to.
 * @returns The remembering parser.
 * @example
 * ```ts
 * const parse = rememberingParser(parseSpec, [{ text, spec }]);
 * parse(text, "waves.jsonc") === spec; // true: not parsed again
 * ```
 */
export function rememberingParser(
  parse: ParseSpecFn,
  known: readonly { text: string; spec: Spec }[] = [],
): ParseSpecFn {
  const specs = new Map(known.map(({ text, spec }) => [text, spec]));
  return (text, file) => {
    let spec = specs.get(text);
    if (spec === undefined) {
      spec = parse(text, file);
      specs.set(text, spec);
    }
    return spec;
  };
}

/** One commit the rules are read at, and the spec there. */
export interface PolicyBase {
  /** The commit's full sha. */
  sha: string;
  /** The spec as committed there. */
  spec: BaseSpec;
  /** The spec file read there, from the top level (for the policy line). */
  file?: string;
  /** The spec's blob id there, when it is there. */
  blob?: string;
}

/**
 * Normalises a path lexically: `.` and empty segments dropped, `..` taking one
 * segment back. Pure.
 * @param path A `/`-separated path relative to some directory.
 * @returns The normalised path, or `undefined` when it climbs above that
 *   directory or is empty.
 * @example
 * ```ts
 * normalisePath("ops/../waves.jsonc"); // "waves.jsonc"
 * normalisePath("../waves.jsonc"); // undefined
 * ```
 */
export function normalisePath(path: string): string | undefined {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.length === 0 ? undefined : out.join("/");
}
