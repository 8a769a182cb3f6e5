// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Decision } from "../../src/gate/decision.ts";
import {
  type RunJobInput,
  shareJobTag,
  shareResult,
  shareSlice,
} from "../../src/run/select_job.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const SPEC = parseSpec(
  JSON.stringify({
    name: "tf",
    plan: ["p", "{plan}"],
    apply: ["a"],
    waves: [
      { name: "prod", runs: ["t3", "t1", "t2"], shares: 2 },
      {
        name: "grouped",
        runs: ["eu-1", "eu-2", "us-1"],
        jobs: [
          { name: "eu", runs: ["eu-*"], shares: 2 },
          { name: "us", runs: ["us-*"] },
        ],
      },
    ],
  }),
  "waves.json",
);

function job(
  k: number,
  selection: { share?: number; group?: string },
): RunJobInput {
  const wave = SPEC.waves[k - 1];
  const group = wave.jobs?.find((g) => g.name === selection.group);
  return {
    spec: SPEC,
    selection: {
      wave,
      kind: group ? "group" : "share",
      ...(selection.share === undefined ? {} : { share: selection.share }),
      ...(group ? { group } : {}),
    },
  } as RunJobInput;
}

const DECISION = { members: [] } as unknown as Decision;

Deno.test("shareSlice() cuts the wave's or the group's runs, sorted by target", () => {
  const targets = (input: RunJobInput) =>
    shareSlice(input, DECISION).map((run) => run.target);
  expect(targets(job(1, { share: 1 }))).toEqual(["t1", "t2"]);
  expect(targets(job(1, { share: 2 }))).toEqual(["t3"]);
  expect(targets(job(2, { group: "eu", share: 2 }))).toEqual(["eu-2"]);
  expect(targets(job(2, { group: "us" }))).toEqual(["us-1"]);
});

Deno.test("shareJobTag() names the job's files", () => {
  expect(shareJobTag(job(1, { share: 2 }))).toBe("share-2");
  expect(shareJobTag(job(2, { group: "us" }))).toBe("group-us");
  expect(shareJobTag(job(2, { group: "eu", share: 1 }))).toBe(
    "group-eu-share-1",
  );
});

Deno.test("shareResult() starts from the slice, nothing done", () => {
  const input = job(2, { group: "eu", share: 1 });
  expect(shareResult(input, DECISION, shareSlice(input, DECISION))).toEqual({
    exitCode: 0,
    wave: 2,
    job: { kind: "group", share: 1, group: "eu" },
    decision: DECISION,
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
    runs: ["eu-1"],
  });
});
