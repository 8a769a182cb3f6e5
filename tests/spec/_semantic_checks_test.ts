import { runProblemCases, wavesSpec } from "./_helpers.ts";

Deno.test("checkSemantics() wants unique wave names and targets", async (t) => {
  await runProblemCases(t, [
    {
      name: "a repeated target (the SPEC example)",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["d"] },',
        '    { "name": "prod", "runs": ["eu-0", "eu-1", "us-1", "eu-1"] }',
      ),
      want: [
        'w.jsonc:7:56: wave 2 "prod" runs[3]: target "eu-1" appears twice',
      ],
    },
    {
      name: "a repeated target in object form points at the target",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a", { "target": "a", "op": "x" }] }',
      ),
      want: ['w.jsonc:6:48: wave 1 "dev" runs[1]: target "a" appears twice'],
    },
    {
      name: "a target three times",
      text: wavesSpec('    { "name": "dev", "runs": ["a", "a", "a"] }'),
      want: [
        'w.jsonc:6:36: wave 1 "dev" runs[1]: target "a" appears twice',
        'w.jsonc:6:41: wave 1 "dev" runs[2]: target "a" appears 3 times',
      ],
    },
    {
      name: "the same target in two waves is fine",
      text: wavesSpec(
        '    { "name": "a", "runs": ["t"] },',
        '    { "name": "b", "runs": ["t"] }',
      ),
      want: [],
    },
    {
      name: "a repeated wave name",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"] },',
        '    { "name": "prod", "runs": ["b"] },',
        '    { "name": "dev", "runs": ["c"] }',
      ),
      want: [
        'w.jsonc:8:15: wave 3 "dev": wave name "dev" appears twice (also wave 1)',
      ],
    },
  ]);
});

Deno.test("checkSemantics() checks runs and shares of a wave", async (t) => {
  await runProblemCases(t, [
    {
      name: "no runs",
      text: wavesSpec('    { "name": "dev", "runs": [] }'),
      want: [
        'w.jsonc:6:30: wave 1 "dev" runs: a wave needs at least one run, unless "discover" is true',
      ],
    },
    {
      name: "no runs with discover",
      text: wavesSpec(
        '    { "name": "dev", "runs": [], "discover": true, "shares": 4 }',
      ),
      want: [],
    },
    {
      name: "more shares than runs",
      text: wavesSpec('    { "name": "dev", "runs": ["a", "b"], "shares": 3 }'),
      want: [
        'w.jsonc:6:52: wave 1 "dev" shares: more shares (3) than runs (2)',
      ],
    },
    {
      name: "as many shares as runs",
      text: wavesSpec('    { "name": "dev", "runs": ["a", "b"], "shares": 2 }'),
      want: [],
    },
    {
      name: "shares with jobs",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "shares": 1, "jobs": [{ "name": "g", "runs": ["a"] }] }',
      ),
      want: [
        'w.jsonc:6:47: wave 1 "dev" shares: "shares" and "jobs" do not go together: give each group its own "shares"',
      ],
    },
    {
      name: "empty idTokens",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "idTokens": {}, "jobs": [{ "name": "g", "runs": ["a"], "idTokens": {} }] }',
      ),
      want: [
        'w.jsonc:6:49: wave 1 "dev" idTokens: idTokens must name at least one token',
        'w.jsonc:6:104: wave 1 "dev" jobs[0] "g" idTokens: idTokens must name at least one token',
      ],
    },
  ]);
});
