/** Types for the parts of `@std/cli/parse-args` (npm mirror `deno-std`) chant-wave uses. */

/** Options of {@linkcode parseArgs}. */
export interface ParseOptions {
  boolean?: string | readonly string[];
  string?: string | readonly string[];
  collect?: string | readonly string[];
  alias?: Record<string, string | readonly string[]>;
  default?: Record<string, unknown>;
  stopEarly?: boolean;
  "--"?: boolean;
  unknown?: (arg: string, key?: string, value?: unknown) => unknown;
}

/** What {@linkcode parseArgs} returns: flags by name plus the positional words in `_`. */
export interface Args {
  [flag: string]: unknown;
  _: Array<string | number>;
}

/** Parses command-line words into flags and positional words. */
export function parseArgs(
  args: readonly string[],
  options?: ParseOptions,
): Args;
