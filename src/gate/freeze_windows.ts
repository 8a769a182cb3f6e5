/**
 * What freeze windows (SPEC.md §19) cover in time: where a window's local wall
 * times fall as instants in its IANA time zone (daylight saving time followed
 * through `Intl.DateTimeFormat`, no time zone library), which windows hold at
 * an instant and until when the freeze they make together goes on, and the one
 * way a window is named in lines. Pure (Intl is pure): what it learns of a
 * zone's offsets is kept for the process, one formatter per zone, and changes
 * no answer. The spec schema checks a window's form
 * (`src/spec/_timing_schema.ts`); whether a wave waits on a freeze, and what
 * lets a digest through one, is the gate's.
 * @module
 */

import { visible } from "../console/visible.ts";
import {
  type FreezeWindow,
  LOCAL_TIME_PATTERN,
  type Weekday,
  WEEKDAYS,
} from "../spec/types.ts";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/**
 * How far apart the offsets of a zone are sampled: a zone is taken to change
 * its offset at most once between two samples. The closest two changes of any
 * zone since 1970 are 7 days apart (Brazil's Boa Vista, October 2000).
 */
const SAMPLE_STEP = 3 * DAY;

/** The longest freeze {@linkcode frozenAt} follows before it says it goes on. */
const LONGEST_FREEZE = 366 * DAY;

/**
 * A wall time as milliseconds on a clock that counts from 1970-01-01 00:00
 * without offsets (any year, unlike `Date.UTC`, which reads 0-99 as 19xx).
 */
function wallClock(
  year: number,
  month: number,
  day: number,
  ms: number,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() + ms;
}

/** An offset from UTC holding from `from` up to `to` (instants). */
interface Span {
  from: number;
  to: number;
  offset: number;
}

/** The most samples a zone keeps; past it, it learns afresh. */
const MAX_SAMPLES = 4_096;

/**
 * The offsets of one zone, learnt from its one formatter with few calls:
 * sampled every {@linkcode SAMPLE_STEP}, and where two samples differ, the
 * instant of the change found by halving to the second. What it learnt is
 * kept, so Intl is asked about each few days of a zone once.
 */
class ZoneOffsets {
  readonly #format: Intl.DateTimeFormat;
  readonly #samples = new Map<number, number>();
  readonly #stretches = new Map<number, readonly Span[]>();

  /** @throws {RangeError} When `zone` is no IANA zone. */
  constructor(zone: string) {
    this.#format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  }

  /** The offset (wall clock minus UTC, ms) at an instant, from Intl. */
  #ask(at: number): number {
    let era = "AD";
    let year = 0;
    let month = 0;
    let day = 0;
    let ms = 0;
    for (const { type, value } of this.#format.formatToParts(at)) {
      if (type === "era") era = value;
      else if (type === "year") year = Number(value);
      else if (type === "month") month = Number(value);
      else if (type === "day") day = Number(value);
      else if (type === "hour") ms += Number(value) * 60 * MINUTE;
      else if (type === "minute") ms += Number(value) * MINUTE;
      else if (type === "second") ms += Number(value) * SECOND;
    }
    const wall = wallClock(era === "BC" ? 1 - year : year, month, day, ms);
    return wall - Math.floor(at / SECOND) * SECOND;
  }

  /** The offset at the `index`th sample instant. */
  #sample(index: number): number {
    let offset = this.#samples.get(index);
    if (offset === undefined) {
      offset = this.#ask(index * SAMPLE_STEP);
      this.#samples.set(index, offset);
    }
    return offset;
  }

  /** The offsets from the `index`th sample up to the next: one span or two. */
  #stretch(index: number): readonly Span[] {
    let spans = this.#stretches.get(index);
    if (spans === undefined) {
      if (this.#samples.size >= MAX_SAMPLES) {
        this.#samples.clear();
        this.#stretches.clear();
      }
      const from = index * SAMPLE_STEP;
      const to = from + SAMPLE_STEP;
      const before = this.#sample(index);
      const after = this.#sample(index + 1);
      if (before === after) {
        spans = [{ from, to, offset: before }];
      } else {
        let low = from;
        let high = to;
        while (high - low > SECOND) {
          const middle = low + Math.floor((high - low) / 2 / SECOND) * SECOND;
          if (this.#ask(middle) === before) low = middle;
          else high = middle;
        }
        spans = [
          { from, to: high, offset: before },
          { from: high, to, offset: after },
        ];
      }
      this.#stretches.set(index, spans);
    }
    return spans;
  }

  /**
   * The wall clock at an instant.
   * @param at Milliseconds since the epoch.
   * @returns Milliseconds on the zone's wall clock (see {@linkcode wallClock}).
   */
  wallAt(at: number): number {
    const spans = this.#stretch(Math.floor(at / SAMPLE_STEP));
    return at + (at < spans[0].to ? spans[0] : spans[spans.length - 1]).offset;
  }

  /**
   * The instant of a wall time: the earlier of two for a window's start, the
   * later for its end, and the moment the clock jumps for a wall time the
   * clock skips.
   * @param wall Milliseconds on the zone's wall clock.
   * @param edge Which edge of a window the wall time is.
   * @returns Milliseconds since the epoch.
   */
  instantOf(wall: number, edge: Edge): number {
    let found: number | undefined;
    let jump: number | undefined;
    // Every instant whose wall time is `wall` lies within a day of it (no
    // offset reaches a day), and so does the jump over it.
    const last = Math.floor((wall + DAY) / SAMPLE_STEP);
    for (let i = Math.floor((wall - DAY) / SAMPLE_STEP); i <= last; i++) {
      for (const span of this.#stretch(i)) {
        const at = wall - span.offset;
        if (span.from <= at && at < span.to) {
          if (edge === "start") return at;
          found = at;
        } else if (jump === undefined && span.from + span.offset > wall) {
          // The first span whose wall clock starts past `wall`: the clock
          // jumped over it where the span begins.
          jump = span.from;
        }
      }
    }
    return found ?? jump!;
  }
}

/** The most zones kept; past it, the cache starts afresh. */
const MAX_ZONES = 1_024;

/** One formatter, and what it taught, per zone: building one costs far more than using it. */
const zones = new Map<string, ZoneOffsets>();

/** The offsets of a zone (a `RangeError` for an unknown zone). */
function offsetsOf(zone: string): ZoneOffsets {
  let offsets = zones.get(zone);
  if (offsets === undefined) {
    offsets = new ZoneOffsets(zone);
    if (zones.size >= MAX_ZONES) zones.clear();
    zones.set(zone, offsets);
  }
  return offsets;
}

/** Which edge of a window a wall time is: ambiguous times go the freeze's way. */
export type Edge = "start" | "end";

/**
 * A local date and a time of day, the way a weekly window's days and hours
 * name one.
 */
export interface LocalTime {
  /** The year. */
  y: number;
  /** The month, 1 to 12. */
  m: number;
  /** The day of the month, 1 to 31. */
  d: number;
  /** Minutes after the day's midnight; 1440 is the next day's midnight. */
  minutes: number;
}

/**
 * A local time written `2026-12-24T18:00`, `…T18:00:30` or `2026-12-24` (its
 * midnight), as a wall clock; a `RangeError` for any other text, or a day or
 * time that does not exist on any calendar.
 */
function parseLocal(text: string): number {
  const [year, month, day, hour, minute, second] =
    (LOCAL_TIME_PATTERN.exec(text) ?? [])
      .slice(1).map((part) => Number(part ?? 0));
  const wall = wallClock(year, month, day, 0);
  const date = new Date(wall);
  if (
    date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day ||
    hour > 23 || minute > 59 || second > 59
  ) {
    throw new RangeError(
      `cannot read local time "${
        visible(text)
      }": use a date and time without an offset, like "2026-12-24T18:00" or "2026-12-24"`,
    );
  }
  return wall + hour * 60 * MINUTE + minute * MINUTE + second * SECOND;
}

/**
 * Where a local wall time in an IANA time zone falls as an instant, daylight
 * saving time followed both ways. A time the clock skips (02:30 on the day
 * Berlin springs forward) is the moment the clock jumps; a time the clock
 * shows twice (02:30 on the day it falls back) is the earlier instant for a
 * window's `start` and the later for its `end`, so a freeze never gets shorter.
 * A bare date is its local midnight.
 * @param local `2026-12-24T18:00` (seconds optional) or `2026-12-24`, or
 * `{ y, m, d, minutes }` (its fields roll over like `Date.UTC`'s: minutes 1440
 * is the next day's midnight).
 * @param timezone An IANA zone name: `Europe/Berlin`, `Asia/Kolkata`, `UTC`.
 * @param edge Which edge of a window the time is: a time the clock shows
 * twice is the earlier instant for `"start"` (the default), the later for `"end"`.
 * @returns Milliseconds since the epoch.
 * @throws {RangeError} When `local` is no valid local time or `timezone` no zone.
 * @example
 * ```ts
 * localInstant("2026-01-09T16:00", "Europe/Berlin"); // Date.UTC(2026, 0, 9, 15)
 * localInstant("2026-03-29T02:30", "Europe/Berlin"); // Date.UTC(2026, 2, 29, 1): the jump
 * localInstant("2026-10-25T02:30", "Europe/Berlin", "end"); // Date.UTC(2026, 9, 25, 1, 30)
 * ```
 */
export function localInstant(
  local: string | LocalTime,
  timezone: string,
  edge: Edge = "start",
): number {
  const wall = typeof local === "string"
    ? parseLocal(local)
    : wallClock(local.y, local.m, local.d, local.minutes * MINUTE);
  return offsetsOf(timezone).instantOf(wall, edge);
}

/** The weekday of a day counted on the wall clock from 1970-01-01, a Thursday. */
function weekdayOf(day: number): Weekday {
  return WEEKDAYS[(((day + 3) % 7) + 7) % 7];
}

/**
 * Where the stretch of `window` that holds at `at` ends, or `undefined` when
 * none holds. A weekly window's stretch starts on a listed day at `hours.from`
 * and ends that day or, over midnight, the next at `hours.to`; the days tried
 * are `at`'s local day, the two before and the one after (a clock set back
 * over midnight shows a day twice).
 */
function endAt(
  window: FreezeWindow,
  at: number,
): number | undefined {
  const offsets = offsetsOf(window.timezone);
  if (window.kind === "dated") {
    const start = offsets.instantOf(parseLocal(window.from), "start");
    const end = offsets.instantOf(parseLocal(window.to), "end");
    return start <= at && at < end ? end : undefined;
  }
  const { from, to } = window.hours;
  const today = Math.floor(offsets.wallAt(at) / DAY);
  let furthest: number | undefined;
  for (let day = today - 2; day <= today + 1; day++) {
    if (!window.days.includes(weekdayOf(day))) continue;
    const start = offsets.instantOf(day * DAY + from * MINUTE, "start");
    if (start > at) continue;
    const endDay = to <= from ? day + 1 : day;
    const end = offsets.instantOf(endDay * DAY + to * MINUTE, "end");
    if (at < end && (furthest === undefined || end > furthest)) furthest = end;
  }
  return furthest;
}

/** The furthest end of the windows holding at `at`, or `undefined`. */
function furthestEnd(
  windows: readonly FreezeWindow[],
  at: number,
): number | undefined {
  let furthest: number | undefined;
  for (const window of windows) {
    const end = endAt(window, at);
    if (end !== undefined && (furthest === undefined || end > furthest)) {
      furthest = end;
    }
  }
  return furthest;
}

/**
 * The windows that hold at `now`, and the first instant at or after `now` at
 * which none of `windows` holds. Windows overlapping or back to back chain
 * into one freeze: Friday 16:00-24:00 with Saturday and Sunday whole days
 * ends Monday 00:00 local. A window holds from its start (an instant exactly
 * at the start holds) up to, not including, its end. Weekly windows are
 * judged in their zone's local weekday and time. The work steps from one
 * window end to the next, never minute by minute, and Intl is asked about
 * each few days of a zone once per process.
 * @param windows The freeze windows of a wave (its own, then the top level's).
 * @param now Milliseconds since the epoch.
 * @returns `undefined` when no window holds at `now`; else the windows holding
 * then (in the order given) and `until`, the instant the freeze ends, or
 * `undefined` when it goes on for more than 366 days.
 * @throws {RangeError} When a window holds no valid local time or zone (the
 * spec schema rejects both).
 * @example
 * ```ts
 * const friday: FreezeWindow = { kind: "weekly", days: ["fri"], hours: { from: 960, to: 1440 }, timezone: "Europe/Berlin" };
 * frozenAt([friday], Date.UTC(2026, 0, 9, 15)); // { holding: [friday], until: Date.UTC(2026, 0, 9, 23) }
 * frozenAt([friday], Date.UTC(2026, 0, 9, 14)); // undefined
 * ```
 */
export function frozenAt(
  windows: readonly FreezeWindow[],
  now: number,
): { holding: FreezeWindow[]; until: number | undefined } | undefined {
  const holding = windows.filter((window) => endAt(window, now) !== undefined);
  if (holding.length === 0) return undefined;
  let until = now;
  while (until - now <= LONGEST_FREEZE) {
    const next = furthestEnd(windows, until);
    if (next === undefined) return { holding, until };
    until = next;
  }
  return { holding, until: undefined };
}

/** `HH:MM` of minutes after midnight; 1440 is `24:00`. */
function clock(minutes: number): string {
  const hours = String(Math.floor(minutes / 60)).padStart(2, "0");
  return `${hours}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * One window as lines name it: its days (Monday first) and hours, or its
 * dates as written, then its zone, and its reason in brackets when it has
 * one. Control characters are shown as escapes.
 * @param window A freeze window.
 * @returns One line's worth of text.
 * @example
 * ```ts
 * describeWindow({ kind: "weekly", days: ["fri", "mon"], hours: { from: 1320, to: 360 }, timezone: "UTC" });
 * // "mon, fri 22:00-06:00 UTC"
 * describeWindow({ kind: "dated", from: "2026-12-24T18:00", to: "2026-12-27T08:00", timezone: "Europe/Berlin", reason: "holidays" });
 * // "2026-12-24T18:00 to 2026-12-27T08:00 Europe/Berlin (holidays)"
 * ```
 */
export function describeWindow(window: FreezeWindow): string {
  const when = window.kind === "dated"
    ? `${window.from} to ${window.to}`
    : `${WEEKDAYS.filter((day) => window.days.includes(day)).join(", ")} ${
      clock(window.hours.from)
    }-${clock(window.hours.to)}`;
  const reason = window.reason === undefined ? "" : ` (${window.reason})`;
  return visible(`${when} ${window.timezone}${reason}`);
}
