// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { decisionRecordPath, expandJobs } from "../../src/jobs/expand_jobs.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const SECTION_6_1 = `{
  "name": "tf",
  "plan": ["tool", "plan", "{target}", "{plan}"],
  "apply": ["tool", "apply", "{plan}"],
  "waves": [
    { "name": "first", "runs": ["a"] },
    {
      "name": "apply",
      "runs": ["dev/x", "prod/eu", "prod/us", "prod/ap"],
      "jobs": [
        { "name": "dev", "runs": ["dev/*"] },
        { "name": "prod", "runs": ["prod/**"], "shares": 2 }
      ]
    },
    { "name": "last", "runs": ["z"] }
  ]
}`;

Deno.test("expandJobs() expands the SPEC.md §6.1 example exactly", () => {
  const jobs = expandJobs(parseSpec(SECTION_6_1, "waves.jsonc"), "waves.jsonc");
  const run = ["chant-wave", "run", "--spec", "waves.jsonc", "--wave"];
  expect(jobs.map((job) => [job.name, job.kind, job.needs, job.command]))
    .toEqual([
      ["wave-1-first", "wave", [], [...run, "1"]],
      ["wave-2-apply-decide", "decide", ["wave-1-first"], [
        ...run,
        "2",
        "--decide",
      ]],
      ["wave-2-apply-dev", "group", ["wave-2-apply-decide"], [
        ...run,
        "2",
        "--group",
        "dev",
      ]],
      [
        "wave-2-apply-prod-share-1",
        "group",
        ["wave-2-apply-decide"],
        [...run, "2", "--group", "prod", "--share", "1"],
      ],
      [
        "wave-2-apply-prod-share-2",
        "group",
        ["wave-2-apply-decide"],
        [...run, "2", "--group", "prod", "--share", "2"],
      ],
      [
        "wave-3-last",
        "wave",
        [
          "wave-2-apply-dev",
          "wave-2-apply-prod-share-1",
          "wave-2-apply-prod-share-2",
        ],
        [...run, "3"],
      ],
    ]);
  expect(jobs.map((job) => job.record)).toEqual([
    ".chant/waves/tf/wave-1.json",
    ".chant/waves/tf/wave-2.json",
    ".chant/waves/tf/wave-2.json",
    ".chant/waves/tf/wave-2.json",
    ".chant/waves/tf/wave-2.json",
    ".chant/waves/tf/wave-3.json",
  ]);
});

Deno.test("expandJobs() gives a wave with shares a deciding job and share jobs", () => {
  const spec = parseSpec(
    `{ "name": "s", "base": "origin/main", "plan": ["p", "{plan}"], "apply": ["a"],
       "runner": "linux", "waves": [
         { "name": "w", "runs": ["t1", "t2", "t3"], "shares": 2, "runner": ["self-hosted", "big"],
           "environment": { "name": "prod" }, "variables": { "A": "1" } },
         { "name": "after", "runs": ["x"] } ] }`,
    "s.json",
  );
  const jobs = expandJobs(spec, "s.json");
  expect(jobs.map((job) => job.name)).toEqual([
    "wave-1-w-decide",
    "wave-1-w-share-1",
    "wave-1-w-share-2",
    "wave-2-after",
  ]);
  const [decide, share1, , after] = jobs;
  expect(decide.command).toEqual([
    "chant-wave",
    "run",
    "--spec",
    "s.json",
    "--wave",
    "1",
    "--base",
    "origin/main",
    "--decide",
  ]);
  expect(decide.environment).toBeUndefined();
  expect(share1).toMatchObject({
    kind: "share",
    share: 1,
    shares: 2,
    needs: ["wave-1-w-decide"],
    runner: ["self-hosted", "big"],
    environment: { name: "prod" },
    variables: { A: "1" },
  });
  expect(after.needs).toEqual(["wave-1-w-share-1", "wave-1-w-share-2"]);
  expect(after.runner).toBe("linux");
});

Deno.test("decisionRecordPath() names the wave's record under .chant/waves", () => {
  expect(decisionRecordPath("demo", 2)).toBe(".chant/waves/demo/wave-2.json");
});

Deno.test("expandJobs() renders a rest wave once, its jobs marked rest", async (t) => {
  const spec = (last: Record<string, unknown>) =>
    parseSpec(
      JSON.stringify({
        name: "tf",
        plan: ["p", "{plan}"],
        apply: ["a"],
        waves: [{ name: "dev", runs: ["d"] }, {
          name: "tenants",
          runs: ["t1", "t2"],
          rest: true,
          ...last,
        }],
      }),
      "w.json",
    );
  await t.step("a whole-wave rest wave: one job that carries on", () => {
    const jobs = expandJobs(spec({}), "w.json");
    expect(jobs.map((job) => [job.name, job.rest])).toEqual([
      ["wave-1-dev", undefined],
      ["wave-2-tenants", true],
    ]);
  });
  await t.step("with shares: every job of the wave is marked", () => {
    const jobs = expandJobs(spec({ shares: 2 }), "w.json");
    expect(jobs.filter((job) => job.rest).map((job) => job.name)).toEqual([
      "wave-2-tenants-decide",
      "wave-2-tenants-share-1",
      "wave-2-tenants-share-2",
    ]);
  });
});

Deno.test("expandJobs() renders no --base for a base relative to HEAD", () => {
  for (const base of ["HEAD^1", "@~1", "main@{1}"]) {
    const spec = parseSpec(
      `{ "name": "s", "base": ${
        JSON.stringify(base)
      }, "plan": ["p", "{plan}"], "apply": ["a"],
         "waves": [{ "name": "w", "runs": ["t1"] }] }`,
      "s.json",
    );
    const [job] = expandJobs(spec, "s.json");
    expect(job.command).toEqual([
      "chant-wave",
      "run",
      "--spec",
      "s.json",
      "--wave",
      "1",
    ]);
  }
});
