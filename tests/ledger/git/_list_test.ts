// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { beforeTheCut } from "../../../src/ledger/git/_list.ts";

const DIR = "gates/tf/tf-wave-1/";
const file = (name: string, at: number) => ({ path: DIR + name, at });

Deno.test("beforeTheCut() reads every earlier revoke, or the whole gate", async (t) => {
  const cut = DIR + "20261203T100000.000Z-expired-e2.json";
  await t.step("the earlier revokes, when all came before the cut", () => {
    const earlier = [
      file("20261203T090000.000Z-approval-a1.json", 1),
      file("20261203T091000.000Z-expired-e1.json", 2),
    ];
    expect(beforeTheCut(cut, earlier)).toEqual([earlier[1]]);
  });
  await t.step("none, when a file is named after a back-dated cut", () => {
    const back = DIR + "20010101T000000.000Z-expired-b0.json";
    const earlier = [file("20261203T090000.000Z-approval-a1.json", 1)];
    expect(beforeTheCut(back, earlier)).toBeUndefined();
  });
  await t.step("a compaction's summary, dated when it ran, only tells", () => {
    const earlier = [file("20261203T110000.000Z-folded-f1.json", 1)];
    expect(beforeTheCut(cut, earlier)).toEqual([]);
  });
});
