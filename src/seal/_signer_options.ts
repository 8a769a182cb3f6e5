/**
 * The options field of an allowed-signers line (ssh-keygen(1) ALLOWED SIGNERS):
 * `cert-authority`, `namespaces="…"`, `valid-after="…"`, `valid-before="…"`,
 * keywords case-insensitive, values in double quotes (`\"` inside), separated by
 * commas. Private to `src/seal/`.
 * @module
 */

import { quote } from "../quote.ts";
import { parseSignerTime } from "./_signer_time.ts";
import { SealFormatError } from "./seal_format_error.ts";

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
 * @param text The field, e.g. `namespaces="chant-wave",valid-before="20301231Z"`.
 * @returns The options.
 * @throws {SealFormatError} On an unknown or repeated option, a missing quote, a
 * bad time, or a `valid-before` not after `valid-after`.
 */
export function parseSignerOptions(text: string): SignerOptions {
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
