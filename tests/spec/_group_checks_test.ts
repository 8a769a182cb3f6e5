// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { runProblemCases, wavesSpec } from "./_helpers.ts";

/** A wave `dev` with these runs and job groups (one group per row), from line 6. */
function groupsSpec(runs: string, ...groups: string[]): string {
  return wavesSpec(
    `    { "name": "dev", "runs": ${runs}, "jobs": [`,
    ...groups.map((group, i) =>
      `      ${group}${i < groups.length - 1 ? "," : ""}`
    ),
    "    ] }",
  );
}

Deno.test("checkGroups() refuses repeated and reserved group names", async (t) => {
  await runProblemCases(t, [
    {
      name: "a repeated name",
      text: groupsSpec(
        '["a", "b"]',
        '{ "name": "eu", "runs": ["a"] }',
        '{ "name": "eu", "runs": ["b"] }',
      ),
      want: [
        'w.jsonc:8:17: wave 1 "dev" jobs[1] "eu": group name "eu" appears twice',
      ],
    },
    {
      name: "decide",
      text: groupsSpec('["a"]', '{ "name": "decide", "runs": ["a"] }'),
      want: [
        'w.jsonc:7:17: wave 1 "dev" jobs[0] "decide": group name "decide" is taken by the deciding job',
      ],
    },
    {
      name: "share-<n>",
      text: groupsSpec('["a"]', '{ "name": "share-12", "runs": ["a"] }'),
      want: [
        `w.jsonc:7:17: wave 1 "dev" jobs[0] "share-12": group name "share-12" looks like a share job's name`,
      ],
    },
    {
      name: "names like share are fine otherwise",
      text: groupsSpec('["a"]', '{ "name": "share-eu", "runs": ["a"] }'),
      want: [],
    },
  ]);
});

Deno.test("checkGroups() wants every run in exactly one group", async (t) => {
  await runProblemCases(t, [
    {
      name: "a run in no group",
      text: groupsSpec(
        '["eu-1", "us-1"]',
        '{ "name": "eu", "runs": ["eu-*"] }',
      ),
      want: [
        'w.jsonc:6:39: wave 1 "dev" runs[1]: target "us-1" matches no group of "jobs"',
      ],
    },
    {
      name: "a run in two groups",
      text: groupsSpec(
        '["eu-1"]',
        '{ "name": "eu", "runs": ["eu-*"] }',
        '{ "name": "all", "runs": ["**"] }',
      ),
      want: [
        'w.jsonc:6:31: wave 1 "dev" runs[0]: target "eu-1" matches more than one group: "eu" and "all"',
      ],
    },
    {
      name: "a run object in three groups",
      text: groupsSpec(
        '[{ "target": "live/eu" }]',
        '{ "name": "a", "runs": ["live/*"] }',
        '{ "name": "b", "runs": ["**/eu"] }',
        '{ "name": "c", "runs": ["live/eu"] }',
      ),
      want: [
        'w.jsonc:6:43: wave 1 "dev" runs[0]: target "live/eu" matches more than one group: "a", "b" and "c"',
      ],
    },
    {
      name: "two patterns of one group matching the same run",
      text: groupsSpec('["eu-1"]', '{ "name": "eu", "runs": ["eu-*", "*-1"] }'),
      want: [],
    },
  ]);
});

Deno.test("checkGroups() keeps a group's shares within its runs", async (t) => {
  await runProblemCases(t, [
    {
      name: "more shares than matching runs",
      text: groupsSpec(
        '["eu-1", "eu-2", "us-1"]',
        '{ "name": "eu", "runs": ["eu-*"], "shares": 3 }',
        '{ "name": "us", "runs": ["us-*"] }',
      ),
      want: [
        'w.jsonc:7:51: wave 1 "dev" jobs[0] "eu" shares: more shares (3) than matching runs (2)',
      ],
    },
    {
      name: "as many shares as matching runs",
      text: groupsSpec(
        '["eu-1", "eu-2"]',
        '{ "name": "eu", "runs": ["eu-*"], "shares": 2 }',
      ),
      want: [],
    },
    {
      name: "a group matching no run, with one share, is allowed",
      text: groupsSpec(
        '["eu-1"]',
        '{ "name": "eu", "runs": ["eu-*"] }',
        '{ "name": "ap", "runs": ["ap-*"] }',
      ),
      want: [],
    },
    {
      name: "a group matching no run, with more shares, is not",
      text: groupsSpec(
        '["eu-1"]',
        '{ "name": "eu", "runs": ["eu-*"] }',
        '{ "name": "ap", "runs": ["ap-*"], "shares": 2 }',
      ),
      want: [
        'w.jsonc:8:51: wave 1 "dev" jobs[1] "ap" shares: more shares (2) than matching runs (0)',
      ],
    },
    {
      name: "with discover, shares are not checked against the listed runs",
      text: wavesSpec(
        '    { "name": "dev", "runs": [], "discover": true, "jobs": [{ "name": "eu", "runs": ["eu-*"], "shares": 4 }] }',
      ),
      want: [],
    },
    {
      name: "with discover, listed runs still need exactly one group",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["x"], "discover": true, "jobs": [{ "name": "eu", "runs": ["eu-*"] }] }',
      ),
      want: [
        'w.jsonc:6:31: wave 1 "dev" runs[0]: target "x" matches no group of "jobs"',
      ],
    },
  ]);
});

Deno.test("checkGroups() lets an empty group through to the normalised spec", () => {
  const spec = parseSpec(
    groupsSpec(
      '["eu-1"]',
      '{ "name": "eu", "runs": ["eu-*"] }',
      '{ "name": "ap", "runs": ["ap-*"] }',
    ),
    "w.jsonc",
  );
  expect(spec.waves[0].jobs).toEqual([
    { name: "eu", runs: ["eu-*"], shares: 1 },
    { name: "ap", runs: ["ap-*"], shares: 1 },
  ]);
});
