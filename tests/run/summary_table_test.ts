// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { summaryRows } from "../../src/run/summary_table.ts";
import { tableWidths } from "../../src/table.ts";
import type { PlannedRun } from "../../src/run/run_outcomes.ts";

function planned(target: string, summary: string): PlannedRun {
  return {
    target,
    run: { target, op: "tf" },
    planPath: `${target}.plan.json`,
    plan: {
      planDigest: `sha256:${"a".repeat(64)}`,
      destructive: false,
      empty: false,
      summary,
    },
  } as PlannedRun;
}

Deno.test("summaryRows() lists every run of the job, refused and unplanned ones too", () => {
  const rows = [...summaryRows({
    planned: [planned("b", "1 to add"), planned("d", "2 to add")],
    outcome: {
      applied: ["b"],
      failed: [{ target: "d", message: "d failed", tail: [] }],
      untried: [],
      replan: [],
      moved: [],
      skipped: [],
    },
    durations: new Map([["b", 2000], ["d", 1000]]),
    moved: [planned("a", "3 to add")],
    unplanned: ["c"],
  })];
  expect(rows).toEqual([
    ["target", "plan", "outcome", "took"],
    ["a", "3 to add", "refused: plan moved", ""],
    ["b", "1 to add", "applied", "2s"],
    ["c", "-", "failed to plan", ""],
    ["d", "2 to add", "failed", "1s"],
  ]);
});

Deno.test("summaryRows() has no rows for a job with no runs", () => {
  expect([...summaryRows({
    planned: [],
    outcome: {
      applied: [],
      failed: [],
      untried: [],
      replan: [],
      moved: [],
      skipped: [],
    },
    durations: new Map(),
  })]).toEqual([]);
});

Deno.test("summaryRows() sorts by target whatever the input order, and reads the same twice", () => {
  const rows = summaryRows({
    planned: [
      planned("t2", "x"),
      planned("__proto__", "x"),
      planned("constructor", "x"),
      planned("T1", "x"),
    ],
    outcome: {
      applied: ["t2", "__proto__"],
      failed: [],
      untried: [],
      replan: [],
      moved: [],
      skipped: [{ target: "T1", reason: "no changes" }],
    },
    durations: new Map([["t2", 1500], ["__proto__", 1]]),
  });
  const first = [...rows];
  expect(first).toEqual([
    ["target", "plan", "outcome", "took"],
    ["T1", "x", "skipped: no changes", ""],
    ["__proto__", "x", "applied", "1s"],
    ["constructor", "x", "not applied", ""],
    ["t2", "x", "applied", "2s"],
  ]);
  expect([...rows]).toEqual(first);
  expect(rows.widths()).toEqual(tableWidths(first));
});
