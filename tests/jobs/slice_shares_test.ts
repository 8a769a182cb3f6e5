// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { sliceShare, sortByTarget } from "../../src/jobs/slice_shares.ts";

const runs = (...targets: string[]) => targets.map((target) => ({ target }));
const targetsOf = (items: { target: string }[]) =>
  items.map((item) => item.target);

Deno.test("sliceShare() cuts sorted runs into contiguous slices, larger first", async (t) => {
  const cases = [
    {
      name: "SPEC §4.7 example, share 1",
      runs: ["t3", "t1", "t2"],
      shares: 2,
      share: 1,
      want: ["t1", "t2"],
    },
    {
      name: "SPEC §4.7 example, share 2",
      runs: ["t3", "t1", "t2"],
      shares: 2,
      share: 2,
      want: ["t3"],
    },
    {
      name: "even split",
      runs: ["a", "b", "c", "d"],
      shares: 2,
      share: 2,
      want: ["c", "d"],
    },
    {
      name: "7 in 3, first",
      runs: ["a", "b", "c", "d", "e", "f", "g"],
      shares: 3,
      share: 1,
      want: ["a", "b", "c"],
    },
    {
      name: "7 in 3, second",
      runs: ["a", "b", "c", "d", "e", "f", "g"],
      shares: 3,
      share: 2,
      want: ["d", "e"],
    },
    {
      name: "7 in 3, third",
      runs: ["a", "b", "c", "d", "e", "f", "g"],
      shares: 3,
      share: 3,
      want: ["f", "g"],
    },
    {
      name: "more shares than runs",
      runs: ["a"],
      shares: 2,
      share: 2,
      want: [],
    },
    {
      name: "one share takes all",
      runs: ["b", "a"],
      shares: 1,
      share: 1,
      want: ["a", "b"],
    },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () =>
        expect(targetsOf(sliceShare(runs(...c.runs), c.shares, c.share)))
          .toEqual(c.want),
    );
  }
});

Deno.test("sliceShare() covers every run exactly once across its shares", () => {
  const all = runs(...Array.from({ length: 23 }, (_, i) => `t${i}`));
  for (let shares = 1; shares <= 7; shares++) {
    const seen = Array.from(
      { length: shares },
      (_, i) => targetsOf(sliceShare(all, shares, i + 1)),
    ).flat();
    expect(seen).toEqual(targetsOf(sortByTarget(all)));
  }
});

Deno.test("sliceShare() refuses a share outside 1..shares", () => {
  expect(() => sliceShare(runs("a"), 2, 3)).toThrow(
    "share 3 is not within 1..2",
  );
  expect(() => sliceShare(runs("a"), 2, 0)).toThrow(
    "share 0 is not within 1..2",
  );
});

Deno.test("sortByTarget() orders by UTF-16 code units, not locale", () => {
  expect(targetsOf(sortByTarget(runs("b", "B", "a", "é", "Z")))).toEqual([
    "B",
    "Z",
    "a",
    "b",
    "é",
  ]);
});
