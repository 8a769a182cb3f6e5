/**
 * How the forge clients read a forge's untrusted JSON answer (SPEC.md §13,
 * §14): the input reader in its `api` form (places as forges document them,
 * `[2].user.login`; values never echoed; `null` as absent), and the values only
 * forges send: ids, date-times with offsets, SHAs that may be `""`. Pure; no
 * forge's endpoints.
 * @module
 */

import { JsonReader } from "../input/json_reader.ts";

/** Bounds of a forge's name or state: at most 255 printable characters. */
export const NAME = { max: 255, printable: true } as const;

/** Bounds of a forge's longer text (a path, a title): at most 1024 printable characters. */
export const TEXT = { max: 1024, printable: true } as const;

/**
 * A reader of a forge's answer.
 * @param body The parsed answer (or a list's items).
 * @returns The reader at its top.
 * @example
 * ```ts
 * answerReader({ status: 7 }).object().get("status").string(NAME);
 * // throws ShapeError ".status is not a string"
 * ```
 */
export function answerReader(body: unknown): JsonReader {
  return new JsonReader(body, { echo: false, api: true });
}

/**
 * The value as a non-negative integer id (a JSON number, or a string of
 * digits as some forges send), as a decimal string so ids beyond 2^53 survive.
 * @param at The value.
 * @returns The id as digits.
 * @throws {ShapeError} `is not an id`.
 * @example
 * ```ts
 * idOf(answerReader({ id: 42 }).object().get("id")); // "42"
 * ```
 */
export function idOf(at: JsonReader): string {
  const value = at.value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    return String(value);
  }
  return at.matching(/^(0|[1-9]\d{0,19})$/, "an id");
}

const ISO_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The value as an ISO 8601 date-time, in UTC ISO form.
 * @param at The value.
 * @returns The time as `YYYY-MM-DDTHH:MM:SS.sssZ`.
 * @throws {ShapeError} `is not a date-time`.
 * @example
 * ```ts
 * timeOf(answerReader("2016-06-08T21:20:42+02:00")); // "2016-06-08T19:20:42.000Z"
 * ```
 */
export function timeOf(at: JsonReader): string {
  const ms = Date.parse(at.matching(ISO_TIME, "a date-time"));
  if (Number.isNaN(ms)) at.wrong("is not a date-time");
  return new Date(ms).toISOString();
}

/**
 * The value as a full commit SHA, or `undefined` when absent or `""`.
 * @param at The value.
 * @returns The SHA, or `undefined`.
 * @throws {ShapeError} `is not a full commit sha`.
 */
export function optionalSha(at: JsonReader): string | undefined {
  return at.value === "" ? undefined : at.optional((sha) => sha.fullSha());
}
