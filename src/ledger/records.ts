/**
 * The ledger's records (SPEC.md §5.2): `pending`, `approval`, `applied` and
 * `expired`, their constructors (id and timestamp injected) and their JSON text.
 * Pure; where records are stored is the `LedgerStore`'s business, and reading
 * untrusted text back is `parseRecord`'s.
 * @module
 */

import type { Clock } from "../clock.ts";
import { type RandomBytes, randomHex, webRandomBytes } from "./random_hex.ts";

/** The record kinds, in the order of SPEC.md §5.2. */
export const RECORD_KINDS = [
  "pending",
  "approval",
  "applied",
  "expired",
] as const;

/** One of {@linkcode RECORD_KINDS}. */
export type RecordKind = typeof RECORD_KINDS[number];

/** The fields every record has. */
export interface RecordBase {
  /** The record format's version. */
  version: 1;
  /** Random, unique: 32 lowercase hex digits when chant-wave writes it. */
  id: string;
  /** The spec's `name`. */
  name: string;
  /** The gate, `<gate>-wave-<k>`. */
  gate: string;
  /** When it was written, ISO 8601 UTC (`2026-11-30T09:15:02.123Z`). */
  timestamp: string;
}

/** A wave waited for an approval of `planDigest`; stands until `expiresAt`. */
export interface PendingRecord extends RecordBase {
  /** Always `pending`. */
  kind: "pending";
  /** The set digest the wave waits for. */
  planDigest: string;
  /** The plans' summaries, for approvers. */
  description: string;
  /** How many members the wave has. */
  members: number;
  /** The base commit the policy was read at (full sha). */
  base: string;
  /** The CI run that waited, when known. */
  runId?: string;
  /** When the pending fact stops standing, ISO 8601 UTC. */
  expiresAt: string;
}

/** Someone approved the set digest `planDigest` for the gate. */
export interface ApprovalRecord extends RecordBase {
  /** Always `approval`. */
  kind: "approval";
  /** The set digest approved. */
  planDigest: string;
  /** Who approved. */
  by: string;
  /** Why, free text. */
  note?: string;
  /** A link for context (a run, a review). */
  url?: string;
}

/** A decision applied under an approval, spending it for every other decision. */
export interface AppliedRecord extends RecordBase {
  /** Always `applied`. */
  kind: "applied";
  /** The set digest applied. */
  planDigest: string;
  /** The `id` of the approval spent. */
  approvalId: string;
  /** The decision that spent it. */
  decisionId: string;
  /** The CI run that applied, when known. */
  runId?: string;
}

/** Clears a standing gate (`chant-wave revoke`): earlier approvals and pending facts stop counting. */
export interface ExpiredRecord extends RecordBase {
  /** Always `expired`. */
  kind: "expired";
  /** Who revoked (`revoke --by`, else the CI actor, git user.email or `USER`). */
  by?: string;
  /** Why, free text (`revoke --note`). */
  note?: string;
  /**
   * The ids of the approvals it ends (SPEC.md §14): those never count again,
   * whatever their timestamp says.
   */
  approvals?: string[];
}

/** Any ledger record, discriminated by `kind`. */
export type LedgerRecord =
  | PendingRecord
  | ApprovalRecord
  | AppliedRecord
  | ExpiredRecord;

/** The injected parts of a new record: its id and the time it is made. */
export interface RecordStamp {
  /** The record's id. */
  id: string;
  /** Milliseconds since the Unix epoch. */
  now: number;
}

/**
 * Stamps a new record: a 128-bit random id and the clock's time.
 * @param clock Tells the time.
 * @param random Where the id's bytes come from.
 * @default random webRandomBytes
 * @returns The stamp to pass to a record constructor.
 */
export function newStamp(
  clock: Pick<Clock, "now">,
  random: RandomBytes = webRandomBytes,
): RecordStamp {
  return { id: randomHex(16, random), now: clock.now() };
}

/** A record's own fields: all but those the constructors fill in. */
export type RecordFields<R extends LedgerRecord> = Omit<
  R,
  "version" | "kind" | "id" | "timestamp"
>;

/** The leading fields, in the order of SPEC.md §5.2: version, kind, id, name, gate. */
function head<K extends RecordKind>(
  kind: K,
  stamp: RecordStamp,
  fields: { name: string; gate: string },
) {
  return {
    version: 1 as const,
    kind,
    id: stamp.id,
    name: fields.name,
    gate: fields.gate,
  };
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Copies the optional string fields that are set, in the given order. */
function optional<T extends object>(
  fields: T,
  keys: readonly (keyof T)[],
): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) {
    if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out;
}

/**
 * Makes a `pending` record that stands for `ttlMs` from the stamp's time.
 * @param fields The record's own fields, without `expiresAt`.
 * @param ttlMs How long it stands, in milliseconds (`pendingTtl`).
 * @param stamp Its id and time.
 * @returns The record, fields in the order of SPEC.md §5.2.
 * @example
 * ```ts
 * pendingRecord({ name: "n", gate: "n-wave-1", planDigest: d, description: "",
 *   members: 2, base: sha }, 3_600_000, { id: "01", now: 0 }).expiresAt;
 * // "1970-01-01T01:00:00.000Z"
 * ```
 */
export function pendingRecord(
  fields: Omit<RecordFields<PendingRecord>, "expiresAt">,
  ttlMs: number,
  stamp: RecordStamp,
): PendingRecord {
  return {
    ...head("pending", stamp, fields),
    planDigest: fields.planDigest,
    description: fields.description,
    members: fields.members,
    base: fields.base,
    ...optional(fields, ["runId"]),
    timestamp: isoTime(stamp.now),
    expiresAt: isoTime(stamp.now + ttlMs),
  };
}

/**
 * Makes an `approval` record.
 * @param fields The record's own fields.
 * @param stamp Its id and time.
 * @returns The record.
 * @example
 * ```ts
 * approvalRecord({ name: "n", gate: "n-wave-1", planDigest: d, by: "ann" },
 *   { id: "01", now: 0 }).timestamp; // "1970-01-01T00:00:00.000Z"
 * ```
 */
export function approvalRecord(
  fields: RecordFields<ApprovalRecord>,
  stamp: RecordStamp,
): ApprovalRecord {
  return {
    ...head("approval", stamp, fields),
    planDigest: fields.planDigest,
    by: fields.by,
    ...optional(fields, ["note", "url"]),
    timestamp: isoTime(stamp.now),
  };
}

/**
 * Makes an `applied` record: `decisionId` spends approval `approvalId`.
 * @param fields The record's own fields.
 * @param stamp Its id and time.
 * @returns The record.
 * @example
 * ```ts
 * appliedRecord({ name: "n", gate: "n-wave-1", planDigest: d, approvalId: "01",
 *   decisionId: "dec-1" }, { id: "02", now: 0 }).kind; // "applied"
 * ```
 */
export function appliedRecord(
  fields: RecordFields<AppliedRecord>,
  stamp: RecordStamp,
): AppliedRecord {
  return {
    ...head("applied", stamp, fields),
    planDigest: fields.planDigest,
    approvalId: fields.approvalId,
    decisionId: fields.decisionId,
    ...optional(fields, ["runId"]),
    timestamp: isoTime(stamp.now),
  };
}

/**
 * Makes an `expired` record (`chant-wave revoke`).
 * @param fields The gate, and optionally who revoked, a note and the approvals it ends.
 * @param stamp Its id and time.
 * @returns The record.
 * @example
 * ```ts
 * expiredRecord({ name: "n", gate: "n-wave-1" }, { id: "03", now: 0 }).kind;
 * // "expired"
 * ```
 */
export function expiredRecord(
  fields: RecordFields<ExpiredRecord>,
  stamp: RecordStamp,
): ExpiredRecord {
  return {
    ...head("expired", stamp, fields),
    ...optional(fields, ["by", "note", "approvals"]),
    timestamp: isoTime(stamp.now),
  };
}

/**
 * Serialises a record as stored: pretty JSON (two spaces) and a final newline, so
 * records read well and diff well in the git ledger.
 * @param record The record.
 * @returns Its file text.
 * @example
 * ```ts
 * formatRecord(expiredRecord({ name: "n", gate: "g" }, { id: "a", now: 0 }));
 * // '{\n  "version": 1,\n  "id": "a", …\n}\n'
 * ```
 */
export function formatRecord(record: LedgerRecord): string {
  return JSON.stringify(record, null, 2) + "\n";
}
