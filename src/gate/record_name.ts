/**
 * Names in the ledger (SPEC.md §5.2): record files named
 * `<UTC time>-<kind>-<id>.json` so names sort by time and never collide,
 * temporary names readers skip, and the check that a spec name or gate is safe
 * as a path segment. Pure; it touches no file.
 * @module
 */

import { InputError } from "../errors.ts";
import type { LedgerRecord, RecordKind } from "./records.ts";

/** What a spec name or gate must look like to be a ledger directory. */
export const LEDGER_SEGMENT: RegExp = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Formats a time as the fixed-width, sortable UTC stamp of record names.
 * @param ms Milliseconds since the Unix epoch (years 0 to 9999).
 * @returns `YYYYMMDDTHHMMSS.mmmZ`, 20 characters.
 * @example
 * ```ts
 * compactTime(Date.UTC(2026, 10, 30, 9, 15, 2, 123)); // "20261130T091502.123Z"
 * ```
 */
export function compactTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, "");
}

/**
 * Names a record's file: `<compact UTC time>-<kind>-<id>.json`. Names sort by time
 * (to the millisecond) and, as ids are 128 random bits, never collide.
 * @param record The record; its `id` is a letters, digits, `-`, `_` string.
 * @returns The file name, without a directory.
 * @throws {Error} When the record's id or timestamp cannot make a file name.
 * @example
 * ```ts
 * recordFileName({ kind: "approval", id: "9f2c", timestamp: "2026-11-30T09:15:02.123Z", … });
 * // "20261130T091502.123Z-approval-9f2c.json"
 * ```
 */
export function recordFileName(record: LedgerRecord): string {
  const ms = Date.parse(record.timestamp);
  if (Number.isNaN(ms)) {
    throw new Error(`cannot name record "${record.id}": bad timestamp`);
  }
  if (!/^[A-Za-z0-9_-]+$/.test(record.id)) {
    throw new Error(`cannot name record ${JSON.stringify(record.id)}: bad id`);
  }
  return `${compactTime(ms)}-${record.kind}-${record.id}.json`;
}

/**
 * Names the temporary file a record is written to before it is moved into place:
 * hidden (leading `.`) and ending in `.tmp`, so readers skip it.
 * @param fileName The record's final file name.
 * @param suffix A random part, unique per write.
 * @returns `.<fileName>.<suffix>.tmp`.
 * @example
 * ```ts
 * temporaryName("a.json", "0f1e"); // ".a.json.0f1e.tmp"
 * ```
 */
export function temporaryName(fileName: string, suffix: string): string {
  return `.${fileName}.${suffix}.tmp`;
}

/**
 * Tells whether a directory entry is a temporary file (a leading `.` or a `.tmp`
 * suffix): a write in progress or one that crashed, never a record.
 * @param fileName A directory entry's name.
 * @returns `true` for temporary (and hidden) names.
 * @example
 * ```ts
 * isTemporaryName(".a.json.0f1e.tmp"); // true
 * isTemporaryName("20261130T091502.123Z-expired-01.json"); // false
 * ```
 */
export function isTemporaryName(fileName: string): boolean {
  return fileName.startsWith(".") || fileName.endsWith(".tmp");
}

/**
 * Tells whether a directory entry should be read as a record: a `.json` name that
 * is not temporary. Other entries (a `README`, a `.gitkeep`) are ignored.
 * @param fileName A directory entry's name.
 * @returns `true` when readers parse it.
 * @example
 * ```ts
 * isRecordFileName("x-approval-01.json"); // true
 * isRecordFileName(".x-approval-01.json.ab.tmp"); // false
 * ```
 */
export function isRecordFileName(fileName: string): boolean {
  return fileName.endsWith(".json") && !isTemporaryName(fileName);
}

/**
 * Whether a record file's name says it holds one of `kinds`: the names
 * {@linkcode recordFileName} gives, `<20-character time>-<kind>-<id>.json`.
 * A file named otherwise says nothing of its kind, so it is not one of them.
 * @param fileName A file name, without a directory.
 * @param kinds The kinds wanted.
 * @returns `true` when the name says one of them.
 * @example
 * ```ts
 * namedAs("20261130T091502.123Z-pending-9f2c.json", ["pending"]); // true
 * namedAs("20261130T091502.123Z-approval-9f2c.json", ["pending"]); // false
 * ```
 */
export function namedAs(
  fileName: string,
  kinds: readonly RecordKind[],
): boolean {
  const at = TIME_WIDTH + 1;
  return fileName[TIME_WIDTH] === "-" &&
    kinds.some((kind) => fileName.startsWith(`${kind}-`, at));
}

/** The width of {@linkcode compactTime}'s stamp. */
const TIME_WIDTH = 20;

/**
 * Checks that a spec name or gate can be a ledger directory: letters, digits,
 * `_`, `.` and `-`, not starting with `.` or `-` (so never `..` nor a path).
 * @param what What the value is, for the message (`name`, `gate`).
 * @param value The value.
 * @returns The value, unchanged.
 * @throws {InputError} When it cannot (`invalid gate "a/b": …`).
 * @example
 * ```ts
 * checkLedgerSegment("gate", "tf-wave-2"); // "tf-wave-2"
 * checkLedgerSegment("gate", "../x"); // throws InputError
 * ```
 */
export function checkLedgerSegment(what: string, value: string): string {
  if (!LEDGER_SEGMENT.test(value)) {
    throw new InputError(
      `invalid ${what} ${
        JSON.stringify(value)
      }: a ledger ${what} is letters, ` +
        `digits, "_", "." and "-", not starting with "." or "-"`,
    );
  }
  return value;
}
