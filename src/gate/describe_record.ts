/**
 * One line per record for `chant-wave ledger log` and the status output: time,
 * kind, short id and what the record says. Pure formatting; which records to show
 * and in what order is the caller's.
 * @module
 */

import type { LedgerRecord } from "./records.ts";
import { isSettleRevoke } from "./gate_messages.ts";

/**
 * Shortens a digest for a log line: `sha256:` and its first 12 hex digits.
 * Anything else is returned unchanged.
 * @param digest A digest.
 * @returns The short form.
 * @example
 * ```ts
 * shortDigest("sha256:" + "ab".repeat(32)); // "sha256:abababababab"
 * ```
 */
export function shortDigest(digest: string): string {
  return digest.startsWith("sha256:") ? digest.slice(0, 7 + 12) : digest;
}

/**
 * Shortens a record id for a log line: its first 12 characters.
 * @param id A record id.
 * @returns The short form.
 * @example
 * ```ts
 * shortId("0123456789abcdef0123456789abcdef"); // "0123456789ab"
 * ```
 */
export function shortId(id: string): string {
  return id.slice(0, 12);
}

/** What a listing adds to a record: the seal of a sealed approval. */
export interface RecordExtras {
  /** The seal's principal and key fingerprint (as claimed, or as verified). */
  sealedBy?: { principal: string; fingerprint: string };
}

function details(record: LedgerRecord, extras: RecordExtras): string {
  switch (record.kind) {
    case "pending": {
      const members = `${record.members} member${
        record.members === 1 ? "" : "s"
      }`;
      const run = record.runId ? `, run ${record.runId}` : "";
      const about = record.description
        ? `: ${firstLine(record.description)}`
        : "";
      const base = record.base.slice(0, 12);
      return `${shortDigest(record.planDigest)} waiting, ${members}, ` +
        `base ${base}, until ${record.expiresAt}${run}${about}`;
    }
    case "approval":
      return `${shortDigest(record.planDigest)} by ${record.by}` +
        (extras.sealedBy
          ? `, sealed by ${extras.sealedBy.principal} (${extras.sealedBy.fingerprint})`
          : "") +
        (record.note ? `: ${firstLine(record.note)}` : "") +
        (record.url ? ` <${record.url}>` : "");
    case "claim":
      return `${plans(record.runs.length)} by decision ${record.decisionId}` +
        ` under approval ${shortId(record.approvalId)}: ${
          targets(record.runs.map((r) => r.target))
        }` + (record.runId ? `, run ${record.runId}` : "");
    case "run-outcome": {
      const ok = record.runs.filter((r) => r.outcome === "ok");
      const failed = record.runs.filter((r) => r.outcome === "failed");
      const parts = [
        ok.length ? `applied ${targets(ok.map((r) => r.target))}` : "",
        failed.length ? `failed ${targets(failed.map((r) => r.target))}` : "",
      ].filter(Boolean);
      return `decision ${record.decisionId} under approval ${
        shortId(record.approvalId)
      }: ${parts.join("; ")}` + (record.runId ? `, run ${record.runId}` : "");
    }
    case "wave-outcome": {
      // One job's outcome: a wave with several jobs is applied only once
      // every job of it is, so the line names the job first.
      const job = record.job.kind === "wave"
        ? "whole-wave job"
        : record.job.kind === "decide"
        ? "deciding job (the canary runs)"
        : [
          record.job.group ? `group "${record.job.group}"` : "",
          record.job.share ? `share ${record.job.share}` : "",
        ].filter(Boolean).join(" ") + " job";
      return `${job} of wave ${record.wave}: ${record.outcome} at ${
        record.head.slice(0, 12)
      }, decision ${record.decisionId}` +
        (record.runId ? `, run ${record.runId}` : "");
    }
    case "out-of-order":
      return `wave ${record.wave} ran out of order at ${
        record.head.slice(0, 12)
      } by ${record.by}: ${firstLine(record.reason)}` +
        (record.runId ? `, run ${record.runId}` : "");
    case "waiting":
      return `wave ${record.wave} waits for its ${record.why} at ${
        record.head.slice(0, 12)
      } until ${record.until}` + (record.runId ? `, run ${record.runId}` : "");
    case "recorded-plans":
      return `plans at ${record.head.slice(0, 12)}: ${
        record.waves.map((w) => `wave ${w.wave} ${shortDigest(w.digest)}`)
          .join(", ")
      }` + (record.runId ? `, run ${record.runId}` : "");
    case "folded":
      return `${plural(record.records, "record")} and ${
        plural(record.sets, "plan set")
      } before revoke ${shortId(record.through)} folded into ${
        record.archive.slice(0, 40)
      }`;
    case "expired":
      return isSettleRevoke(record)
        ? "settled: every approval before it was spent (its plans applied)"
        : "revoked" + (record.by ? ` by ${record.by}` : "") +
          (record.note ? `: ${firstLine(record.note)}` : "");
  }
}

const NAMED = 3;

function plans(count: number): string {
  return plural(count, "plan");
}

function plural(count: number, what: string): string {
  return `${count} ${what}${count === 1 ? "" : "s"}`;
}

function targets(list: readonly string[]): string {
  const more = list.length - NAMED;
  return list.slice(0, NAMED).join(", ") +
    (more > 0 ? ` and ${more} more` : "");
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0];
  return line.length < text.length ? `${line} …` : line;
}

/**
 * Describes a record in one line: `<timestamp> <kind> <id12> <details>`, the kind
 * padded so columns align. Multi-line descriptions and notes keep their first line.
 * @param record The record.
 * @param extras What the listing knows beyond the record (a seal's fingerprint).
 * @returns One line, without a newline.
 * @example
 * ```ts
 * describeRecord(approval);
 * // "2026-11-30T09:15:02.123Z approval 0123456789ab sha256:abababababab by ann: ok"
 * ```
 */
export function describeRecord(
  record: LedgerRecord,
  extras: RecordExtras = {},
): string {
  return `${record.timestamp} ${record.kind.padEnd(8)} ${shortId(record.id)} ${
    details(record, extras)
  }`;
}
