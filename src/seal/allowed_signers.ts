/**
 * The ALLOWED SIGNERS format of `ssh-keygen` (its manual, section ALLOWED SIGNERS),
 * as a sealed gate reads its `signers` file (SPEC.md §12). Pure and total: it
 * never throws on bad text; every malformed or unusable line is reported with its
 * number and left out. Choosing lines for a signature is `verify_seal.ts`'s job.
 *
 * Beyond ssh-keygen: principal patterns are compared after NFKC, trimming and
 * lowercasing (ssh-keygen compares bytes); `cert-authority` lines are reported and
 * left out (chant-wave verifies no certificates); keys of types other than
 * ssh-ed25519, ecdsa-sha2-nistp256 and ssh-rsa are reported and left out.
 *
 * The options field (`cert-authority`, `namespaces="…"`, `valid-after="…"`,
 * `valid-before="…"`, keywords case-insensitive, values in double quotes with
 * `\"` inside, separated by commas) and its timestamps are read as OpenSSH
 * reads them.
 * @module
 */

import { quote } from "../quote.ts";
import { normalisePrincipal, SealFormatError } from "./seal.ts";
import { parsePatternList, type PatternList } from "./pattern_list.ts";
import {
  isKeyTypeName,
  parseSshKeyFields,
  type SshPublicKey,
} from "./ssh_public_key.ts";

/** The most characters a signers file may have (1 MiB). */
export const MAX_SIGNERS_FILE = 1024 * 1024;
/** The most characters one line may have. */
export const MAX_SIGNERS_LINE = 16 * 1024;

/** One usable line: who may sign with which key, in which namespaces, when. */
export interface AllowedSigner {
  /** The 1-based line number. */
  readonly line: number;
  /** The principal patterns, normalised (NFKC, trimmed, lowercased). */
  readonly principals: PatternList;
  /** The key. */
  readonly key: SshPublicKey;
  /** The `namespaces` option, as written; absent: every namespace. */
  readonly namespaces?: string;
  /** `valid-after`, in seconds since the epoch. */
  readonly validAfter?: number;
  /** `valid-before`, in seconds since the epoch. */
  readonly validBefore?: number;
}

/** A line that was left out, and why. */
export interface SignersProblem {
  /** The 1-based line number; 0 for the whole file. */
  readonly line: number;
  /** One line, sentence case, e.g. `unknown option "foo"`. */
  readonly message: string;
}

/** A parsed signers file. */
export interface AllowedSigners {
  /** The usable lines, in file order. */
  readonly signers: readonly AllowedSigner[];
  /** The lines left out, in file order. */
  readonly problems: readonly SignersProblem[];
}

/**
 * Parses an allowed-signers file. Blank lines and lines starting with `#` (after
 * white space) are skipped. Each other line is `principals [options] keytype
 * base64 [comment]`; `principals` may be double-quoted (then it may contain
 * spaces). Never throws on bad text: a file over {@linkcode MAX_SIGNERS_FILE}
 * gives one problem at line 0 and no signers.
 * @param text The file's text.
 * @returns The usable lines and the problems.
 * @example
 * ```ts
 * const { signers, problems } = parseAllowedSigners(
 *   'ann@example.com namespaces="chant-wave" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9\n' +
 *     "bob@example.com ssh-dss AAAA\n",
 * );
 * signers.length; // 1
 * problems; // [{ line: 2, message: 'the key type "ssh-dss" is not supported (…)' }]
 * ```
 */
export function parseAllowedSigners(text: string): AllowedSigners {
  if (text.length > MAX_SIGNERS_FILE) {
    return {
      signers: [],
      problems: [{
        line: 0,
        message: `the file is longer than ${MAX_SIGNERS_FILE} characters`,
      }],
    };
  }
  const signers: AllowedSigner[] = [];
  const problems: SignersProblem[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/\r$/, "").replace(/^[ \t]+/, "");
    if (content === "" || content.startsWith("#")) return;
    try {
      signers.push(parseLine(content, line));
    } catch (error) {
      if (!(error instanceof SealFormatError)) throw error;
      problems.push({ line, message: error.message });
    }
  });
  return { signers, problems };
}

/** Parses one non-blank, non-comment line (leading white space removed). */
function parseLine(content: string, line: number): AllowedSigner {
  if (content.length > MAX_SIGNERS_LINE) {
    throw new SealFormatError(
      `the line is longer than ${MAX_SIGNERS_LINE} characters`,
    );
  }
  const words = new Words(content);
  const principalText = words.principals();
  if (principalText.trim() === "") {
    throw new SealFormatError("the line has no principals");
  }
  let word = words.next();
  let options: SignerOptions = { certAuthority: false };
  if (word !== undefined && !isKeyTypeName(word)) {
    options = parseSignerOptions(word);
    word = words.next();
  }
  if (word === undefined) throw new SealFormatError("the line has no key");
  const base64 = words.next();
  if (base64 === undefined) {
    throw new SealFormatError(`the key ${quote(word)} has no data`);
  }
  if (options.certAuthority) {
    throw new SealFormatError(
      "cert-authority is not supported (chant-wave verifies no certificates)",
    );
  }
  if (!isKeyTypeName(word)) {
    throw new SealFormatError(`unknown key type ${quote(word)}`);
  }
  const key = parseSshKeyFields(word, base64);
  return {
    line,
    principals: parsePatternList(principalText, normalisePrincipal),
    key,
    ...(options.namespaces === undefined
      ? {}
      : { namespaces: options.namespaces }),
    ...(options.validAfter === undefined
      ? {}
      : { validAfter: options.validAfter }),
    ...(options.validBefore === undefined
      ? {}
      : { validBefore: options.validBefore }),
  };
}

/** Splits a line into white-space separated words, honouring double quotes. */
class Words {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  #skipSpace(): void {
    while (this.#text[this.#at] === " " || this.#text[this.#at] === "\t") {
      this.#at++;
    }
  }

  /** The principals field: a word, or a double-quoted run (quotes removed). */
  principals(): string {
    if (this.#text[this.#at] !== '"') return this.next() ?? "";
    const close = this.#text.indexOf('"', this.#at + 1);
    if (close < 0) {
      throw new SealFormatError("the quoted principals have no closing quote");
    }
    const value = this.#text.slice(this.#at + 1, close);
    this.#at = close + 1;
    const after = this.#text[this.#at];
    if (after !== undefined && after !== " " && after !== "\t") {
      throw new SealFormatError(
        "the quoted principals are not followed by a space",
      );
    }
    return value;
  }

  /** The next word; quotes (with `\"` inside) keep white space in the word. */
  next(): string | undefined {
    this.#skipSpace();
    const start = this.#at;
    let quoted = false;
    while (this.#at < this.#text.length) {
      const char = this.#text[this.#at];
      if (!quoted && (char === " " || char === "\t")) break;
      if (char === "\\" && this.#text[this.#at + 1] === '"') this.#at++;
      else if (char === '"') quoted = !quoted;
      this.#at++;
    }
    if (quoted) throw new SealFormatError("a quote is not closed");
    return this.#at > start ? this.#text.slice(start, this.#at) : undefined;
  }
}

/** What the options of one line say. */
export interface SignerOptions {
  /** `cert-authority` was given. */
  certAuthority: boolean;
  /** The `namespaces` pattern list, as written. */
  namespaces?: string;
  /** `valid-after`, seconds since the epoch. */
  validAfter?: number;
  /** `valid-before`, seconds since the epoch. */
  validBefore?: number;
}

const VALUED = ["namespaces", "valid-after", "valid-before"] as const;

/**
 * Parses an options field.
 * @throws {SealFormatError} On an unknown or repeated option, a missing quote, a
 * bad time, or a `valid-before` not after `valid-after`.
 */
function parseSignerOptions(text: string): SignerOptions {
  const options: SignerOptions = { certAuthority: false };
  const seen = new Set<string>();
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const name = /^[^,=]*/.exec(rest)![0];
    const keyword = name.toLowerCase();
    if (seen.has(keyword)) {
      throw new SealFormatError(`option "${keyword}" is given twice`);
    }
    seen.add(keyword);
    at += name.length;
    if (keyword === "cert-authority" && text[at] !== "=") {
      options.certAuthority = true;
    } else if ((VALUED as readonly string[]).includes(keyword)) {
      if (text[at] !== "=") {
        throw new SealFormatError(`option "${keyword}" needs a value`);
      }
      const [value, end] = dequote(text, at + 1, keyword);
      at = end;
      if (keyword === "namespaces") options.namespaces = value;
      else if (keyword === "valid-after") {
        options.validAfter = parseSignerTime(value, keyword);
      } else options.validBefore = parseSignerTime(value, keyword);
    } else {
      throw new SealFormatError(`unknown option ${quote(name)}`);
    }
    if (at < text.length) {
      if (text[at] !== ",") {
        throw new SealFormatError(
          `unexpected "${text.slice(at, at + 20)}" after option "${keyword}"`,
        );
      }
      at++;
    }
  }
  const { validAfter, validBefore } = options;
  if (
    validAfter !== undefined && validBefore !== undefined &&
    validBefore <= validAfter
  ) {
    throw new SealFormatError(`"valid-before" is not after "valid-after"`);
  }
  return options;
}

/** Reads a double-quoted value starting at `at`; returns it and the index after it. */
function dequote(text: string, at: number, option: string): [string, number] {
  if (text[at] !== '"') {
    throw new SealFormatError(
      `option "${option}" needs a quoted value, e.g. ${option}="…"`,
    );
  }
  let value = "";
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\" && text[i + 1] === '"') {
      value += '"';
      i++;
    } else if (text[i] === '"') {
      return [value, i + 1];
    } else {
      value += text[i];
    }
  }
  throw new SealFormatError(`option "${option}" has no closing quote`);
}

const LAYOUT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?$/;

/**
 * Parses `YYYYMMDD[Z]` or `YYYYMMDDHHMM[SS][Z]` (`UTC` may stand for `Z`), as
 * OpenSSH does: a date alone means its first second; without `Z` the time is in
 * the local time zone of the process (as `ssh-keygen` reads it).
 * @throws {SealFormatError} When the text has another layout or is not a real time.
 */
function parseSignerTime(text: string, option: string): number {
  const invalid = () =>
    new SealFormatError(
      `option "${option}" has an invalid time ${
        quote(text)
      } (YYYYMMDD[HHMM[SS]][Z])`,
    );
  let digits = text;
  let utc = false;
  if (digits.length > 1 && /z$/i.test(digits)) {
    digits = digits.slice(0, -1);
    utc = true;
  } else if (digits.length > 3 && /utc$/i.test(digits)) {
    digits = digits.slice(0, -3);
    utc = true;
  }
  const match = LAYOUT.exec(digits);
  if (match === null) throw invalid();
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) =>
    part === undefined ? 0 : Number(part)
  );
  if (
    month < 1 || month > 12 || day < 1 || day > daysIn(year, month) ||
    hour > 23 || minute > 59 || second > 60
  ) throw invalid();
  const ms = utc
    ? Date.UTC(year, month - 1, day, hour, minute, second)
    : new Date(year, month - 1, day, hour, minute, second).getTime();
  if (!Number.isFinite(ms) || ms < 0) throw invalid();
  return Math.floor(ms / 1000);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
