/**
 * Durations of the spec and the command line (SPEC.md §2, §3.1): `90s`, `15m`,
 * `2h`, `1h30m`, or `0` for off, as milliseconds. Pure; it does not decide what a
 * zero means for a given field.
 * @module
 */

/**
 * The accepted forms: `0`, or hours, minutes and seconds in that order, each
 * optional but at least one present (`2h`, `1h30m`, `90s`, `1h0m5s`).
 */
export const DURATION_PATTERN: RegExp =
  /^(?:0|(?=\d)(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?)$/;

/** The hint that ends every message about a malformed duration. */
export const DURATION_HINT =
  'use a form like "90s", "15m", "2h" or "1h30m", or 0';

/**
 * Parses a duration to milliseconds.
 * @param text `90s`, `15m`, `2h`, `1h30m` (hours, minutes, seconds in that order)
 *   or `0`.
 * @returns The duration in milliseconds; 0 for `0`, `0s` and the like.
 * @throws {Error} `invalid duration "<text>": use a form like …` for any other
 *   form, or `duration "<text>" is too long` past the safe integer range.
 * @example
 * ```ts
 * parseDuration("1h30m"); // 5_400_000
 * parseDuration("0"); // 0
 * ```
 */
export function parseDuration(text: string): number {
  const match = DURATION_PATTERN.exec(text);
  if (!match) {
    throw new Error(
      `invalid duration ${JSON.stringify(text)}: ${DURATION_HINT}`,
    );
  }
  const [hours, minutes, seconds] = match.slice(1).map((part) =>
    Number(part ?? 0)
  );
  const ms = ((hours * 60 + minutes) * 60 + seconds) * 1000;
  if (!Number.isSafeInteger(ms)) {
    throw new Error(`duration ${JSON.stringify(text)} is too long`);
  }
  return ms;
}

/**
 * Formats milliseconds the way {@linkcode parseDuration} reads them, rounded up
 * to whole seconds, largest units first and zero units left out.
 * @param ms A duration in milliseconds; 0 or less formats as `0`.
 * @returns `0`, `90s` → `1m30s`, `5400000` → `1h30m`.
 * @example
 * ```ts
 * formatDuration(90_000); // "1m30s"
 * formatDuration(0); // "0"
 * ```
 */
export function formatDuration(ms: number): string {
  if (!(ms > 0)) return "0";
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts = [
    hours ? `${hours}h` : "",
    minutes ? `${minutes}m` : "",
    seconds ? `${seconds}s` : "",
  ];
  return parts.join("");
}
