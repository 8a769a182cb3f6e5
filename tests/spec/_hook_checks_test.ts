import { lines, runProblemCases, wavesSpec } from "./_helpers.ts";

/** A spec whose top-level `hooks` rows come on lines 5 and on (line 4 opens it). */
function hooksSpec(...rows: string[]): string {
  return lines(
    "{",
    '  "name": "demo",',
    '  "plan": ["p", "{plan}"], "apply": ["a"],',
    '  "hooks": {',
    ...rows,
    "  },",
    '  "waves": [{ "name": "dev", "runs": ["a"] }]',
    "}",
  );
}

Deno.test("checkHooksAndRest() checks hooks (SPEC.md §11)", async (t) => {
  await runProblemCases(t, [
    {
      name: "commands and holds at every point",
      text: hooksSpec(
        '    "before-plan": [{ "name": "init", "run": ["i", "{op}", "{wave}", "{k}", "{runs}"] }],',
        '    "after-plan": [{ "name": "review", "run": ["r", "{plans}"] }],',
        '    "before-apply": [{ "name": "infra", "after": { "name": "infra", "gate": "infra-wave-1", "applied": true } }],',
        '    "after-apply": [{ "name": "smoke", "run": ["s", "{plans}"] }]',
      ),
      want: [],
    },
    {
      name: "a hook with both run and after",
      text: hooksSpec(
        '    "after-plan": [{ "name": "x", "run": ["r"], "after": { "name": "i", "gate": "g" } }]',
      ),
      want: [
        'w.jsonc:5:49: hooks.after-plan[0]: a hook has "run" (a command) or "after" (a hold), not both',
      ],
    },
    {
      name: "a hook with neither",
      text: hooksSpec('    "after-plan": [{ "name": "x" }]'),
      want: [
        'w.jsonc:5:20: hooks.after-plan[0]: a hook needs "run" (a command) or "after" (a hold)',
      ],
    },
    {
      name: "a misspelt field gets a did-you-mean",
      text: hooksSpec('    "after-plan": [{ "name": "x", "runs": ["r"] }]'),
      want: [
        'w.jsonc:5:20: hooks.after-plan[0]: a hook needs "run" (a command) or "after" (a hold)',
        'w.jsonc:5:35: hooks.after-plan[0]: unknown field "runs"; did you mean "run"?',
      ],
    },
    {
      name: "a misspelt point gets a did-you-mean",
      text: hooksSpec('    "befor-apply": []'),
      want: [
        'w.jsonc:5:5: hooks: unknown field "befor-apply"; did you mean "before-apply"?',
      ],
    },
    {
      name: "{plans} before planning, and per-run placeholders",
      text: hooksSpec(
        '    "before-plan": [{ "name": "x", "run": ["r", "{plans}", "{target}", "{wav}"] }]',
      ),
      want: [
        'w.jsonc:5:49: hooks.before-plan[0].run[1]: unknown placeholder "{plans}": there are no plans before planning: use it from "after-plan" on',
        'w.jsonc:5:60: hooks.before-plan[0].run[2]: unknown placeholder "{target}": a hook runs once for the wave, not once per run',
        'w.jsonc:5:72: hooks.before-plan[0].run[3]: unknown placeholder "{wav}"; did you mean "{wave}"?',
      ],
    },
    {
      name: "a hold at after-apply",
      text: hooksSpec(
        '    "after-apply": [{ "name": "x", "after": { "name": "i", "gate": "g" } }]',
      ),
      want: [
        'w.jsonc:5:36: hooks.after-apply[0]: a hold at "after-apply" would hold nothing back: put it at "before-apply" or earlier',
      ],
    },
    {
      name: "a name twice at one point",
      text: hooksSpec(
        '    "before-plan": [{ "name": "x", "run": ["a"] }, { "name": "x", "run": ["b"] }]',
      ),
      want: [
        'w.jsonc:5:62: hooks.before-plan[1]: hook name "x" appears twice at "before-plan"',
      ],
    },
    {
      name: "a bad hold: names and applied",
      text: hooksSpec(
        '    "after-plan": [{ "name": "x", "after": { "name": "I", "gate": "", "applied": "yes" } }]',
      ),
      want: [
        'w.jsonc:5:54: hooks.after-plan[0].after.name: invalid name "I": use lowercase letters, digits, "-" and "_", starting with a letter or digit',
        'w.jsonc:5:67: hooks.after-plan[0].after.gate: invalid name "": use lowercase letters, digits, "-" and "_", starting with a letter or digit',
        'w.jsonc:5:82: hooks.after-plan[0].after.applied: expected true or false, got "yes"',
      ],
    },
  ]);
});

Deno.test("checkHooksAndRest() checks a wave's hooks and rest", async (t) => {
  await runProblemCases(t, [
    {
      name: "a wave's hooks are checked like the spec's",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "hooks": { "after-plan": [{ "name": "x", "run": ["r", "{plan}"] }] } }',
      ),
      want: [
        'w.jsonc:6:91: wave 1 "dev" hooks.after-plan[0].run[1]: unknown placeholder "{plan}": a hook runs once for the wave, not once per run',
      ],
    },
    {
      name: "rest on the last wave",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"] },',
        '    { "name": "tenants", "runs": [], "discover": true, "rest": true }',
      ),
      want: [],
    },
    {
      name: "rest on another wave",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "rest": true },',
        '    { "name": "prod", "runs": ["b"] }',
      ),
      want: [
        'w.jsonc:6:45: wave 1 "dev" rest: only the last wave may be "rest": it stands for every wave after it',
      ],
    },
    {
      name: "rest with jobs",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "rest": true, "jobs": [{ "name": "g", "runs": ["*"] }] }',
      ),
      want: [
        'w.jsonc:6:45: wave 1 "dev" rest: "rest" and "jobs" do not go together: the waves after it run as whole-wave jobs',
      ],
    },
  ]);
});
