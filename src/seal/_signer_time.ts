/**
 * The timestamps of the `valid-after` and `valid-before` options of an
 * allowed-signers line, read as OpenSSH reads them. Private to `src/seal/`.
 * @module
 */

import { quote } from "../quote.ts";
import { SealFormatError } from "./seal_format_error.ts";

const LAYOUT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?$/;

/**
 * Parses `YYYYMMDD[Z]` or `YYYYMMDDHHMM[SS][Z]` (`UTC` may stand for `Z`), as
 * OpenSSH does: a date alone means its first second; without `Z` the time is in
 * the local time zone of the process (as `ssh-keygen` reads it).
 * @param text The option's value, without quotes.
 * @param option The option's name, for messages.
 * @returns Seconds since the epoch.
 * @throws {SealFormatError} When the text has another layout or is not a real time.
 */
export function parseSignerTime(text: string, option: string): number {
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
