// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { hoursRange, isTimeZone } from "../../src/spec/_timing_schema.ts";
import { runProblemCases, wavesSpec } from "./_helpers.ts";

const wave = (fields: string) =>
  wavesSpec(
    '    { "name": "dev", "runs": ["a"] },',
    `    { "name": "prod", "runs": ["b"], ${fields} }`,
  );

Deno.test("the timing fields refuse malformed values with located messages", async (t) => {
  await runProblemCases(t, [
    {
      name: "a soak that is no duration",
      text: wave('"soak": "2 hours"'),
      want: [
        'w.jsonc:7:46: wave 2 "prod" soak: invalid duration "2 hours": use a form like "90s", "15m", "2h" or "1h30m", or 0',
      ],
    },
    {
      name: "a canary of none",
      text: wave('"canary": 0'),
      want: [
        'w.jsonc:7:48: wave 2 "prod" canary: must be at least 1, got 0',
      ],
    },
    {
      name: "an unknown timezone",
      text: wave(
        '"freeze": [{ "days": ["fri"], "timezone": "Europe/Atlantis" }]',
      ),
      want: [
        'w.jsonc:7:80: wave 2 "prod" freeze[0].timezone: unknown timezone "Europe/Atlantis": use an IANA zone name like "Europe/Berlin", "America/New_York" or "UTC"',
      ],
    },
    {
      name: "a day that is none",
      text: wave('"freeze": [{ "days": ["friday"] }]'),
      want: [
        'w.jsonc:7:60: wave 2 "prod" freeze[0].days[0]: invalid value "friday": expected "mon", "tue", "wed", "thu", "fri", "sat" or "sun"',
      ],
    },
    {
      name: "hours past midnight",
      text: wave('"freeze": [{ "days": ["fri"], "hours": "16:00-25:00" }]'),
      want: [
        'w.jsonc:7:77: wave 2 "prod" freeze[0].hours: invalid hours "16:00-25:00": use "HH:MM-HH:MM" from 00:00 to 24:00, like "16:00-24:00" or "22:00-06:00" (over midnight)',
      ],
    },
    {
      name: "a time with an offset",
      text: wave(
        '"freeze": [{ "from": "2026-12-24T18:00Z", "to": "2026-12-27" }]',
      ),
      want: [
        'w.jsonc:7:59: wave 2 "prod" freeze[0].from: invalid time "2026-12-24T18:00Z": use a local date and time without an offset, like "2026-12-24T18:00" or "2026-12-24" (the timezone field says where)',
      ],
    },
    {
      name: "a day that is not in the calendar",
      text: wave('"freeze": [{ "from": "2026-02-30", "to": "2026-03-02" }]'),
      want: [
        'w.jsonc:7:59: wave 2 "prod" freeze[0].from: invalid time "2026-02-30": use a local date and time without an offset, like "2026-12-24T18:00" or "2026-12-24" (the timezone field says where)',
      ],
    },
    {
      name: "a window that ends before it starts",
      text: wave('"freeze": [{ "from": "2026-12-27", "to": "2026-12-24" }]'),
      want: [
        'w.jsonc:7:79: wave 2 "prod" freeze[0].to: "to" (2026-12-24) must come after "from" (2026-12-27)',
      ],
    },
    {
      name: "a window both dated and weekly",
      text: wave(
        '"freeze": [{ "from": "2026-12-24", "to": "2026-12-27", "days": ["fri"] }]',
      ),
      want: [
        'w.jsonc:7:49: wave 2 "prod" freeze[0]: a freeze window is dated ("from", "to") or weekly ("days", "hours"), not both',
      ],
    },
    {
      name: "a dated window without its end",
      text: wave('"freeze": [{ "from": "2026-12-24" }]'),
      want: [
        'w.jsonc:7:49: wave 2 "prod" freeze[0]: a dated freeze window needs "to"',
      ],
    },
    {
      name: "hours without days",
      text: wave('"freeze": [{ "hours": "16:00-24:00" }]'),
      want: [
        'w.jsonc:7:49: wave 2 "prod" freeze[0]: a weekly freeze window needs "days"',
      ],
    },
    {
      name: "a day named twice",
      text: wave('"freeze": [{ "days": ["fri", "fri"] }]'),
      want: [
        'w.jsonc:7:59: wave 2 "prod" freeze[0].days: days names a day more than once',
      ],
    },
  ]);
});

Deno.test("hoursRange() reads a day's hours, over midnight too", () => {
  expect(hoursRange("16:00-24:00")).toEqual({ from: 960, to: 1440 });
  expect(hoursRange("22:00-06:00")).toEqual({ from: 1320, to: 360 });
  expect(hoursRange("10:00-10:00")).toBeUndefined();
  expect(hoursRange("24:00-06:00")).toBeUndefined();
  expect(hoursRange("10:60-11:00")).toBeUndefined();
});

Deno.test("isTimeZone() knows the IANA zones of the runtime", () => {
  expect(isTimeZone("Europe/Berlin")).toBe(true);
  expect(isTimeZone("UTC")).toBe(true);
  expect(isTimeZone("Mars/Olympus")).toBe(false);
  expect(isTimeZone("")).toBe(false);
});
