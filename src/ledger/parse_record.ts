/**
 * Reads a ledger record back from its file text (SPEC.md §5.2), validating every
 * field, and says precisely what is wrong with a malformed one. Pure; it does not
 * check that the record belongs to the gate it was found under (the store does).
 * @module
 */

import { isDigest } from "../digest/set_digest.ts";
import { LocatorError, parseRunLocator } from "../forge/run_locator.ts";
import { hasControlCharacter } from "../console/visible.ts";
import {
  MAX_NAME_LENGTH,
  MAX_PRINCIPAL_LENGTH,
  MAX_TARGET_LENGTH,
} from "../limits.ts";
import type { Seal } from "../seal/seal.ts";
import { MAX_ARMORED_SIGNATURE } from "../seal/sshsig.ts";
import { LEDGER_SEGMENT } from "./record_name.ts";
import {
  type ApprovalRecord,
  type ClaimedRun,
  type ClaimRecord,
  type ExpiredRecord,
  type LedgerRecord,
  type OutcomeJob,
  type OutOfOrderRecord,
  type PendingRecord,
  RECORD_KINDS,
  type RecordedPlansRecord,
  type RecordedWave,
  type RecordKind,
  type RunOutcomeRecord,
  type SettledRun,
  WAVE_OUTCOMES,
  type WaveOutcome,
  type WaveOutcomeRecord,
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
/** A commit's full sha (SHA-1 or SHA-256). */
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Decision ids: a compact time and random hex. */
const DECISION_ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** Record ids: safe in file names and messages. */
const RECORD_ID = /^[A-Za-z0-9_-]+$/;
/** The longest public key line of a seal. */
const MAX_SEAL_KEY = 16 * 1024;
/** The longest spec path a pending fact names. */
const MAX_SPEC_PATH = 4096;
const RECORD_ID_FORM = `a record id (letters, digits, "-" or "_")`;

type Json = Record<string, unknown>;

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

/** Validates fields of one parsed object, failing with the record's name. */
class Fields {
  /**
   * @param name The record's name, for messages.
   * @param json The parsed object.
   * @param problems Where a dropped optional field is reported.
   */
  constructor(
    readonly name: string,
    readonly json: Json,
    readonly problems: string[] = [],
  ) {}

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

  /** A list of plans: target, digest, attempt, and (with `settled`) the outcome. */
  runs(settled: false): ClaimedRun[];
  runs(settled: true): SettledRun[];
  runs(settled: boolean): ClaimedRun[] | SettledRun[] {
    const value = this.present("runs");
    if (!Array.isArray(value)) this.fail(`field "runs" must be a list`);
    return value.map((run, i) => {
      const at = new Fields(`${this.name}: runs[${i}]`, run ?? {});
      if (typeof run !== "object" || run === null) at.fail("is not an object");
      const target = at.text("target");
      if (target.length > MAX_TARGET_LENGTH || hasControlCharacter(target)) {
        at.fail(`field "target" is not a valid target`);
      }
      const attempt = at.count("attempt");
      if (attempt < 1) at.fail(`field "attempt" must be at least 1`);
      const plan = { target, planDigest: at.digest("planDigest"), attempt };
      if (!settled) return plan;
      const outcome = at.text("outcome");
      if (outcome !== "ok" && outcome !== "failed") {
        at.fail(
          `field "outcome" must be "ok" or "failed", got ${show(outcome)}`,
        );
      }
      return { ...plan, outcome };
    });
  }

  /** An optional string of at most `max` characters. */
  optionalBounded(key: string, max: number): Record<string, string> {
    const value = this.optionalText(key);
    if ((value[key]?.length ?? 0) > max) {
      this.fail(`field "${key}" is longer than ${max} characters`);
    }
    return value;
  }

  /** An optional full commit sha. */
  optionalSha(key: string): Record<string, string> {
    return this.json[key] === undefined
      ? {}
      : { [key]: this.matching(key, SHA, "a full commit sha") };
  }

  /**
   * The optional seal of an approval (SPEC.md §12): three strings within their
   * bounds. Whether it verifies is the gate's business.
   */
  optionalSeal(): { seal?: Seal } {
    const raw = this.json.seal;
    if (raw === undefined) return {};
    const seal = new Fields(`${this.name}: seal`, (raw ?? {}) as Json);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      seal.fail("is not an object");
    }
    const bounded = (key: string, max: number) => {
      const value = seal.text(key);
      if (value.length > max) {
        seal.fail(`field "${key}" is longer than ${max} characters`);
      }
      return value;
    };
    return {
      seal: {
        principal: bounded("principal", MAX_PRINCIPAL_LENGTH),
        publicKey: bounded("publicKey", MAX_SEAL_KEY),
        signature: bounded("signature", MAX_ARMORED_SIGNATURE),
      },
    };
  }

  /**
   * The optional run locator of a pending fact (SPEC.md §13): a bad one is
   * dropped and reported, never fatal, since the record still says what waits.
   */
  optionalLocator(): Pick<PendingRecord, "locator"> {
    if (this.json.locator === undefined) return {};
    try {
      return { locator: parseRunLocator(this.json.locator) };
    } catch (error) {
      if (!(error instanceof LocatorError)) throw error;
      this.problems.push(`${this.name}: ${error.message}; it is dropped`);
      return {};
    }
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
    ...f.optionalBounded("actor", MAX_PRINCIPAL_LENGTH),
    ...f.optionalSha("head"),
    ...f.optionalBounded("spec", MAX_SPEC_PATH),
    ...f.optionalLocator(),
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
    ...f.optionalSeal(),
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

function readClaim(
  f: Fields,
  head: ReturnType<typeof readHead>,
): ClaimRecord {
  return {
    ...head,
    kind: "claim",
    approvalId: f.matching("approvalId", RECORD_ID, RECORD_ID_FORM),
    decisionId: f.matching("decisionId", DECISION_ID, "a decision id"),
    runs: f.runs(false),
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
  };
}

function readRunOutcome(
  f: Fields,
  head: ReturnType<typeof readHead>,
): RunOutcomeRecord {
  return {
    ...head,
    kind: "run-outcome",
    approvalId: f.matching("approvalId", RECORD_ID, RECORD_ID_FORM),
    decisionId: f.matching("decisionId", DECISION_ID, "a decision id"),
    runs: f.runs(true),
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
  };
}

function readJob(f: Fields): OutcomeJob {
  const raw = f.present("job");
  const job = new Fields(`${f.name}: job`, (raw ?? {}) as Json);
  if (typeof raw !== "object" || raw === null) job.fail("is not an object");
  const kind = job.text("kind");
  if (kind !== "wave" && kind !== "share" && kind !== "group") {
    job.fail(`field "kind" must be wave, share or group, got ${show(kind)}`);
  }
  const share = job.json.share === undefined ? undefined : job.count("share");
  const group = job.json.group === undefined
    ? undefined
    : job.matching("group", RECORD_ID, "a group name");
  return {
    kind: kind as OutcomeJob["kind"],
    ...(share === undefined ? {} : { share }),
    ...(group === undefined ? {} : { group }),
  };
}

function readWaveOutcome(
  f: Fields,
  head: ReturnType<typeof readHead>,
): WaveOutcomeRecord {
  const outcome = f.text("outcome");
  if (!(WAVE_OUTCOMES as readonly string[]).includes(outcome)) {
    f.fail(`field "outcome" must be one of ${WAVE_OUTCOMES.join(", ")}`);
  }
  return {
    ...head,
    kind: "wave-outcome",
    wave: f.count("wave"),
    head: f.matching("head", SHA, "a full commit sha"),
    digest: f.digest("digest"),
    decisionId: f.matching("decisionId", DECISION_ID, "a decision id"),
    job: readJob(f),
    outcome: outcome as WaveOutcome,
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
  };
}

function readOutOfOrder(
  f: Fields,
  head: ReturnType<typeof readHead>,
): OutOfOrderRecord {
  return {
    ...head,
    kind: "out-of-order",
    wave: f.count("wave"),
    head: f.matching("head", SHA, "a full commit sha"),
    by: f.text("by"),
    reason: f.text("reason"),
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
  };
}

function readRecordedWaves(f: Fields): RecordedWave[] {
  const value = f.present("waves");
  if (!Array.isArray(value)) f.fail(`field "waves" must be a list`);
  return value.map((item, i) => {
    const at = new Fields(`${f.name}: waves[${i}]`, item ?? {});
    if (typeof item !== "object" || item === null) at.fail("is not an object");
    const wave = at.count("wave");
    if (wave < 1) at.fail(`field "wave" must be at least 1`);
    const name = at.text("name");
    if (name.length > MAX_NAME_LENGTH || hasControlCharacter(name)) {
      at.fail(`field "name" is not a valid wave name`);
    }
    const gate = at.matching("gate", LEDGER_SEGMENT, "a gate name");
    if (gate.length > 2 * MAX_NAME_LENGTH) {
      at.fail(`field "gate" is not a valid gate name`);
    }
    return { wave, name, gate, digest: at.digest("digest") };
  });
}

function readRecordedPlans(
  f: Fields,
  head: ReturnType<typeof readHead>,
): RecordedPlansRecord {
  return {
    ...head,
    kind: "recorded-plans",
    head: f.matching("head", SHA, "a full commit sha"),
    waves: readRecordedWaves(f),
    ...f.optionalText("runId"),
    timestamp: f.time("timestamp"),
  };
}

/**
 * Parses and validates one record's file text. Unknown fields are dropped; the
 * result has the fields of its kind only, in the order of SPEC.md §5.2.
 * @param text The file's text.
 * @param name The file's name or path, used as the prefix of error messages.
 * @param problems Where an optional field that is dropped as malformed (a
 *   pending fact's run locator) is reported, one line naming the record.
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
export function parseRecord(
  text: string,
  name: string,
  problems: string[] = [],
): LedgerRecord {
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
  const fields = new Fields(name, json as Json, problems);
  const head = readHead(fields);
  switch (head.kind) {
    case "pending":
      return readPending(fields, head);
    case "approval":
      return readApproval(fields, head);
    case "expired":
      return readExpired(fields, head);
    case "claim":
      return readClaim(fields, head);
    case "run-outcome":
      return readRunOutcome(fields, head);
    case "wave-outcome":
      return readWaveOutcome(fields, head);
    case "out-of-order":
      return readOutOfOrder(fields, head);
    case "recorded-plans":
      return readRecordedPlans(fields, head);
  }
}
