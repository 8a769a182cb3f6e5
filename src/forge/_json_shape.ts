/**
 * The forge clients' accessors of untrusted forge JSON (SPEC.md §13, §14), on
 * the input toolkit: each returns the value in the type it promises or throws
 * the toolkit's `ShapeError` naming the path in the form forges document
 * (`[2].user.login`; `the answer` for the whole) and what was wrong; the
 * patterns are the toolkit's. Pure; no forge knowledge.
 * @module
 */

import { isFullSha } from "../input/full_sha.ts";
import { hasControl } from "../input/json_reader.ts";
import { ShapeError } from "../input/shape_error.ts";

export { hasControl, ShapeError };

/** The path of a value for messages: `the answer` for the whole answer. */
function shown(where: string): string {
  return where || "the answer";
}

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/**
 * The value as an object.
 * @param value Any JSON value.
 * @param where Its path, for the message.
 * @returns The object.
 * @throws {ShapeError} When it is not an object.
 */
export function asObject(value: unknown, where: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ShapeError(shown(where), "is not an object");
  }
  return value as JsonObject;
}

/**
 * The value as an array.
 * @param value Any JSON value.
 * @param where Its path, for the message.
 * @returns The array.
 * @throws {ShapeError} When it is not an array.
 */
export function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) {
    throw new ShapeError(shown(where), "is not an array");
  }
  return value;
}

/**
 * A member that must be an object.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The member's object.
 * @throws {ShapeError} When it is missing or not an object.
 */
export function objectAt(
  object: JsonObject,
  key: string,
  where: string,
): JsonObject {
  return asObject(object[key], `${where}.${key}`);
}

/**
 * A member that must be a string of at most `max` characters without control
 * characters (forge names and states are printed later).
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @param max The longest accepted value.
 * @returns The string.
 * @throws {ShapeError} When it is missing, not a string, too long or holds control characters.
 * @example
 * ```ts
 * stringAt({ login: "ann" }, "login", "user"); // "ann"
 * ```
 */
export function stringAt(
  object: JsonObject,
  key: string,
  where: string,
  max = 255,
): string {
  const value = object[key];
  const path = `${where}.${key}`;
  if (typeof value !== "string") throw new ShapeError(path, "is not a string");
  if (value.length > max) {
    throw new ShapeError(path, `is longer than ${max} characters`);
  }
  if (hasControl(value)) {
    throw new ShapeError(path, "holds a control character");
  }
  return value;
}

/**
 * A member that may be absent or `null`, else a string as {@linkcode stringAt}.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The string, or `undefined`.
 * @throws {ShapeError} When present and not an acceptable string.
 */
export function optionalStringAt(
  object: JsonObject,
  key: string,
  where: string,
): string | undefined {
  const value = object[key];
  return value === undefined || value === null
    ? undefined
    : stringAt(object, key, where);
}

/**
 * A member that must be a boolean.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The boolean.
 * @throws {ShapeError} When it is missing or not a boolean.
 */
export function booleanAt(
  object: JsonObject,
  key: string,
  where: string,
): boolean {
  const value = object[key];
  if (typeof value !== "boolean") {
    throw new ShapeError(`${where}.${key}`, "is not a boolean");
  }
  return value;
}

/**
 * A member that must be a non-negative safe integer (a count, a number, an access level).
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The number.
 * @throws {ShapeError} When it is missing or not such an integer.
 */
export function integerAt(
  object: JsonObject,
  key: string,
  where: string,
): number {
  const value = object[key];
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new ShapeError(`${where}.${key}`, "is not a whole number");
  }
  return value;
}

/**
 * A member that must be a non-negative integer id (a JSON number, or a string of
 * digits as some forges send), returned as a decimal string so ids beyond 2^53
 * survive.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The id as digits.
 * @throws {ShapeError} When it is missing or not a non-negative integer.
 * @example
 * ```ts
 * idAt({ id: 42 }, "id", ""); // "42"
 * ```
 */
export function idAt(object: JsonObject, key: string, where: string): string {
  const value = object[key];
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    return String(value);
  }
  if (typeof value === "string" && /^(0|[1-9]\d{0,19})$/.test(value)) {
    return value;
  }
  throw new ShapeError(`${where}.${key}`, "is not an id");
}

/**
 * A member that must be a commit SHA (40 or 64 lowercase hex digits).
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The SHA.
 * @throws {ShapeError} When it is missing or not a SHA.
 */
export function shaAt(object: JsonObject, key: string, where: string): string {
  const value = object[key];
  if (typeof value !== "string" || !isSha(value)) {
    throw new ShapeError(`${where}.${key}`, "is not a commit SHA");
  }
  return value;
}

/**
 * A member that may be absent, `null` or `""`, else a commit SHA.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The SHA, or `undefined`.
 * @throws {ShapeError} When present and not a SHA.
 */
export function optionalShaAt(
  object: JsonObject,
  key: string,
  where: string,
): string | undefined {
  const value = object[key];
  return value === undefined || value === null || value === ""
    ? undefined
    : shaAt(object, key, where);
}

/**
 * A member that must be an ISO 8601 date-time; returned in UTC ISO form.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The time as `YYYY-MM-DDTHH:MM:SS.sssZ`.
 * @throws {ShapeError} When it is missing or not a date-time.
 * @example
 * ```ts
 * timeAt({ at: "2016-06-08T21:20:42+02:00" }, "at", ""); // "2016-06-08T19:20:42.000Z"
 * ```
 */
export function timeAt(object: JsonObject, key: string, where: string): string {
  const value = object[key];
  const iso =
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
  if (typeof value !== "string" || !iso.test(value)) {
    throw new ShapeError(`${where}.${key}`, "is not a date-time");
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new ShapeError(`${where}.${key}`, "is not a date-time");
  }
  return new Date(ms).toISOString();
}

/**
 * A member that may be absent or `null`, else a date-time as {@linkcode timeAt}.
 * @param object The object.
 * @param key The member.
 * @param where The object's path.
 * @returns The time in UTC ISO form, or `undefined`.
 * @throws {ShapeError} When present and not a date-time.
 */
export function optionalTimeAt(
  object: JsonObject,
  key: string,
  where: string,
): string | undefined {
  const value = object[key];
  return value === undefined || value === null
    ? undefined
    : timeAt(object, key, where);
}

/**
 * Whether a string is a commit SHA: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
 * @param value Any string.
 * @returns Whether it is one.
 * @example
 * ```ts
 * isSha("6dcb09b5b57875f334f61aebed695e2e4193db5e"); // true
 * ```
 */
export function isSha(value: string): boolean {
  return isFullSha(value);
}
