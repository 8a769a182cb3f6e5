/**
 * Command-line flag parsing for every command, on `@std/cli/parse-args`, made
 * strict: unknown flags (with a did-you-mean), flags without a value and
 * malformed numbers are input errors (exit 2).
 * @module
 */

// @ts-types="../../types/std/parse_args.d.ts"
import { parseArgs } from "@std/cli/parse-args";
import { InputError } from "../errors.ts";
import { suggest } from "../spec/did_you_mean.ts";

/** The flags a command takes. */
export interface FlagSpec {
  /** Flags with a value, without the leading `--`. */
  strings?: readonly string[];
  /** Flags without a value. */
  booleans?: readonly string[];
}

/** Parsed flags and the positional words. */
export interface ParsedFlags {
  strings: Record<string, string | undefined>;
  booleans: Record<string, boolean>;
  positionals: string[];
}

/**
 * Parses `argv` for `command`, refusing what the command does not take.
 * @param command The command's name, for messages.
 * @param argv The words after the command.
 * @param spec The flags it takes; `--help` is always taken.
 * @returns The flags and positionals.
 * @throws {InputError} On an unknown flag or a flag without its value.
 */
export function parseFlags(
  command: string,
  argv: readonly string[],
  spec: FlagSpec,
): ParsedFlags {
  const strings = spec.strings ?? [];
  const booleans = [...(spec.booleans ?? []), "help"];
  const positionals: string[] = [];
  const unknown: string[] = [];
  const parsed = parseArgs(argv, {
    string: strings,
    boolean: booleans,
    unknown: (arg: string) => {
      (arg.startsWith("-") && arg !== "-" ? unknown : positionals).push(arg);
      return false;
    },
  });
  if (unknown.length > 0) {
    const flag = unknown[0].replace(/=.*$/, "");
    const known = [...strings, ...booleans].map((name) => `--${name}`);
    const near = suggest(flag, known);
    const hint = near
      ? `; did you mean "${near}"?`
      : `; see "chant-wave help ${command}"`;
    throw new InputError(`unknown flag "${flag}" for "${command}"${hint}`);
  }
  const result: ParsedFlags = { strings: {}, booleans: {}, positionals };
  for (const name of strings) {
    const value = parsed[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      throw new InputError(`flag "--${name}" is given more than once`);
    }
    if (value === "") throw new InputError(`flag "--${name}" needs a value`);
    result.strings[name] = String(value);
  }
  for (const name of booleans) result.booleans[name] = parsed[name] === true;
  positionals.push(...parsed._.map(String));
  return result;
}

/**
 * Reads a required string flag.
 * @throws {InputError} When it is missing.
 */
export function requireFlag(
  command: string,
  flags: ParsedFlags,
  name: string,
): string {
  const value = flags.strings[name];
  if (value === undefined) {
    throw new InputError(`"${command}" needs "--${name}"`);
  }
  return value;
}

/**
 * Reads an optional positive integer flag (`--wave 2`, `--parallel 4`).
 * @throws {InputError} When the value is not a whole number of at least 1.
 */
export function positiveIntFlag(
  flags: ParsedFlags,
  name: string,
): number | undefined {
  const value = flags.strings[name];
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) {
    throw new InputError(
      `flag "--${name}" takes a whole number of at least 1, not "${value}"`,
    );
  }
  return Number(value);
}
