/**
 * The bounds chant-wave puts on everything it reads (SPEC.md §14), in one place
 * so the parser, the readers and the docs agree.
 * @module
 */

/** A spec file's largest size, in bytes. */
export const MAX_SPEC_BYTES = 1024 * 1024;
/** How deep a spec's JSON may nest. */
export const MAX_SPEC_DEPTH = 64;
/** The longest name (spec, wave, gate, group), in characters. */
export const MAX_NAME_LENGTH = 64;
/** The longest run target, in characters. */
export const MAX_TARGET_LENGTH = 256;
/** The longest principal or principal pattern (approvers, seals), in characters. */
export const MAX_PRINCIPAL_LENGTH = 256;
/** The most distinct approvers a wave may require (SPEC.md §12.1). */
export const MAX_REQUIRED_APPROVERS = 100;
/** The longest `signers` path, in characters. */
export const MAX_SIGNERS_PATH = 1024;
/** The longest unknown key or value echoed in a message, in characters. */
export const MAX_ECHO_LENGTH = 60;
/** A plan file's largest size, in bytes. */
export const MAX_PLAN_FILE_BYTES = 1024 * 1024;
/** A whole-wave plans file's largest size, in bytes. */
export const MAX_PLANS_FILE_BYTES = 64 * 1024 * 1024;
/** A ledger record's largest size, in bytes. */
export const MAX_RECORD_BYTES = 64 * 1024;
/** A decision record's largest size, in bytes (it lists every member). */
export const MAX_DECISION_BYTES = 64 * 1024 * 1024;
/** A CI event file's largest size, in bytes. */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** How far in the future a record may be dated before it stops counting, in ms. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Formats a byte bound: `64 KiB`, `1 MiB`.
 * @param bytes A size.
 * @returns It in the largest whole binary unit.
 * @example
 * ```ts
 * formatBytes(65536); // "64 KiB"
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
