/**
 * The payload a sealed approval signs (SPEC.md §12): seven lines joined with LF,
 * no final LF, and an eighth, `during-freeze`, for an approval given with
 * `--during-freeze` (§19), so the flag is signed and an approval signed
 * without it never verifies with it. Pure; it neither signs nor checks the fields' formats (the
 * approval record's parser does).
 * @module
 */

import { SealFormatError } from "./seal.ts";

/** The first line of every approval payload: the format and its version. */
export const APPROVAL_PAYLOAD_HEADER = "chant-wave approval v2";

/** What an approval payload binds. */
export interface ApprovalPayloadFields {
  /** The rollout's name (the spec's `name`). */
  readonly name: string;
  /** The gate, `<gate>-wave-<k>`. */
  readonly gate: string;
  /** The set digest approved, `sha256:<64 hex>`. */
  readonly planDigest: string;
  /** Who approves, as recorded in `by`. */
  readonly by: string;
  /** When, as recorded in the approval record's `timestamp`. */
  readonly timestamp: string;
  /** The git ledger's counter when it was signed (`Seal.ledger`); absent: none. */
  readonly ledger?: number;
  /** Given with `--during-freeze`. */
  readonly duringFreeze?: boolean;
}

/**
 * Builds the approval payload: `chant-wave approval v2`, name, gate, planDigest,
 * by, timestamp and `ledger <counter>` (`ledger -` without one), and
 * `during-freeze` when it was given so, joined with `\n`, with no final
 * newline.
 * @param fields The approval's fields.
 * @returns The payload text (signed as its UTF-8 bytes).
 * @throws {SealFormatError} When a field contains a line break, which would
 * let two different approvals share one payload.
 * @example
 * ```ts
 * approvalPayload({
 *   name: "demo",
 *   gate: "demo-wave-2",
 *   planDigest: "sha256:" + "a".repeat(64),
 *   by: "ann@example.com",
 *   timestamp: "2025-01-02T03:04:05.678Z",
 *   ledger: 42,
 * });
 * // "chant-wave approval v2\ndemo\ndemo-wave-2\nsha256:aaa…\nann@example.com\n2025-01-02T03:04:05.678Z\nledger 42"
 * ```
 */
export function approvalPayload(fields: ApprovalPayloadFields): string {
  const { name, gate, planDigest, by, timestamp } = fields;
  const values = { name, gate, planDigest, by, timestamp };
  for (const [field, value] of Object.entries(values)) {
    if (/[\n\r]/.test(value)) {
      throw new SealFormatError(
        `the approval's "${field}" contains a line break`,
      );
    }
  }
  const ledger = fields.ledger;
  if (ledger !== undefined && !(Number.isSafeInteger(ledger) && ledger >= 0)) {
    throw new SealFormatError(`the approval's ledger counter is not a count`);
  }
  return [
    APPROVAL_PAYLOAD_HEADER,
    name,
    gate,
    planDigest,
    by,
    timestamp,
    `ledger ${ledger ?? "-"}`,
    ...fields.duringFreeze === true ? ["during-freeze"] : [],
  ].join("\n");
}
