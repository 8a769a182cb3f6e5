// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  driftOf,
  driftReason,
  driftRows,
  type PlannedWave,
} from "../../src/plan/drift_report.ts";

const EMPTY = `sha256:${"0".repeat(64)}`;
const CHANGE = `sha256:${"1".repeat(64)}`;
const OTHER = `sha256:${"2".repeat(64)}`;
const SET = `sha256:${"d".repeat(64)}`;

function wave(
  k: number,
  members: PlannedWave["members"],
): PlannedWave {
  return { k, name: `w${k}`, gate: `tf-wave-${k}`, digest: SET, members };
}

const empty = (target: string) => ({
  target,
  planDigest: EMPTY,
  empty: true,
  summary: "0 to add, 0 to change, 0 to destroy",
});

Deno.test("driftOf() names the runs whose plan is not empty, or differs from the rest of the wave", async (t) => {
  const cases: {
    name: string;
    members: PlannedWave["members"];
    want: ReturnType<typeof driftOf>[number]["drifted"];
  }[] = [
    { name: "every plan empty", members: ["a", "b"].map(empty), want: [] },
    {
      name: "one changed by hand among three",
      members: [empty("a"), {
        target: "b",
        planDigest: CHANGE,
        empty: false,
        destructive: true,
        summary: "0 to add, 0 to change, 1 to destroy",
      }, empty("c")],
      want: [{
        target: "b",
        planDigest: CHANGE,
        changes: true,
        differsFrom: 2,
        destructive: true,
        summary: "0 to add, 0 to change, 1 to destroy",
      }],
    },
    {
      name: "an empty plan that differs from the wave's changes",
      members: [
        { target: "a", planDigest: CHANGE, empty: false },
        { target: "b", planDigest: CHANGE, empty: false },
        { target: "c", planDigest: OTHER, empty: true },
      ],
      want: [
        { target: "a", planDigest: CHANGE, changes: true },
        { target: "b", planDigest: CHANGE, changes: true },
        { target: "c", planDigest: OTHER, changes: false, differsFrom: 2 },
      ],
    },
    {
      name: "two runs: changes count, differing alone does not",
      members: [empty("a"), { target: "b", planDigest: OTHER, empty: true }],
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const [found] = driftOf([wave(2, c.members)]);
      expect(found).toEqual({
        k: 2,
        name: "w2",
        gate: "tf-wave-2",
        digest: SET,
        runs: c.members.length,
        drifted: c.want,
      });
    });
  }
});

Deno.test("driftReason() says why a run counts as drifted", () => {
  const run = { target: "b", planDigest: CHANGE };
  expect(driftReason({ ...run, changes: true })).toBe("its plan is not empty");
  expect(driftReason({ ...run, changes: true, differsFrom: 2 })).toBe(
    "its plan is not empty, and differs from the other 2 runs of the wave",
  );
  expect(driftReason({ ...run, changes: false, differsFrom: 4 })).toBe(
    "its plan differs from the other 4 runs of the wave",
  );
});

Deno.test("driftRows() is a header and a row per drifted run", () => {
  const found = driftOf([
    wave(1, [empty("dev")]),
    wave(2, [
      { target: "eu", planDigest: CHANGE, summary: "1 to add" },
      { target: "us", planDigest: CHANGE, destructive: true },
    ]),
  ]);
  expect(driftRows(found)).toEqual([
    ["WAVE", "TARGET", "PLAN", "WHY"],
    ["2 w2", "eu", "1 to add", "its plan is not empty"],
    ["2 w2", "us", "changes (destructive)", "its plan is not empty"],
  ]);
});
