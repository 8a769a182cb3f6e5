// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { sayAge, sayMoment } from "../src/say_time.ts";

Deno.test("sayMoment() says a moment in UTC, rounded up to the minute, with its date when not today", () => {
  const noon = Date.UTC(2026, 11, 6, 12);
  expect(sayMoment(Date.UTC(2026, 11, 6, 14, 31, 20), noon)).toBe("14:32 UTC");
  expect(sayMoment(Date.UTC(2026, 11, 6, 14, 32), noon)).toBe("14:32 UTC");
  expect(sayMoment(Date.UTC(2026, 11, 7, 0, 5), noon)).toBe(
    "2026-12-07 00:05 UTC",
  );
  expect(sayMoment(Date.UTC(2026, 11, 6, 23, 59, 30), noon)).toBe(
    "2026-12-07 00:00 UTC",
  );
});

Deno.test("sayAge() says an age in whole minutes and hours, or seconds under a minute", () => {
  expect(sayAge(0)).toBe("0s");
  expect(sayAge(35_900)).toBe("35s");
  expect(sayAge(2_412_000)).toBe("40m");
  expect(sayAge(7_500_000)).toBe("2h5m");
  expect(sayAge(7_200_000)).toBe("2h");
});
