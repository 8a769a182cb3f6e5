/**
 * Reads a ledger record back from its file text (SPEC.md §5.2) with the input
 * reader, validating every field, and says precisely what is wrong with a
 * malformed one (one `ShapeError` named by the record). Pure; it does not
 * check that the record belongs to the gate it was found under (the store does).
 * @module
 */

import { hasControlCharacter } from "../console/visible.ts";
import { JsonReader, parseJson } from "../input/json_reader.ts";
import { MAX_NAME_LENGTH, MAX_PRINCIPAL_LENGTH } from "../limits.ts";
import { quoteValue } from "../quote.ts";
import { LEDGER_SEGMENT, recordFileName } from "./record_name.ts";
import {
  count,
  matching,
  MAX_SPEC_PATH,
  optionalActionsThrough,
  optionalBaseRule,
  optionalId,
  optionalIds,
  optionalLocator,
  optionalSeal,
  optionalSha,
  optionalShas,
  optionalTargets,
  optionalText,
  RECORD_ID,
  RECORD_ID_FORM,
  runs,
  text,
  time,
} from "./_record_fields.ts";
import {
  type ApprovalRecord,
  type ClaimRecord,
  DECISION_ID,
  type ExpiredRecord,
  type FoldedCounts,
  type FoldedRecord,
  formatRecord,
  type LedgerRecord,
  type OutcomeJob,
  type OutOfOrderRecord,
  type PendingRecord,
  RECORD_KINDS,
  type RecordedPlansRecord,
  type RecordedWave,
  type RecordKind,
  type RunOutcomeRecord,
  WAIT_REASONS,
  type WaitingRecord,
  WAVE_OUTCOMES,
  type WaveOutcomeRecord,
} from "./records.ts";

type Head = ReturnType<typeof readHead>;

function readHead(f: JsonReader) {
  const version = f.get("version").required();
  if (version.value !== 1) {
    f.fail(
      `unsupported record version ${quoteValue(version.value)}; expected 1`,
    );
  }
  const kind = f.get("kind").required();
  if (!RECORD_KINDS.includes(kind.value as RecordKind)) {
    const known = RECORD_KINDS.map((k) => `"${k}"`).join(", ");
    f.fail(
      `unknown record kind ${quoteValue(kind.value)}; expected one of ${known}`,
    );
  }
  return {
    version: 1 as const,
    kind: kind.value as RecordKind,
    id: matching(f, "id", RECORD_ID, RECORD_ID_FORM),
    name: text(f, "name"),
    gate: text(f, "gate"),
  };
}

function readPending(
  f: JsonReader,
  head: Head,
  context: { name: string; problems: string[] },
): PendingRecord {
  return {
    ...head,
    kind: "pending",
    planDigest: f.get("planDigest").digest(),
    description: text(f, "description", true),
    members: count(f, "members"),
    base: text(f, "base"),
    ...optionalShas(f, "bases"),
    ...optionalBaseRule(f),
    ...optionalText(f, "runId"),
    ...optionalText(f, "actor", MAX_PRINCIPAL_LENGTH),
    ...optionalSha(f, "head"),
    ...optionalText(f, "spec", MAX_SPEC_PATH),
    ...optionalText(f, "wave", MAX_NAME_LENGTH),
    ...optionalLocator(f, context.name, context.problems),
    timestamp: time(f, "timestamp"),
    expiresAt: time(f, "expiresAt"),
  };
}

function readApproval(f: JsonReader, head: Head): ApprovalRecord {
  return {
    ...head,
    kind: "approval",
    planDigest: f.get("planDigest").digest(),
    by: text(f, "by"),
    ...optionalText(f, "note"),
    ...optionalText(f, "url"),
    ...optionalText(f, "via"),
    ...optionalSeal(f),
    ...duringFreeze(f),
    timestamp: time(f, "timestamp"),
  };
}

/** `duringFreeze`: absent, or `true` (`false` would say nothing, so it is refused). */
function duringFreeze(f: JsonReader): { duringFreeze?: true } {
  const field = f.get("duringFreeze");
  if (field.absent) return {};
  if (field.boolean() !== true) field.fail("is false; leave it out instead");
  return { duringFreeze: true };
}

function readExpired(f: JsonReader, head: Head): ExpiredRecord {
  return {
    ...head,
    kind: "expired",
    ...optionalText(f, "by"),
    ...optionalText(f, "note"),
    ...optionalIds(f, "approvals"),
    ...optionalActionsThrough(f),
    timestamp: time(f, "timestamp"),
  };
}

function readClaim(f: JsonReader, head: Head): ClaimRecord {
  return {
    ...head,
    kind: "claim",
    approvalId: matching(f, "approvalId", RECORD_ID, RECORD_ID_FORM),
    decisionId: matching(f, "decisionId", DECISION_ID, "a decision id"),
    ...optionalId(f, "attemptId"),
    runs: runs(f, false),
    ...optionalText(f, "runId"),
    timestamp: time(f, "timestamp"),
  };
}

function readRunOutcome(f: JsonReader, head: Head): RunOutcomeRecord {
  return {
    ...head,
    kind: "run-outcome",
    approvalId: matching(f, "approvalId", RECORD_ID, RECORD_ID_FORM),
    decisionId: matching(f, "decisionId", DECISION_ID, "a decision id"),
    ...optionalId(f, "attemptId"),
    runs: runs(f, true),
    ...optionalText(f, "runId"),
    timestamp: time(f, "timestamp"),
  };
}

function readJob(f: JsonReader): OutcomeJob {
  const job = f.get("job").object();
  const kind = job.get("kind").oneOf(["wave", "share", "group", "decide"]);
  const share = job.get("share").optional((r) => r.integer());
  const group = job.get("group").optional((r) =>
    r.matching(RECORD_ID, "a group name")
  );
  return {
    kind,
    ...(share === undefined ? {} : { share }),
    ...(group === undefined ? {} : { group }),
  };
}

function readWaveOutcome(f: JsonReader, head: Head): WaveOutcomeRecord {
  const outcome = f.get("outcome").oneOf(WAVE_OUTCOMES);
  return {
    ...head,
    kind: "wave-outcome",
    wave: count(f, "wave"),
    head: f.get("head").fullSha(),
    digest: f.get("digest").digest(),
    decisionId: matching(f, "decisionId", DECISION_ID, "a decision id"),
    job: readJob(f),
    outcome,
    ...optionalTargets(f, "canaryFailed"),
    ...optionalBaseRule(f),
    ...optionalText(f, "runId"),
    ...optionalText(f, "actor", MAX_PRINCIPAL_LENGTH),
    timestamp: time(f, "timestamp"),
  };
}

function readWaiting(
  f: JsonReader,
  head: Head,
  context: { name: string; problems: string[] },
): WaitingRecord {
  const why = f.get("why").required();
  if (!WAIT_REASONS.includes(why.value as WaitingRecord["why"])) {
    f.fail(
      `"why" is ${quoteValue(why.value)}; expected ${
        WAIT_REASONS.map((r) => `"${r}"`).join(" or ")
      }`,
    );
  }
  return {
    ...head,
    kind: "waiting",
    wave: count(f, "wave"),
    head: f.get("head").fullSha(),
    why: why.value as WaitingRecord["why"],
    until: time(f, "until"),
    ...optionalText(f, "runId"),
    ...optionalLocator(f, context.name, context.problems),
    timestamp: time(f, "timestamp"),
  };
}

function readOutOfOrder(f: JsonReader, head: Head): OutOfOrderRecord {
  return {
    ...head,
    kind: "out-of-order",
    wave: count(f, "wave"),
    head: f.get("head").fullSha(),
    by: text(f, "by"),
    reason: text(f, "reason"),
    ...optionalText(f, "runId"),
    timestamp: time(f, "timestamp"),
  };
}

function readRecordedWaves(f: JsonReader): RecordedWave[] {
  return f.get("waves").list().map((at) => {
    at.object();
    const wave = at.get("wave").integer({ min: 1 });
    const name = text(at, "name");
    if (name.length > MAX_NAME_LENGTH || hasControlCharacter(name)) {
      at.get("name").fail("is not a valid wave name");
    }
    const gate = matching(at, "gate", LEDGER_SEGMENT, "a gate name");
    if (gate.length > 2 * MAX_NAME_LENGTH) {
      at.get("gate").fail("is not a valid gate name");
    }
    return { wave, name, gate, digest: at.get("digest").digest() };
  });
}

function readRecordedPlans(f: JsonReader, head: Head): RecordedPlansRecord {
  return {
    ...head,
    kind: "recorded-plans",
    head: f.get("head").fullSha(),
    waves: readRecordedWaves(f),
    ...optionalText(f, "runId"),
    timestamp: time(f, "timestamp"),
  };
}

function readCounts(f: JsonReader): FoldedCounts {
  const at = f.get("counts").required().object();
  const counts: FoldedCounts = {};
  for (const key of at.unknownKeys([])) {
    if (!RECORD_KINDS.includes(key as RecordKind)) {
      at.fail(`names an unknown record kind ${quoteValue(key)}`);
    }
    counts[key as RecordKind] = count(at, key);
  }
  return counts;
}

function readFolded(f: JsonReader, head: Head): FoldedRecord {
  const archive = text(f, "archive");
  if (archive.length > MAX_SPEC_PATH || hasControlCharacter(archive)) {
    f.get("archive").fail("is not a commit or a folder");
  }
  return {
    ...head,
    kind: "folded",
    through: matching(f, "through", RECORD_ID, RECORD_ID_FORM),
    records: count(f, "records"),
    counts: readCounts(f),
    sets: count(f, "sets"),
    ...optionalIds(f, "approvals"),
    archive,
    timestamp: time(f, "timestamp"),
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
 * @throws {ShapeError} Named by `name` when the text is not JSON, not an
 * object, of another version or an unknown kind, lacks a field or has one of
 * the wrong form (`<name>: has no "by"`).
 * @example
 * ```ts
 * parseRecord('{"version":1,"kind":"expired","id":"a1","name":"n","gate":"g",' +
 *   '"timestamp":"2026-11-30T09:15:02.123Z"}', "x.json").kind; // "expired"
 * parseRecord("{", "x.json"); // throws ShapeError "x.json: record is not valid JSON: …"
 * ```
 */
export function parseRecord(
  text: string,
  name: string,
  problems: string[] = [],
): LedgerRecord {
  const json = parseJson(text, {
    source: name,
    invalid: "record is not valid JSON",
  });
  const f = new JsonReader(json, { source: name });
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    f.fail("record is not a JSON object");
  }
  const head = readHead(f);
  switch (head.kind) {
    case "pending":
      return readPending(f, head, { name, problems });
    case "approval":
      return readApproval(f, head);
    case "expired":
      return readExpired(f, head);
    case "claim":
      return readClaim(f, head);
    case "run-outcome":
      return readRunOutcome(f, head);
    case "wave-outcome":
      return readWaveOutcome(f, head);
    case "out-of-order":
      return readOutOfOrder(f, head);
    case "waiting":
      return readWaiting(f, head, { name, problems });
    case "recorded-plans":
      return readRecordedPlans(f, head);
    case "folded":
      return readFolded(f, head);
  }
}

/**
 * The text of a record as stored (`formatRecord`), checked to read back:
 * every store writes records through it.
 * @param record The record.
 * @returns Its file text.
 * @throws {ShapeError} Named by the record's file name when it would not read
 *   back (a field of the wrong form).
 * @example
 * ```ts
 * recordText(expiredRecord({ name: "n", gate: "g" }, { id: "a", now: 0 }));
 * // '{\n  "version": 1,\n  "kind": "expired", …\n}\n'
 * ```
 */
export function recordText(record: LedgerRecord): string {
  const text = formatRecord(record);
  parseRecord(text, recordFileName(record));
  return text;
}
