/**
 * The spec fields that time a rollout (SPEC.md §19), with their own messages:
 * `soak` (a duration), `canary` (a count) and `freeze` (windows, each either
 * dates `{ from, to }` or a weekly `{ days, hours? }`, in a `timezone`, with an
 * optional `reason`). What a window covers is `src/gate/freeze_windows.ts`'s;
 * the runner reads all three at base only (`src/gate/timing_at_base.ts`).
 * Descriptions are registered in place, not cloned with `.meta()` (see
 * `spec_schema.ts`).
 * @module
 */

import * as z from "zod";
import "./_zod_config.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { showValue } from "./_schema_parts.ts";
import { LOCAL_TIME_PATTERN, WEEKDAYS } from "./types.ts";

/** The most freeze windows of a wave or of the top level. */
export const MAX_FREEZE_WINDOWS = 64;
/** The longest `reason` of a freeze window, in characters. */
export const MAX_FREEZE_REASON = 200;

/** `HH:MM-HH:MM`, from 00:00 to 24:00. */
export const HOURS_PATTERN: RegExp = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/;

/** Whether the runtime's time zone data knows an IANA zone name. */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64 || hasControlCharacter(zone)) {
    return false;
  }
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether a local date and time names a real calendar day and clock time. */
function isLocalTime(text: string): boolean {
  const match = LOCAL_TIME_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) =>
    Number(part ?? 0)
  );
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
}

/** Minutes of an `HH:MM` clock time from 00:00 to 24:00, or `undefined`. */
function clockMinutes(hour: string, minute: string): number | undefined {
  const h = Number(hour);
  const m = Number(minute);
  if (m > 59 || h > 24 || (h === 24 && m !== 0)) return undefined;
  return h * 60 + m;
}

/**
 * The minutes of a day an `HH:MM-HH:MM` range starts and ends at, or
 * `undefined` when it is not one (or starts where it ends).
 * @param text The range, `16:00-24:00` or `22:00-06:00` (over midnight).
 * @returns `{ from, to }` in minutes from midnight.
 * @example
 * ```ts
 * hoursRange("16:00-24:00"); // { from: 960, to: 1440 }
 * ```
 */
export function hoursRange(
  text: string,
): { from: number; to: number } | undefined {
  const match = HOURS_PATTERN.exec(text);
  if (!match) return undefined;
  const from = clockMinutes(match[1], match[2]);
  const to = clockMinutes(match[3], match[4]);
  if (from === undefined || to === undefined || from === to) return undefined;
  if (from === 1440) return undefined;
  return { from, to };
}

const LOCAL_HINT =
  'a local date and time without an offset, like "2026-12-24T18:00" or "2026-12-24" (the timezone field says where)';

const localTimeSchema = z.string().refine(isLocalTime, {
  error: (issue) => `invalid time ${showValue(issue.input)}: use ${LOCAL_HINT}`,
}).register(z.globalRegistry, {
  description: LOCAL_HINT,
});

/** One freeze window. */
export const freezeWindowSchema = z.strictObject({
  from: localTimeSchema.optional().register(z.globalRegistry, {
    description:
      'Where a dated window starts, local to its timezone: "2026-12-24T18:00"',
  }),
  to: localTimeSchema.optional().register(z.globalRegistry, {
    description:
      'Where a dated window ends (not included), local to its timezone: "2026-12-27T08:00"',
  }),
  days: z.array(z.enum(WEEKDAYS)).min(1, {
    error: "days must name at least one day",
  }).max(7, { error: "days names a day at most once" }).optional().register(
    z.globalRegistry,
    {
      description:
        'The days a weekly window holds, "mon" to "sun"; its hours start on each of them',
    },
  ),
  hours: z.string().refine((text) => hoursRange(text) !== undefined, {
    error: (issue) =>
      `invalid hours ${
        showValue(issue.input)
      }: use "HH:MM-HH:MM" from 00:00 to 24:00, like "16:00-24:00" or "22:00-06:00" (over midnight)`,
  }).optional().register(z.globalRegistry, {
    description:
      'The hours of each day a weekly window holds, "16:00-24:00" (default: the whole day); "22:00-06:00" goes on into the next day',
  }),
  timezone: z.string().refine(isTimeZone, {
    error: (issue) =>
      `unknown timezone ${
        showValue(issue.input)
      }: use an IANA zone name like "Europe/Berlin", "America/New_York" or "UTC"`,
  }).optional().register(z.globalRegistry, {
    description:
      'The IANA time zone the window\'s times are local to (default "UTC"); daylight saving time is followed',
  }),
  reason: z.string().min(1, { error: "reason must not be empty" }).max(
    MAX_FREEZE_REASON,
    { error: `reason is too long: at most ${MAX_FREEZE_REASON} characters` },
  ).refine((text) => !hasControlCharacter(text), {
    error: "reason holds a control character",
  }).optional().register(z.globalRegistry, {
    description: "Why the window freezes, shown in every line that waits on it",
  }),
}).superRefine((window, ctx) => {
  const dated = window.from !== undefined || window.to !== undefined;
  const weekly = window.days !== undefined || window.hours !== undefined;
  if (dated && weekly) {
    ctx.addIssue({
      code: "custom",
      message:
        'a freeze window is dated ("from", "to") or weekly ("days", "hours"), not both',
    });
  } else if (dated) {
    for (const key of ["from", "to"] as const) {
      if (window[key] === undefined) {
        ctx.addIssue({
          code: "custom",
          message: `a dated freeze window needs "${key}"`,
        });
      }
    }
    if (
      window.from !== undefined && window.to !== undefined &&
      localOrder(window.from) >= localOrder(window.to)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `"to" (${window.to}) must come after "from" (${window.from})`,
      });
    }
  } else if (window.days === undefined) {
    ctx.addIssue({
      code: "custom",
      message: window.hours === undefined
        ? 'a freeze window needs "from" and "to", or "days" (and "hours")'
        : 'a weekly freeze window needs "days"',
    });
  } else if (new Set(window.days).size !== window.days.length) {
    ctx.addIssue({
      code: "custom",
      path: ["days"],
      message: "days names a day more than once",
    });
  }
}).register(z.globalRegistry, {
  id: "FreezeWindow",
  description:
    'A time no wave it covers applies: dated { from, to } or weekly { days, hours? }, in a timezone (default "UTC")',
});

/** A local time as a sortable string (a bare date is its midnight). */
function localOrder(text: string): string {
  const match = LOCAL_TIME_PATTERN.exec(text);
  if (!match) return text;
  const [year, month, day, hour, minute, second] = match.slice(1);
  return `${year}-${month}-${day}T${hour ?? "00"}:${minute ?? "00"}:${
    second ?? "00"
  }`;
}

/** `freeze`: windows. */
export const freezeSchema = z.array(freezeWindowSchema).max(
  MAX_FREEZE_WINDOWS,
  { error: `freeze holds too many windows: at most ${MAX_FREEZE_WINDOWS}` },
);
