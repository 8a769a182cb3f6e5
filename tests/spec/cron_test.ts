// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { cronProblem } from "../../src/spec/cron.ts";

Deno.test("cronProblem() accepts the five-field schedules every forge runs", async (t) => {
  for (
    const schedule of [
      "*/10 * * * *",
      "0 6 * * MON-FRI",
      "5,35 8-18/2 1 jan,jul sun",
      "59 23 31 12 6",
      "  0 0 * * *  ",
    ]
  ) {
    await t.step(schedule, () => expect(cronProblem(schedule)).toBeUndefined());
  }
});

Deno.test("cronProblem() says which field is wrong", async (t) => {
  const form = '(*, a, a-b, */n, a-b/n, lists with ",")';
  const cases = [
    [
      "",
      "a cron schedule has 5 fields (minute hour day-of-month month day-of-week), not 0",
    ],
    [
      "* * * * * *",
      "a cron schedule has 5 fields (minute hour day-of-month month day-of-week), not 6",
    ],
    ["60 * * * *", 'minute "60" is not from 0 to 59'],
    ["* * 0 * *", 'day of month "0" is not from 1 to 31'],
    ["* * * 13 *", 'month "13" is not from 1 to 12'],
    ["* * * * 7", 'day of week "7" is not from 0 to 6'],
    ["10-5 * * * *", 'minute range "10-5" runs backwards'],
    ["*/0 * * * *", `minute "*/0" is not a cron field ${form}`],
    ["* * * * MON-", `day of week "MON-" is not a cron field ${form}`],
    ["@hourly * * * *", `minute "@hourly" is not a cron field ${form}`],
    ["* * * MON *", `month "MON" is not a cron field ${form}`],
  ];
  for (const [schedule, want] of cases) {
    await t.step(JSON.stringify(schedule), () => {
      expect(cronProblem(schedule)).toBe(want);
    });
  }
});
