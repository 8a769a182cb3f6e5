// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  describeWindow,
  type Edge,
  frozenAt,
  localInstant,
  type LocalTime,
} from "../../src/gate/freeze_windows.ts";
import type { FreezeWindow, Weekday } from "../../src/spec/types.ts";

/** An instant written in UTC: `2026-01-09T15:00` or with seconds and ms. */
function utc(text: string): number {
  const instant = Date.parse(`${text}Z`);
  if (Number.isNaN(instant)) throw new Error(`bad test instant ${text}`);
  return instant;
}

/** An instant shown in UTC, so a failure reads as times. */
function shown(instant: number | undefined): string | undefined {
  return instant === undefined ? undefined : new Date(instant).toISOString();
}

const ALL_DAYS: Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** A weekly window from `HH:MM-HH:MM`. */
function weekly(
  days: Weekday[],
  hours: string,
  timezone: string,
  reason?: string,
): FreezeWindow {
  const [from, to] = hours.split("-").map((clock) => {
    const [h, m] = clock.split(":").map(Number);
    return h * 60 + m;
  });
  return {
    kind: "weekly",
    days,
    hours: { from, to },
    timezone,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** A dated window. */
function dated(
  from: string,
  to: string,
  timezone: string,
  reason?: string,
): FreezeWindow {
  return {
    kind: "dated",
    from,
    to,
    timezone,
    ...(reason === undefined ? {} : { reason }),
  };
}

Deno.test("localInstant() places local wall times in their zone, season by season", async (t) => {
  const cases: [string, string, string][] = [
    ["2026-12-24T18:00", "UTC", "2026-12-24T18:00"],
    ["2026-12-24T18:00:30", "UTC", "2026-12-24T18:00:30"],
    ["2026-01-09T16:00", "Europe/Berlin", "2026-01-09T15:00"],
    ["2026-07-10T16:00", "Europe/Berlin", "2026-07-10T14:00"],
    ["2026-01-09T16:00", "America/New_York", "2026-01-09T21:00"],
    ["2026-07-10T16:00", "America/New_York", "2026-07-10T20:00"],
    ["2026-06-01T00:00", "Asia/Kolkata", "2026-05-31T18:30"],
    ["2026-12-01T00:00", "Asia/Kolkata", "2026-11-30T18:30"],
    // The southern summer is January: Adelaide is +10:30 then, +09:30 in July.
    ["2026-01-09T16:00", "Australia/Adelaide", "2026-01-09T05:30"],
    ["2026-07-10T16:00", "Australia/Adelaide", "2026-07-10T06:30"],
    // Lord Howe moves its clock by 30 minutes: +11:00, then +10:30.
    ["2026-01-09T12:00", "Australia/Lord_Howe", "2026-01-09T01:00"],
    ["2026-07-10T12:00", "Australia/Lord_Howe", "2026-07-10T01:30"],
    // A bare date is its local midnight.
    ["2026-12-24", "Europe/Berlin", "2026-12-23T23:00"],
    ["2026-12-24", "Asia/Kolkata", "2026-12-23T18:30"],
    ["2026-12-24", "UTC", "2026-12-24T00:00"],
  ];
  for (const [local, zone, want] of cases) {
    await t.step(`${local} ${zone} is ${want}Z`, () => {
      expect(shown(localInstant(local, zone))).toBe(shown(utc(want)));
      expect(shown(localInstant(local, zone, "end"))).toBe(shown(utc(want)));
    });
  }
});

Deno.test("localInstant() maps a time the clock skips to the moment it jumps", async (t) => {
  const cases: [string, string, string][] = [
    // Berlin springs from 02:00 to 03:00 at 01:00Z on 29 March 2026.
    ["2026-03-29T01:59", "Europe/Berlin", "2026-03-29T00:59"],
    ["2026-03-29T02:00", "Europe/Berlin", "2026-03-29T01:00"],
    ["2026-03-29T02:30", "Europe/Berlin", "2026-03-29T01:00"],
    ["2026-03-29T02:59:59", "Europe/Berlin", "2026-03-29T01:00"],
    ["2026-03-29T03:00", "Europe/Berlin", "2026-03-29T01:00"],
    ["2026-03-29T03:01", "Europe/Berlin", "2026-03-29T01:01"],
    ["2026-03-08T02:30", "America/New_York", "2026-03-08T07:00"],
    ["2026-10-04T02:30", "Australia/Adelaide", "2026-10-03T16:30"],
    // Lord Howe skips 02:00-02:30 on 4 October 2026.
    ["2026-10-04T02:15", "Australia/Lord_Howe", "2026-10-03T15:30"],
  ];
  for (const [local, zone, want] of cases) {
    await t.step(`${local} ${zone} is ${want}Z`, () => {
      expect(shown(localInstant(local, zone, "start"))).toBe(shown(utc(want)));
      expect(shown(localInstant(local, zone, "end"))).toBe(shown(utc(want)));
    });
  }
});

Deno.test("localInstant() maps a time shown twice to the earlier for a start, the later for an end", async (t) => {
  const cases: [string, string, string, string][] = [
    // Berlin falls back from 03:00 to 02:00 at 01:00Z on 25 October 2026.
    [
      "2026-10-25T02:30",
      "Europe/Berlin",
      "2026-10-25T00:30",
      "2026-10-25T01:30",
    ],
    [
      "2026-10-25T02:00",
      "Europe/Berlin",
      "2026-10-25T00:00",
      "2026-10-25T01:00",
    ],
    [
      "2026-10-25T01:59",
      "Europe/Berlin",
      "2026-10-24T23:59",
      "2026-10-24T23:59",
    ],
    [
      "2026-10-25T03:00",
      "Europe/Berlin",
      "2026-10-25T02:00",
      "2026-10-25T02:00",
    ],
    [
      "2026-11-01T01:30",
      "America/New_York",
      "2026-11-01T05:30",
      "2026-11-01T06:30",
    ],
    [
      "2026-04-05T02:30",
      "Australia/Adelaide",
      "2026-04-04T16:00",
      "2026-04-04T17:00",
    ],
    // Lord Howe shows 01:30-02:00 twice on 5 April 2026, 30 minutes apart.
    [
      "2026-04-05T01:45",
      "Australia/Lord_Howe",
      "2026-04-04T14:45",
      "2026-04-04T15:15",
    ],
  ];
  for (const [local, zone, start, end] of cases) {
    await t.step(`${local} ${zone} starts ${start}Z, ends ${end}Z`, () => {
      const edges: [Edge, string][] = [["start", start], ["end", end]];
      for (const [edge, want] of edges) {
        expect(shown(localInstant(local, zone, edge))).toBe(shown(utc(want)));
      }
      expect(localInstant(local, zone)).toBe(utc(start));
    });
  }
});

Deno.test("localInstant() takes a day and minutes after its midnight", async (t) => {
  const cases: [LocalTime, string, string][] = [
    [
      { y: 2026, m: 1, d: 9, minutes: 960 },
      "Europe/Berlin",
      "2026-01-09T15:00",
    ],
    [
      { y: 2026, m: 3, d: 29, minutes: 150 },
      "Europe/Berlin",
      "2026-03-29T01:00",
    ],
    [
      { y: 2026, m: 12, d: 24, minutes: 1440 },
      "Europe/Berlin",
      "2026-12-24T23:00",
    ],
    [{ y: 2026, m: 12, d: 31, minutes: 1440 }, "UTC", "2027-01-01T00:00"],
  ];
  for (const [local, zone, want] of cases) {
    await t.step(`${JSON.stringify(local)} ${zone} is ${want}Z`, () => {
      expect(shown(localInstant(local, zone))).toBe(shown(utc(want)));
    });
  }
});

Deno.test("localInstant() reads years before 100 as written", () => {
  expect(new Date(localInstant("0099-06-01", "UTC")).getUTCFullYear()).toBe(99);
  expect(localInstant("0001-01-01T00:00", "UTC")).toBe(-62135596800000);
  // Year 0 is 1 BC, a year Intl shows as "1" with its era.
  expect(localInstant("0000-06-01", "UTC")).toBe(-62154086400000);
});

Deno.test("frozenAt() answers alike after learning decades of one zone", () => {
  const always = [weekly(ALL_DAYS, "00:00-24:00", "Europe/Paris")];
  const friday = [weekly(["fri"], "16:00-24:00", "Europe/Paris")];
  for (let year = 2000; year < 2040; year++) {
    expect(frozenAt(always, Date.UTC(year, 0, 1))?.until).toBeUndefined();
  }
  expect(shown(frozenAt(friday, utc("2026-07-10T14:00"))?.until)).toBe(
    shown(utc("2026-07-10T22:00")),
  );
});

Deno.test("localInstant() rejects what is no local time or no zone", async (t) => {
  const hint =
    'use a date and time without an offset, like "2026-12-24T18:00" or "2026-12-24"';
  const cases: [string, string][] = [
    ["2026-02-30", `cannot read local time "2026-02-30": ${hint}`],
    ["2026-13-01", `cannot read local time "2026-13-01": ${hint}`],
    ["2026-12-24T24:00", `cannot read local time "2026-12-24T24:00": ${hint}`],
    ["2026-12-24T18:60", `cannot read local time "2026-12-24T18:60": ${hint}`],
    ["2026-12-24 18:00", `cannot read local time "2026-12-24 18:00": ${hint}`],
    [
      "2026-12-24T18:00+01:00",
      `cannot read local time "2026-12-24T18:00+01:00": ${hint}`,
    ],
    ["", `cannot read local time "": ${hint}`],
    ["2026-12-24\n", `cannot read local time "2026-12-24\\n": ${hint}`],
  ];
  for (const [local, message] of cases) {
    await t.step(JSON.stringify(local), () => {
      expect(() => localInstant(local, "UTC")).toThrow(RangeError);
      expect(() => localInstant(local, "UTC")).toThrow(message);
    });
  }
  await t.step("an unknown zone", () => {
    expect(() => localInstant("2026-12-24", "Mars/Olympus")).toThrow(
      RangeError,
    );
  });
});

/** `[name, windows, now, holding (indexes), until]`: until `null` goes on. */
type FrozenCase = [
  string,
  FreezeWindow[],
  string,
  number[] | undefined,
  string | null | undefined,
];

/** Runs each case; `undefined` holding means not frozen. */
async function frozenCases(t: Deno.TestContext, cases: FrozenCase[]) {
  for (const [name, windows, now, holding, until] of cases) {
    await t.step(name, () => {
      const result = frozenAt(windows, utc(now));
      if (holding === undefined) {
        expect(result).toBeUndefined();
        return;
      }
      expect(result?.holding).toEqual(holding.map((i) => windows[i]));
      result?.holding.forEach((window, i) =>
        expect(window).toBe(windows[holding[i]])
      );
      expect(shown(result?.until)).toBe(
        until === null ? undefined : shown(utc(until!)),
      );
    });
  }
}

const FRIDAY_BERLIN = weekly(["fri"], "16:00-24:00", "Europe/Berlin");

Deno.test("frozenAt() judges a weekly window in its zone's local day and time", async (t) => {
  const fri = [FRIDAY_BERLIN];
  await frozenCases(t, [
    ["nothing to hold", [], "2026-01-09T15:00", undefined, undefined],
    ["winter: before 16:00", fri, "2026-01-09T14:59:59.999", undefined, null],
    [
      "winter: 16:00 is 15:00Z",
      fri,
      "2026-01-09T15:00",
      [0],
      "2026-01-09T23:00",
    ],
    [
      "winter: the last instant",
      fri,
      "2026-01-09T22:59:59.999",
      [0],
      "2026-01-09T23:00",
    ],
    ["winter: at its end", fri, "2026-01-09T23:00", undefined, null],
    ["summer: before 16:00", fri, "2026-07-10T13:59:59.999", undefined, null],
    [
      "summer: 16:00 is 14:00Z",
      fri,
      "2026-07-10T14:00",
      [0],
      "2026-07-10T22:00",
    ],
    ["summer: at its end", fri, "2026-07-10T22:00", undefined, null],
    ["a Thursday", fri, "2026-01-08T15:00", undefined, null],
    [
      "New York",
      [weekly(["fri"], "16:00-24:00", "America/New_York")],
      "2026-01-09T21:00",
      [0],
      "2026-01-10T05:00",
    ],
    [
      "a whole day in Kolkata starts at 18:30Z the day before",
      [weekly(["sat"], "00:00-24:00", "Asia/Kolkata")],
      "2026-01-09T18:30",
      [0],
      "2026-01-10T18:30",
    ],
    [
      "a whole day in Kolkata: just before",
      [weekly(["sat"], "00:00-24:00", "Asia/Kolkata")],
      "2026-01-09T18:29:59.999",
      undefined,
      null,
    ],
    [
      "a whole day in Adelaide's summer",
      [weekly(["sat"], "00:00-24:00", "Australia/Adelaide")],
      "2026-01-09T13:30",
      [0],
      "2026-01-10T13:30",
    ],
  ]);
});

Deno.test("frozenAt() holds a window over midnight from the day it starts on", async (t) => {
  const night = [weekly(["fri"], "22:00-06:00", "UTC")];
  const nights = [weekly(["mon", "fri"], "22:00-06:00", "UTC")];
  await frozenCases(t, [
    ["friday 22:00", night, "2026-01-09T22:00", [0], "2026-01-10T06:00"],
    ["saturday 05:59", night, "2026-01-10T05:59", [0], "2026-01-10T06:00"],
    ["saturday 06:00", night, "2026-01-10T06:00", undefined, null],
    [
      "friday 05:00 (Thursday's night)",
      night,
      "2026-01-09T05:00",
      undefined,
      null,
    ],
    ["saturday 22:00", night, "2026-01-10T22:00", undefined, null],
    [
      "tuesday 05:00 (Monday's night)",
      nights,
      "2026-01-13T05:00",
      [0],
      "2026-01-13T06:00",
    ],
    [
      "monday 05:00 (Sunday's night)",
      nights,
      "2026-01-12T05:00",
      undefined,
      null,
    ],
  ]);
});

Deno.test("frozenAt() holds across a change of the clock, never shorter", async (t) => {
  await frozenCases(t, [
    // Sunday 29 March 2026 has 23 hours in Berlin.
    [
      "a whole Sunday that springs forward",
      [weekly(["sun"], "00:00-24:00", "Europe/Berlin")],
      "2026-03-28T23:00",
      [0],
      "2026-03-29T22:00",
    ],
    [
      "a start the clock skips holds from the jump",
      [weekly(["sun"], "02:30-04:00", "Europe/Berlin")],
      "2026-03-29T01:00",
      [0],
      "2026-03-29T02:00",
    ],
    [
      "a start the clock skips: before the jump",
      [weekly(["sun"], "02:30-04:00", "Europe/Berlin")],
      "2026-03-29T00:59:59.999",
      undefined,
      null,
    ],
    // Sunday 25 October 2026 has 25 hours in Berlin.
    [
      "a whole Sunday that falls back",
      [weekly(["sun"], "00:00-24:00", "Europe/Berlin")],
      "2026-10-24T22:00",
      [0],
      "2026-10-25T23:00",
    ],
    [
      "a start shown twice holds from the first",
      [weekly(["sun"], "02:30-03:00", "Europe/Berlin")],
      "2026-10-25T00:30",
      [0],
      "2026-10-25T02:00",
    ],
    [
      "a start shown twice: between the two",
      [weekly(["sun"], "02:30-03:00", "Europe/Berlin")],
      "2026-10-25T01:15",
      [0],
      "2026-10-25T02:00",
    ],
    [
      "an end shown twice holds to the second",
      [weekly(["sun"], "01:00-02:30", "Europe/Berlin")],
      "2026-10-24T23:00",
      [0],
      "2026-10-25T01:30",
    ],
    [
      "an end shown twice: after the first",
      [weekly(["sun"], "01:00-02:30", "Europe/Berlin")],
      "2026-10-25T01:00",
      [0],
      "2026-10-25T01:30",
    ],
    [
      "a dated window over the change in New York",
      [dated("2026-11-01T01:30", "2026-11-01T01:45", "America/New_York")],
      "2026-11-01T06:00",
      [0],
      "2026-11-01T06:45",
    ],
  ]);
});

Deno.test("frozenAt() follows a clock set back a whole day", async (t) => {
  // Sitka went from +14:58:47 to -09:01:13 on Saturday 19 October 1867 at
  // 15:30 local: Friday 15:30 to Saturday 15:30 was shown twice.
  await frozenCases(t, [
    [
      "Saturday's window holds while the clock shows Friday again",
      [weekly(["sat"], "10:00-12:00", "America/Sitka")],
      "1867-10-19T06:00",
      [0],
      "1867-10-19T21:01:13",
    ],
    [
      "Thursday's night holds while the clock shows Saturday",
      [weekly(["thu"], "23:00-16:00", "America/Sitka")],
      "1867-10-18T12:00",
      [0],
      "1867-10-19T01:01:13",
    ],
  ]);
});

Deno.test("frozenAt() reads a dated window's bare dates as local midnights", async (t) => {
  const holidays = [dated("2026-12-24", "2026-12-27", "Europe/Berlin")];
  await frozenCases(t, [
    ["just before", holidays, "2026-12-23T22:59:59.999", undefined, null],
    ["at its start", holidays, "2026-12-23T23:00", [0], "2026-12-26T23:00"],
    ["inside", holidays, "2026-12-25T12:00", [0], "2026-12-26T23:00"],
    ["at its end", holidays, "2026-12-26T23:00", undefined, null],
    [
      "times and seconds",
      [dated("2026-12-24T18:00:30", "2026-12-27T08:00", "UTC")],
      "2026-12-24T18:00:30",
      [0],
      "2026-12-27T08:00",
    ],
  ]);
});

Deno.test("frozenAt() chains overlapping and back-to-back windows into one freeze", async (t) => {
  const weekend = weekly(["sat", "sun"], "00:00-24:00", "Europe/Berlin");
  const early = dated("2026-01-09T10:00", "2026-01-09T17:00", "Europe/Berlin");
  const late = dated("2026-01-09T12:00", "2026-01-10T03:00", "Europe/Berlin");
  const first = dated("2026-05-01T08:00", "2026-05-01T12:00", "UTC");
  const second = dated("2026-05-01T12:00", "2026-05-01T18:00", "UTC");
  const apart = dated("2026-05-01T12:01", "2026-05-01T18:00", "UTC");
  await frozenCases(t, [
    [
      "friday evening and the weekend end Monday 00:00 local",
      [FRIDAY_BERLIN, weekend],
      "2026-01-09T15:00",
      [0],
      "2026-01-11T23:00",
    ],
    [
      "from inside the weekend",
      [FRIDAY_BERLIN, weekend],
      "2026-01-10T12:00",
      [1],
      "2026-01-11T23:00",
    ],
    [
      "over the weekend Berlin springs forward",
      [FRIDAY_BERLIN, weekend],
      "2026-03-27T15:00",
      [0],
      "2026-03-29T22:00",
    ],
    [
      "a dated window overlapping a weekly one ends at the later end",
      [FRIDAY_BERLIN, late],
      "2026-01-09T15:00",
      [0, 1],
      "2026-01-10T02:00",
    ],
    [
      "a dated window ending inside a weekly one",
      [FRIDAY_BERLIN, early],
      "2026-01-09T09:00",
      [1],
      "2026-01-09T23:00",
    ],
    [
      "back-to-back dated windows",
      [second, first],
      "2026-05-01T08:00",
      [1],
      "2026-05-01T18:00",
    ],
    [
      "a minute apart does not chain",
      [first, apart],
      "2026-05-01T08:00",
      [0],
      "2026-05-01T12:00",
    ],
    [
      "zones chain: New York's evening into Berlin's Saturday",
      [weekly(["fri"], "17:00-24:00", "America/New_York"), weekend],
      "2026-01-09T22:30",
      [0],
      "2026-01-11T23:00",
    ],
  ]);
});

Deno.test("frozenAt() says a freeze of more than 366 days goes on", async (t) => {
  await frozenCases(t, [
    [
      "every day, the whole day",
      [weekly(ALL_DAYS, "00:00-24:00", "Europe/Berlin")],
      "2026-01-09T15:00",
      [0],
      null,
    ],
    [
      "every morning and every afternoon",
      [
        weekly(ALL_DAYS, "00:00-12:00", "Asia/Kolkata"),
        weekly(ALL_DAYS, "12:00-24:00", "Asia/Kolkata"),
      ],
      "2026-01-09T15:00",
      [1],
      null,
    ],
    [
      "every night over midnight, and the days",
      [
        weekly(ALL_DAYS, "20:00-08:00", "America/New_York"),
        weekly(ALL_DAYS, "08:00-20:00", "America/New_York"),
      ],
      "2026-01-09T15:00",
      [1],
      null,
    ],
    [
      "366 days exactly still ends",
      [dated("2026-01-01", "2027-01-02", "UTC")],
      "2026-01-01T00:00",
      [0],
      "2027-01-02T00:00",
    ],
    [
      "a second more goes on",
      [dated("2026-01-01", "2027-01-02T00:00:01", "UTC")],
      "2026-01-01T00:00",
      [0],
      null,
    ],
    [
      "a minute short of every day ends that day",
      [weekly(ALL_DAYS, "00:00-23:59", "UTC")],
      "2026-01-09T15:00",
      [0],
      "2026-01-09T23:59",
    ],
  ]);
});

Deno.test("frozenAt() answers for 64 windows in 64 zones", () => {
  const zones = Intl.supportedValuesOf("timeZone").slice(0, 64);
  const windows = zones.map((zone) => weekly(["fri"], "00:00-24:00", zone));
  windows.push(dated("2026-01-08", "2026-01-12", "UTC"));
  const result = frozenAt(windows, utc("2026-01-09T12:00"));
  expect(result?.holding.length).toBe(65);
  expect(shown(result?.until)).toBe(shown(utc("2026-01-12T00:00")));
});

Deno.test("describeWindow() names a window the way lines show it", async (t) => {
  const cases: [FreezeWindow, string][] = [
    [FRIDAY_BERLIN, "fri 16:00-24:00 Europe/Berlin"],
    [
      weekly(["fri", "mon"], "22:00-06:00", "UTC"),
      "mon, fri 22:00-06:00 UTC",
    ],
    [weekly(["sun", "sat"], "00:00-24:00", "UTC"), "sat, sun 00:00-24:00 UTC"],
    [
      weekly(["tue"], "00:05-09:30", "Asia/Kolkata"),
      "tue 00:05-09:30 Asia/Kolkata",
    ],
    [
      dated("2026-12-24T18:00", "2026-12-27T08:00", "Europe/Berlin"),
      "2026-12-24T18:00 to 2026-12-27T08:00 Europe/Berlin",
    ],
    [dated("2026-12-24", "2026-12-27", "UTC"), "2026-12-24 to 2026-12-27 UTC"],
    [
      dated(
        "2026-12-24T18:00",
        "2026-12-27T08:00",
        "Europe/Berlin",
        "holidays",
      ),
      "2026-12-24T18:00 to 2026-12-27T08:00 Europe/Berlin (holidays)",
    ],
    [
      weekly(["fri"], "16:00-24:00", "UTC", "weekend\x1b[2J\r\napprove: x"),
      "fri 16:00-24:00 UTC (weekend\\x1b[2J\\r\\napprove: x)",
    ],
    [
      weekly(["fri"], "16:00-24:00", "UTC", "a\u202eb"),
      "fri 16:00-24:00 UTC (a\\u202eb)",
    ],
  ];
  for (const [window, want] of cases) {
    await t.step(want, () => {
      expect(describeWindow(window)).toBe(want);
    });
  }
});
