/**
 * Reads a ledger record back from its file text (SPEC.md §5.2), validating every
 * field, and says precisely what is wrong with a malformed one. Pure; it does not
 * check that the record belongs to the gate it was found under (the store does).
 * @module
 */

import { hasControlCharacter } from "../console/visible.ts";
import { MAX_NAME_LENGTH, MAX_PRINCIPAL_LENGTH } from "../limits.ts";
import { LEDGER_SEGMENT } from "./record_name.ts";
import {
  DECISION_ID,
  Fields,
  type Json,
  MAX_SPEC_PATH,
  RECORD_ID,
  RECORD_ID_FORM,
  RecordError,
  SHA,
  show,
} from "./_record_fields.ts";
import {
  type ApprovalRecord,
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
  WAVE_OUTCOMES,
  type WaveOutcome,
  type WaveOutcomeRecord,
} from "./records.ts";

export { RecordError } from "./_record_fields.ts";

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
    ...f.optionalShas("bases"),
    ...f.optionalBaseRule(),
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
    ...f.optionalText("via"),
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

/** The job attempt a claim or outcome names, when it names one (a record id). */
function optionalAttempt(f: Fields): { attemptId?: string } {
  return f.json.attemptId === undefined
    ? {}
    : { attemptId: f.matching("attemptId", RECORD_ID, RECORD_ID_FORM) };
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
    ...optionalAttempt(f),
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
    ...optionalAttempt(f),
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
    ...f.optionalBaseRule(),
    ...f.optionalText("runId"),
    ...f.optionalBounded("actor", MAX_PRINCIPAL_LENGTH),
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
