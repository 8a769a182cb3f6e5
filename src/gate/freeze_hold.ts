/**
 * What a freeze window holding now means for a wave (SPEC.md §19), pure: the
 * windows at base (`timingAtBase`) judged at the reader's
 * clock, as the one line every waiting message, `status` and the job summary
 * print (`a freeze window holds until 2026-12-07 00:00 UTC: fri 16:00-24:00
 * Europe/Berlin`), and the end of the freeze, when it has one within a year.
 * Whether an approval lets a digest through is the gate decision's
 * (`GateQuery.freeze`); what a window covers is `freeze_windows.ts`'s.
 * @module
 */

import { describeWindow, frozenAt } from "./freeze_windows.ts";
import type { FreezeWindow } from "../spec/types.ts";
import { sayMoment } from "../say_time.ts";

/** A freeze holding now. */
export interface FreezeHold {
  /** `a freeze window holds until <when>: <window>; <window>`. */
  line: string;
  /** When it ends, milliseconds since the Unix epoch; absent: not within a year. */
  until?: number;
}

/** How many holding windows a line names. */
const NAMED_WINDOWS = 3;

/**
 * Judges a wave's freeze windows at the reader's clock.
 * @param windows The windows read at base.
 * @param now The reader's clock, milliseconds since the Unix epoch.
 * @returns The hold, or `undefined` when no window holds now.
 * @example
 * ```ts
 * freezeHold([], Date.now()); // undefined
 * ```
 */
export function freezeHold(
  windows: readonly FreezeWindow[],
  now: number,
): FreezeHold | undefined {
  const frozen = frozenAt(windows, now);
  if (frozen === undefined) return undefined;
  const named = frozen.holding.slice(0, NAMED_WINDOWS).map(describeWindow);
  const more = frozen.holding.length - named.length;
  if (more > 0) named.push(`and ${more} more`);
  const until = frozen.until === undefined
    ? "for more than a year"
    : `until ${sayMoment(frozen.until, now)}`;
  return {
    line: `a freeze window holds ${until}: ${named.join("; ")}`,
    ...(frozen.until === undefined ? {} : { until: frozen.until }),
  };
}

/**
 * The reason a frozen gate gives while no approval lets its plans through.
 * @param hold The freeze holding now.
 * @returns `<line>; an approval given with --during-freeze lets the plans through`.
 * @example
 * ```ts
 * freezeReason({ line: "a freeze window holds until 18:00 UTC: fri 16:00-18:00 UTC" });
 * ```
 */
export function freezeReason(hold: FreezeHold): string {
  return `${hold.line}; an approval given with --during-freeze lets the plans through`;
}
