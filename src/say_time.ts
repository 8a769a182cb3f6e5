/**
 * How lines say a moment and an age (SPEC.md §19): a moment in UTC to the
 * minute, rounded up so a line never names a time before the one it means
 * (`14:32 UTC` on the reader's day, else `2026-12-07 14:32 UTC`), and an age
 * rounded down to whole minutes past the first (`40m`, `2h5m`, `35s`). Pure.
 * @module
 */

const MINUTE = 60_000;

/**
 * Says a moment in UTC, to the minute, rounded up.
 * @param ms The moment, milliseconds since the Unix epoch.
 * @param now The reader's clock: its UTC day needs no date.
 * @returns `14:32 UTC` or `2026-12-07 14:32 UTC`.
 * @example
 * ```ts
 * sayMoment(Date.UTC(2026, 11, 6, 14, 31, 20), Date.UTC(2026, 11, 6, 12)); // "14:32 UTC"
 * ```
 */
export function sayMoment(ms: number, now: number): string {
  const iso = new Date(Math.ceil(ms / MINUTE) * MINUTE).toISOString();
  const day = iso.slice(0, 10);
  const time = `${iso.slice(11, 16)} UTC`;
  return day === new Date(now).toISOString().slice(0, 10)
    ? time
    : `${day} ${time}`;
}

/**
 * Says an age: whole minutes (and hours) once past a minute, else seconds.
 * @param ms The age in milliseconds; 0 or less says `0s`.
 * @returns `40m`, `2h5m`, `35s`.
 * @example
 * ```ts
 * sayAge(2_412_000); // "40m"
 * ```
 */
export function sayAge(ms: number): string {
  if (!(ms > 0)) return "0s";
  if (ms < MINUTE) return `${Math.floor(ms / 1000)}s`;
  const minutes = Math.floor(ms / MINUTE);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours === 0
    ? `${rest}m`
    : rest === 0
    ? `${hours}h`
    : `${hours}h${rest}m`;
}
