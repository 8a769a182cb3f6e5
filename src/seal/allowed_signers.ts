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
 * @module
 */

import { quote } from "../quote.ts";
import { parseSignerOptions, type SignerOptions } from "./_signer_options.ts";
import { normalisePrincipal } from "./normalise_principal.ts";
import { parsePatternList, type PatternList } from "./pattern_list.ts";
import { SealFormatError } from "./seal_format_error.ts";
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
