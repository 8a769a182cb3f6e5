/**
 * The cron schedules of `resume.schedule` (SPEC.md §13): five fields (minute,
 * hour, day of month, month, day of week) in the form all three forges accept:
 * `*`, numbers, ranges `a-b`, steps `/n`, lists `a,b`, and month and weekday
 * names (`JAN`, `MON`). Pure: it checks the text, it computes no times.
 * @module
 */

import { quote } from "../quote.ts";

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly CronField[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  {
    name: "month",
    min: 1,
    max: 12,
    names: [
      "JAN",
      "FEB",
      "MAR",
      "APR",
      "MAY",
      "JUN",
      "JUL",
      "AUG",
      "SEP",
      "OCT",
      "NOV",
      "DEC",
    ],
  },
  {
    name: "day of week",
    min: 0,
    max: 6,
    names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
  },
];

/**
 * Says what is wrong with a cron schedule, if anything.
 * @param schedule The schedule, five fields separated by spaces.
 * @returns `undefined` for a valid schedule, else one sentence naming the field.
 * @example
 * ```ts
 * cronProblem("0 6 * * MON-FRI"); // undefined
 * cronProblem("61 * * * *"); // 'minute "61" is not from 0 to 59'
 * ```
 */
export function cronProblem(schedule: string): string | undefined {
  const fields = schedule.trim().split(/ +/);
  if (schedule.trim() === "" || fields.length !== FIELDS.length) {
    return `a cron schedule has 5 fields (minute hour day-of-month month day-of-week), not ${
      schedule.trim() === "" ? 0 : fields.length
    }`;
  }
  for (let i = 0; i < FIELDS.length; i++) {
    const problem = fieldProblem(fields[i], FIELDS[i]);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function fieldProblem(text: string, field: CronField): string | undefined {
  for (const part of text.split(",")) {
    const [range, step, ...extra] = part.split("/");
    const bad = () =>
      `${field.name} ${
        quote(text)
      } is not a cron field (*, a, a-b, */n, a-b/n, lists with ",")`;
    if (extra.length > 0) return bad();
    if (step !== undefined && !/^[1-9]\d{0,2}$/.test(step)) return bad();
    if (range === "*") continue;
    const ends = range.split("-");
    if (ends.length > 2) return bad();
    const values = ends.map((end) => valueOf(end, field));
    if (values.some((value) => value === undefined)) return bad();
    const [from, to = from] = values as number[];
    for (const value of [from, to]) {
      if (value < field.min || value > field.max) {
        return `${field.name} "${value}" is not from ${field.min} to ${field.max}`;
      }
    }
    if (to < from) return `${field.name} range "${range}" runs backwards`;
  }
  return undefined;
}

function valueOf(text: string, field: CronField): number | undefined {
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  return index < 0 ? undefined : index + field.min;
}
