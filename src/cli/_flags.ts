/**
 * A command's flags as data, and the strict parser they configure (on
 * `@std/cli/parse-args`): unknown flags (with a did-you-mean), flags without a
 * value and malformed numbers are input errors (exit 2). The same table gives
 * the usage, the help's flag list and the completions (`_help_text.ts`,
 * `completion_command.ts`). The flags several commands take are defined once
 * here (`--spec`, `--wave`, `--ledger`, `--json`): a command that words one
 * differently spreads it and overrides the description or the default.
 * @module
 */

// @ts-types="../../types/std/parse_args.d.ts"
import { parseArgs } from "@std/cli/parse-args";
import type { ValueKind } from "../completion/completion_model.ts";
import { InputError } from "../errors.ts";
import { suggest } from "../spec/did_you_mean.ts";

/** The value a flag takes. */
export interface FlagValue {
  /** Its placeholder in the usage and the help: `F`, `K`, `DUR`. */
  readonly name: string;
  /** What it completes to. @default {"text"} */
  readonly kind?: ValueKind;
  /**
   * Whether the flag may come without it (`--sign [KEY]`): `--flag=VALUE`, or
   * `--flag VALUE` when the next word is no flag, or `--flag` alone. Completion
   * offers no value after such a flag.
   */
  readonly optional?: boolean;
}

/** One flag of a command. */
export interface Flag {
  /** Its name, without the leading `--`. */
  readonly name: string;
  /** The value it takes; absent for a flag that takes none. */
  readonly value?: FlagValue;
  /**
   * What it does, for the help and the completions; a `\n` breaks the help's
   * line there (completions read it as a space).
   */
  readonly description: string;
  /** What holds without it, shown as ` (default: …)` after the description. */
  readonly default?: string;
}

/** The flags a command takes, in the order its help lists them. */
export type FlagTable = readonly Flag[];

/** Parsed flags and the positional words. */
export interface ParsedFlags {
  /** The flags with a value that were given, by name. */
  strings: Record<string, string | undefined>;
  /** Every flag without a value (and `help`): whether it was given. */
  booleans: Record<string, boolean>;
  /** The flags with an optional value that were given, with it when it came. */
  optional: Record<string, { value?: string } | undefined>;
  /** The other words, in order. */
  positionals: string[];
}

/**
 * Parses `argv` for `command`, refusing what the command does not take.
 * @param command The command's name, for messages.
 * @param argv The words after the command.
 * @param table The flags it takes; `--help` is always taken.
 * @returns The flags and positionals; of a flag with a value given twice, the
 * last value.
 * @throws {InputError} On an unknown flag (`--no-NAME` too), a flag without its
 * value, or a flag with an optional value given twice.
 * @example
 * ```ts
 * parseFlags("check", ["--spec", "waves.jsonc"], [SPEC_FLAG]).strings.spec;
 * // "waves.jsonc"
 * ```
 */
export function parseFlags(
  command: string,
  argv: readonly string[],
  table: FlagTable,
): ParsedFlags {
  const strings = table.filter((flag) => flag.value && !flag.value.optional)
    .map((flag) => flag.name);
  const booleans = table.filter((flag) => flag.value === undefined)
    .map((flag) => flag.name);
  const optionalFlags = table.filter((flag) => flag.value?.optional);
  const { rest, optional } = takeOptionalFlags(argv, optionalFlags);
  const positionals: string[] = [];
  const unknown: string[] = [];
  const parsed = parseArgs(rest, {
    string: strings,
    boolean: [...booleans, "help"],
    unknown: (arg: string) => {
      (arg.startsWith("-") && arg !== "-" ? unknown : positionals).push(arg);
      return false;
    },
  });
  if (unknown.length > 0) {
    const flag = unknown[0].replace(/=.*$/, "");
    const known = [...strings, ...table.map((flag) => flag.name), "help"]
      .filter((name, at, all) => all.indexOf(name) === at)
      .map((name) => `--${name}`);
    const near = suggest(flag, known);
    const hint = near
      ? `; did you mean "${near}"?`
      : `; see "chant-wave help ${command}"`;
    throw new InputError(`unknown flag "${flag}" for "${command}"${hint}`);
  }
  const result: ParsedFlags = {
    strings: {},
    booleans: {},
    optional,
    positionals,
  };
  for (const name of strings) {
    const value = parsed[name];
    if (value === undefined) continue;
    if (value === "") throw new InputError(`flag "--${name}" needs a value`);
    result.strings[name] = String(value);
  }
  for (const name of [...booleans, "help"]) {
    result.booleans[name] = parsed[name] === true;
  }
  positionals.push(...parsed._.map(String));
  return result;
}

/**
 * Takes the flags whose value is optional out of the words, before the strict
 * parser sees them (it knows only flags that always or never take a value).
 * Words after `--` are left alone.
 */
function takeOptionalFlags(
  argv: readonly string[],
  flags: FlagTable,
): { rest: string[]; optional: ParsedFlags["optional"] } {
  const rest: string[] = [];
  const optional: ParsedFlags["optional"] = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const flag = flags.find(({ name }) =>
      word === `--${name}` || word.startsWith(`--${name}=`)
    );
    if (flag === undefined) {
      rest.push(word);
      continue;
    }
    const name = flag.name;
    if (optional[name] !== undefined) {
      throw new InputError(`flag "--${name}" is given more than once`);
    }
    if (word.startsWith(`--${name}=`)) {
      const value = word.slice(`--${name}=`.length);
      if (value === "") {
        throw new InputError(`flag "--${name}=" needs a ${flag.value?.name}`);
      }
      optional[name] = { value };
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith("-")) {
      optional[name] = { value: argv[++i] };
    } else optional[name] = {};
  }
  return { rest, optional };
}

/**
 * Reads a required string flag.
 * @param command The command's name, for the message.
 * @param flags The parsed flags.
 * @param name The flag, without `--`.
 * @returns Its value.
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
 * @param flags The parsed flags.
 * @param name The flag, without `--`.
 * @returns The number, or `undefined` when the flag was not given.
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

/** `--spec F`: the waves file. */
export const SPEC_FLAG: Flag = {
  name: "spec",
  value: { name: "F", kind: "file" },
  description: "the waves file",
};

/** `--wave K`: one wave of the spec. */
export const WAVE_FLAG: Flag = {
  name: "wave",
  value: { name: "K" },
  description: "the wave, by number or name",
};

/** `--ledger L`: where the gate ledger is (`_open_ledger.ts` chooses it). */
export const LEDGER_FLAG: Flag = {
  name: "ledger",
  value: { name: "L", kind: "ledger" },
  description: "git[:remote] or a directory",
  default:
    '$CHANT_WAVE_LEDGER, else\nthe spec\'s "ledger" with --spec, else .chant/ledger',
};

/**
 * `--json`: the result as one JSON object on stdout (and `{ exitCode, error }`
 * on an error, which `main` prints).
 * @param description What it prints, as the command's help says it.
 * @returns The flag.
 * @example
 * ```ts
 * jsonFlag("print { name, waves: [...] } on stdout").name; // "json"
 * ```
 */
export function jsonFlag(description: string): Flag {
  return { name: "json", description };
}

/**
 * `--spec F` of the commands that name a gate as `NAME GATE` or as
 * `--spec F --wave K` (`_gate_target.ts`).
 */
export const GATE_SPEC_FLAG: Flag = {
  ...SPEC_FLAG,
  description:
    "with --wave: the gate of wave K of this spec, instead of NAME GATE",
};
