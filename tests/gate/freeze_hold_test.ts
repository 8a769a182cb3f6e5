// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { freezeHold, freezeReason } from "../../src/gate/freeze_hold.ts";
import type { FreezeWindow } from "../../src/spec/types.ts";

const FRIDAY: FreezeWindow = {
  kind: "weekly",
  days: ["fri"],
  hours: { from: 960, to: 1440 },
  timezone: "UTC",
};
const ALWAYS: FreezeWindow = {
  kind: "weekly",
  days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
  hours: { from: 0, to: 1440 },
  timezone: "UTC",
  reason: "forever",
};
// 2030-01-04 is a Friday.
const FRIDAY_EVENING = Date.UTC(2030, 0, 4, 17);

Deno.test("freezeHold() says which window holds and until when, or nothing", async (t) => {
  await t.step("no window holds: nothing", () => {
    expect(freezeHold([FRIDAY], Date.UTC(2030, 0, 4, 15))).toBeUndefined();
    expect(freezeHold([], FRIDAY_EVENING)).toBeUndefined();
  });
  await t.step("one holds: its end, on the next day with its date", () => {
    expect(freezeHold([FRIDAY], FRIDAY_EVENING)).toEqual({
      line:
        "a freeze window holds until 2030-01-05 00:00 UTC: fri 16:00-24:00 UTC",
      until: Date.UTC(2030, 0, 5),
    });
  });
  await t.step("one without an end within a year: none, and it says so", () => {
    expect(freezeHold([ALWAYS], FRIDAY_EVENING)).toEqual({
      line:
        "a freeze window holds for more than a year: mon, tue, wed, thu, fri, sat, sun 00:00-24:00 UTC (forever)",
    });
  });
  await t.step("the reason a gate gives while nothing lets it through", () => {
    expect(freezeReason({ line: "a freeze window holds until 18:00 UTC: x" }))
      .toBe(
        "a freeze window holds until 18:00 UTC: x; an approval given with --during-freeze lets the plans through",
      );
  });
});
