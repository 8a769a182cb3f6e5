/**
 * Reads a ledger record back from its file text (SPEC.md §5.2), validating every
 * field, and says precisely what is wrong with a malformed one. Pure; it does not
 * check that the record belongs to the gate it was found under (the store does).
 * @module
 */

import { isDigest } from "../digest/set_digest.ts";
import {
  type AppliedRecord,
  type ApprovalRecord,
  type ExpiredRecord,
  type LedgerRecord,
  type PendingRecord,
  RECORD_KINDS,
  type RecordKind,
} from "./records.ts";

/** A record file that is not a valid record; the message starts with its name. */
export class RecordError extends Error {
  /**
   * Makes the error `<name>: <what>`.
   * @param name The record's file name or path, as shown to the user.
   * @param what What is wrong.
   */
  constructor(name: string, what: string) {
    super(`${name}: ${what}`);
    this.name = "RecordError";
  }
}

/** The ISO 8601 UTC form of `timestamp` and `expiresAt`. */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** Record ids: safe in file names and messages. */
const RECORD_ID = /^[A-Za-z0-9_-]+$/;
const RECORD_ID_FORM = `a record id (letters, digits, "-" or "_")`;

type Json = Record<string, unknown>;

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

/** Validates fields of one parsed object, failing with the record's name. */
class Fields {
  constructor(readonly name: string, readonly json: Json) {}

  fail(what: string): never {
    throw new RecordError(this.name, what);
  }

  present(key: string): unknown {
    const value = this.json[key];
    if (value === undefined) this.fail(`missing field "${key}"`);
    return value;
  }

  text(key: string, allowEmpty = false): string {
    const value = this.present(key);
    if (typeof value !== "string") {
      this.fail(`field "${key}" must be a string, got ${show(value)}`);
    }
    if (!allowEmpty && value === "") this.fail(`field "${key}" is empty`);
    return value;
  }

  optionalText(key: string): Record<string, string> {
    return this.json[key] === undefined ? {} : { [key]: this.text(key, true) };
  }

  optionalIds(key: string): { [key: string]: string[] } {
    const value = this.json[key];
    if (value === undefined) return {};
    if (
      !Array.isArray(value) ||
      !value.every((id) => typeof id === "string" && RECORD_ID.test(id))
    ) {
      this.fail(`field "${key}" must be a list of record ids`);
    }
    return { [key]: value as string[] };
  }

  matching(key: string, pattern: RegExp, form: string): string {
    const value = this.text(key);
    if (!pattern.test(value)) {
      this.fail(`field "${key}" must be ${form}, got ${show(value)}`);
    }
    return value;
  }

  digest(key: string): string {
    const value = this.text(key);
    if (!isDigest(value)) {
      this.fail(
        `field "${key}" must be "sha256:" and 64 lowercase hex, got ${
          show(value)
        }`,
      );
    }
    return value;
  }

  time(key: string): string {
    const value = this.matching(key, UTC_TIME, "an ISO 8601 UTC time");
    if (Number.isNaN(Date.parse(value))) {
      this.fail(`field "${key}" is not a valid time: ${show(value)}`);
    }
    return value;
  }

  count(key: string): number {
    const value = this.present(key);
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      this.fail(
        `field "${key}" must be a non-negative integer, got ${show(value)}`,
      );
    }
    return value as number;
  }
}

function readHead(fields: Fields) {
  const version = fields.present("version");
  if (version !== 1) {
    fields.fail(`unsupported record version ${show(version)}; expected 1`);
  }
  const kind = fields.present("kind");
  if (!RECORD_KINDS.includes(kind as RecordKind)) {
    const known = RECORD_KINDS.map((k) => `"${k}"`).join(", ");
    fields.fail(`unknown record kind ${show(kind)}; expected one of ${known}`);
  }
  return {
    version: 1 as const,
    kind: kind as RecordKind,
    id: fields.matching("id", RECORD_ID, RECORD_ID_FORM),
    name: fields.text("name"),
    gate: fields.text("gate"),
  };
}

function readPending(
  f: Fields,
  head: ReturnType<typeof readHead>,
): PendingRecord {
  return {
    ...head,
    kind: "pending",
    planDigest: f.digest("planDigest"),
    description: f.text("description", true),
    members: f.count("members"),
    base: f.text("base"),
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
    expiresAt: f.time("expiresAt"),
  };
}

function readApproval(
  f: Fields,
  head: ReturnType<typeof readHead>,
): ApprovalRecord {
  return {
    ...head,
    kind: "approval",
    planDigest: f.digest("planDigest"),
    by: f.text("by"),
    ...f.optionalText("note"),
    ...f.optionalText("url"),
    timestamp: f.time("timestamp"),
  };
}

function readApplied(
  f: Fields,
  head: ReturnType<typeof readHead>,
): AppliedRecord {
  return {
    ...head,
    kind: "applied",
    planDigest: f.digest("planDigest"),
    approvalId: f.matching("approvalId", RECORD_ID, RECORD_ID_FORM),
    decisionId: f.text("decisionId"),
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
  };
}

function readExpired(
  f: Fields,
  head: ReturnType<typeof readHead>,
): ExpiredRecord {
  return {
    ...head,
    kind: "expired",
    ...f.optionalText("by"),
    ...f.optionalText("note"),
    ...f.optionalIds("approvals"),
    timestamp: f.time("timestamp"),
  };
}

/**
 * Parses and validates one record's file text. Unknown fields are dropped; the
 * result has the fields of its kind only, in the order of SPEC.md §5.2.
 * @param text The file's text.
 * @param name The file's name or path, used as the prefix of error messages.
 * @returns The record.
 * @throws {RecordError} When the text is not JSON, not an object, of another
 * version or an unknown kind, lacks a field or has one of the wrong form
 * (`<name>: missing field "by"`).
 * @example
 * ```ts
 * parseRecord('{"version":1,"kind":"expired","id":"a1","name":"n","gate":"g",' +
 *   '"timestamp":"2026-11-30T09:15:02.123Z"}', "x.json").kind; // "expired"
 * parseRecord("{", "x.json"); // throws RecordError "x.json: record is not valid JSON: …"
 * ```
 */
export function parseRecord(text: string, name: string): LedgerRecord {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new RecordError(name, `record is not valid JSON: ${detail}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new RecordError(name, "record is not a JSON object");
  }
  const fields = new Fields(name, json as Json);
  const head = readHead(fields);
  switch (head.kind) {
    case "pending":
      return readPending(fields, head);
    case "approval":
      return readApproval(fields, head);
    case "applied":
      return readApplied(fields, head);
    case "expired":
      return readExpired(fields, head);
  }
}
