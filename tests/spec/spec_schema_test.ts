// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
// @ts-types="../../types/std/jsonc.d.ts"
import { parse } from "@std/jsonc";
// A dev-only JSON Schema validator, for this test only.
import { Ajv2020 } from "ajv/dist/2020.js";
import { specJsonSchema } from "../../src/spec/spec_schema.ts";
import { SCHEMA_FILE, schemaFileText } from "../../scripts/write_schema.ts";
import { lines, runProblemCases, wavesSpec } from "./_helpers.ts";

/** A valid spec with `rows` as top-level fields from line 3 on. */
function topSpec(...rows: string[]): string {
  return lines(
    "{",
    '  "name": "demo",',
    ...rows,
    '  "plan": ["p", "{plan}"],',
    '  "apply": ["a"],',
    '  "waves": [{ "name": "dev", "runs": ["dev"] }]',
    "}",
  );
}

Deno.test("specSchema refuses unknown fields and suggests the nearest known one", async (t) => {
  await runProblemCases(t, [
    {
      name: "top level, with a suggestion",
      text: topSpec('  "paralel": 2,'),
      want: ['w.jsonc:3:3: unknown field "paralel"; did you mean "parallel"?'],
    },
    {
      name: "top level, nothing close",
      text: topSpec('  "colour": "red",'),
      want: ['w.jsonc:3:3: unknown field "colour"'],
    },
    {
      name: "a wave (the SPEC example)",
      text: wavesSpec('    { "name": "dev", "share": 2, "runs": ["a", "b"] }'),
      want: [
        'w.jsonc:6:22: wave 1 "dev": unknown field "share"; did you mean "shares"?',
      ],
    },
    {
      name: "a run object",
      text: wavesSpec(
        '    { "name": "dev", "runs": [{ "target": "a", "opp": "x" }] }',
      ),
      want: [
        'w.jsonc:6:48: wave 1 "dev" runs[0]: unknown field "opp"; did you mean "op"?',
      ],
    },
    {
      name: "a job group",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "jobs": [{ "name": "all", "runs": ["*"], "share": 2 }] }',
      ),
      want: [
        'w.jsonc:6:78: wave 1 "dev" jobs[0] "all": unknown field "share"; did you mean "shares"?',
      ],
    },
    {
      name: "notify",
      text: topSpec('  "notify": { "webhok": "HOOK" },'),
      want: [
        'w.jsonc:3:13: notify: missing field "webhook"',
        'w.jsonc:3:15: notify: unknown field "webhok"; did you mean "webhook"?',
      ],
    },
    {
      name: "a setup step",
      text: topSpec(
        '  "pipeline": { "setup": [{ "uses": "a/b@v1", "wth": {} }] },',
      ),
      want: [
        'w.jsonc:3:47: pipeline.setup[0]: unknown field "wth"; did you mean "with"?',
      ],
    },
    {
      name: "runner groups, environments and job groups",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "runner": { "group": "g", "label": ["x"] }, "environment": { "name": "e", "URL": "x" } },',
        '    { "name": "b", "runs": ["a"], "jobs": [{ "name": "g", "runs": ["*"], "runner": { "group": "g", "lables": [] }, "idToken": {} }] }',
      ),
      want: [
        'w.jsonc:6:63: wave 1 "dev" runner: unknown field "label"; did you mean "labels"?',
        'w.jsonc:6:111: wave 1 "dev" environment: unknown field "URL"; did you mean "url"?',
        'w.jsonc:7:100: wave 2 "b" jobs[0] "g" runner: unknown field "lables"; did you mean "labels"?',
        'w.jsonc:7:116: wave 2 "b" jobs[0] "g": unknown field "idToken"; did you mean "idTokens"?',
      ],
    },
    {
      name: "a known key already present is not suggested",
      text: wavesSpec('    { "name": "dev", "runs": ["a"], "run": ["b"] }'),
      want: ['w.jsonc:6:37: wave 1 "dev": unknown field "run"'],
    },
  ]);
});

Deno.test("specSchema reports missing and mistyped fields", async (t) => {
  await runProblemCases(t, [
    {
      name: "a missing name, at the object",
      text: lines(
        "{",
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"] }]',
        "}",
      ),
      want: ['w.jsonc:1:1: missing field "name"'],
    },
    {
      name: "missing waves",
      text: lines(
        "{",
        '  "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"]',
        "}",
      ),
      want: ['w.jsonc:1:1: missing field "waves"'],
    },
    {
      name: "no waves",
      text: lines(
        "{",
        '  "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": []',
        "}",
      ),
      want: ["w.jsonc:3:12: waves: a spec needs at least one wave"],
    },
    {
      name: "a wave without runs",
      text: wavesSpec('    { "name": "dev" }'),
      want: ['w.jsonc:6:5: wave 1 "dev": missing field "runs"'],
    },
    {
      name: "a run object without a target",
      text: wavesSpec('    { "name": "dev", "runs": [{ "op": "x" }] }'),
      want: ['w.jsonc:6:31: wave 1 "dev" runs[0]: missing field "target"'],
    },
    {
      name: "a run that is neither",
      text: wavesSpec('    { "name": "dev", "runs": [42] }'),
      want: [
        'w.jsonc:6:31: wave 1 "dev" runs[0]: invalid run: expected a target or { "target": … }',
      ],
    },
    {
      name: "an empty target",
      text: wavesSpec('    { "name": "dev", "runs": ["a", ""] }'),
      want: ['w.jsonc:6:36: wave 1 "dev" runs[1]: a target must not be empty'],
    },
    {
      name: "a spec that is not an object",
      text: '["a"]',
      want: ["w.jsonc:1:1: expected an object, got an array"],
    },
    {
      name: "a wave that is not an object",
      text: wavesSpec('    "dev"'),
      want: ['w.jsonc:6:5: wave 1: expected an object, got "dev"'],
    },
    {
      name: "a command that is a string",
      text: lines(
        "{",
        '  "name": "demo",',
        '  "plan": "p {plan}",',
        '  "apply": [],',
        '  "waves": [{ "name": "dev", "runs": ["a"] }]',
        "}",
      ),
      want: [
        'w.jsonc:3:11: plan: expected a list, got "p {plan}"',
        "w.jsonc:4:12: apply: a command needs at least the program to run",
      ],
    },
    {
      name: "discover that is not a boolean",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "discover": "yes" }',
      ),
      want: [
        'w.jsonc:6:49: wave 1 "dev" discover: expected true or false, got "yes"',
      ],
    },
  ]);
});

Deno.test("specSchema checks names, counts and closed vocabularies", async (t) => {
  const name =
    'use lowercase letters, digits, "-" and "_", starting with a letter or digit';
  await runProblemCases(t, [
    {
      name: "the spec's name",
      text: lines(
        "{",
        '  "name": "Demo",',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"] }]',
        "}",
      ),
      want: [`w.jsonc:2:11: name: invalid name "Demo": ${name}`],
    },
    {
      name: "a wave's name",
      text: wavesSpec('    { "name": "-dev", "runs": ["a"] }'),
      want: [`w.jsonc:6:15: wave 1 "-dev" name: invalid name "-dev": ${name}`],
    },
    {
      name: "a group's name",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "jobs": [{ "name": "E U", "runs": ["a"] }] }',
      ),
      want: [
        `w.jsonc:6:56: wave 1 "dev" jobs[0] "E U" name: invalid name "E U": ${name}`,
      ],
    },
    {
      name: "the gate prefix",
      text: topSpec('  "gate": "a/b",'),
      want: [`w.jsonc:3:11: gate: invalid name "a/b": ${name}`],
    },
    {
      name: "a gate policy, with a suggestion",
      text: wavesSpec('    { "name": "dev", "runs": ["a"], "gate": "alway" }'),
      want: [
        'w.jsonc:6:45: wave 1 "dev" gate: invalid value "alway": expected "always", "on-destructive" or "never"; did you mean "always"?',
      ],
    },
    {
      name: "onFailure",
      text: topSpec('  "onFailure": "halt",'),
      want: [
        'w.jsonc:3:16: onFailure: invalid value "halt": expected "continue" or "stop"',
      ],
    },
    {
      name: "parallel below 1",
      text: topSpec('  "parallel": 0,'),
      want: ["w.jsonc:3:15: parallel: must be at least 1, got 0"],
    },
    {
      name: "parallel not whole",
      text: wavesSpec('    { "name": "dev", "runs": ["a"], "parallel": 1.5 }'),
      want: [
        'w.jsonc:6:49: wave 1 "dev" parallel: expected a whole number, got 1.5',
      ],
    },
    {
      name: "shares below 1",
      text: wavesSpec('    { "name": "dev", "runs": ["a"], "shares": 0 }'),
      want: ['w.jsonc:6:47: wave 1 "dev" shares: must be at least 1, got 0'],
    },
    {
      name: "empty branches",
      text: topSpec('  "branches": [],'),
      want: ["w.jsonc:3:15: branches: branches must name at least one branch"],
    },
    {
      name: "an empty branch",
      text: topSpec('  "branches": ["main", ""],'),
      want: ["w.jsonc:3:24: branches[1]: a branch must not be empty"],
    },
  ]);
});

Deno.test("specSchema checks durations", async (t) => {
  const hint = 'use a form like "90s", "15m", "2h" or "1h30m", or 0';
  await runProblemCases(t, [
    {
      name: "a malformed string",
      text: topSpec('  "timeout": "5x",'),
      want: [`w.jsonc:3:14: timeout: invalid duration "5x": ${hint}`],
    },
    {
      name: "a number other than 0",
      text: wavesSpec('    { "name": "dev", "runs": ["a"], "timeout": 90 }'),
      want: [
        `w.jsonc:6:48: wave 1 "dev" timeout: invalid duration 90: ${hint}`,
      ],
    },
    {
      name: "a wrong order",
      text: topSpec('  "heartbeat": "30m1h",'),
      want: [`w.jsonc:3:16: heartbeat: invalid duration "30m1h": ${hint}`],
    },
    {
      name: "pendingTtl",
      text: topSpec('  "pendingTtl": "2 days",'),
      want: [`w.jsonc:3:17: pendingTtl: invalid duration "2 days": ${hint}`],
    },
    {
      name: "the valid forms",
      text: topSpec('  "timeout": 0, "heartbeat": "0", "pendingTtl": "1h30m",'),
      want: [],
    },
  ]);
});

Deno.test("specSchema checks notify, resume, pullRequests, idTokens, variables and runners", async (t) => {
  const env = 'use letters, digits and "_", not starting with a digit';
  await runProblemCases(t, [
    {
      name: "a literal webhook URL",
      text: topSpec(
        '  "notify": { "webhook": "https://hooks.example.com/T0/B0/x" },',
      ),
      want: [
        "w.jsonc:3:26: notify.webhook: a literal URL is not allowed here: name the environment variable that holds it instead",
      ],
    },
    {
      name: "a key that is not a variable name",
      text: topSpec('  "notify": { "webhook": "HOOK", "key": "1KEY" },'),
      want: [
        `w.jsonc:3:41: notify.key: invalid environment variable name "1KEY": ${env}`,
      ],
    },
    {
      name: "a resume schedule of 3 fields",
      text: topSpec('  "resume": { "schedule": "*/10 * *" },'),
      want: [
        "w.jsonc:3:27: resume.schedule: a cron schedule has 5 fields (minute hour day-of-month month day-of-week), not 3",
      ],
    },
    {
      name: "a resume schedule out of range",
      text: topSpec('  "resume": { "schedule": "0 24 * * *" },'),
      want: ['w.jsonc:3:27: resume.schedule: hour "24" is not from 0 to 23'],
    },
    {
      name: "a resume schedule",
      text: topSpec('  "resume": { "schedule": "*/10 8-18 * * MON-FRI" },'),
      want: [],
    },
    {
      name: "pullRequests with a misspelt field",
      text: topSpec('  "pullRequests": { "coment": false },'),
      want: [
        'w.jsonc:3:21: pullRequests: unknown field "coment"; did you mean "comment"?',
      ],
    },
    {
      name: "pullRequests.comment that is not a boolean",
      text: topSpec('  "pullRequests": { "comment": "no" },'),
      want: [
        'w.jsonc:3:32: pullRequests.comment: expected true or false, got "no"',
      ],
    },
    {
      name: "pullRequests that turns the plan job off",
      text: topSpec('  "pullRequests": { "comment": false },'),
      want: [],
    },
    {
      name: "a drift schedule out of range, and a record that is no boolean",
      text: topSpec(
        '  "drift": { "schedule": "61 6 * * *", "record": "yes" },',
      ),
      want: [
        'w.jsonc:3:26: drift.schedule: minute "61" is not from 0 to 59',
        'w.jsonc:3:50: drift.record: expected true or false, got "yes"',
      ],
    },
    {
      name: "a drift schedule that records",
      text: topSpec('  "drift": { "schedule": "0 6 * * *", "record": true },'),
      want: [],
    },
    {
      name: "variable names as notify values",
      text: topSpec('  "notify": { "webhook": "CHANT_HOOK", "key": "_key1" },'),
      want: [],
    },
    {
      name: "an idTokens name and an empty audience",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "idTokens": { "a-b": "x", "OK": "" } }',
      ),
      want: [
        `w.jsonc:6:51: wave 1 "dev" idTokens: invalid environment variable name "a-b": ${env}`,
        'w.jsonc:6:69: wave 1 "dev" idTokens.OK: an audience must not be empty',
      ],
    },
    {
      name: "pipeline variables",
      text: topSpec('  "pipeline": { "variables": { "9X": "1", "Y": 2 } },'),
      want: [
        `w.jsonc:3:32: pipeline.variables: invalid environment variable name "9X": ${env}`,
        "w.jsonc:3:48: pipeline.variables.Y: expected a string, got 2",
      ],
    },
    {
      name: "runner labels",
      text: wavesSpec(
        '    { "name": "a", "runs": ["a"], "runner": "" },',
        '    { "name": "b", "runs": ["a"], "runner": [] },',
        '    { "name": "c", "runs": ["a"], "runner": ["x", ""] },',
        '    { "name": "d", "runs": ["a"], "runner": { "labels": ["x"] } },',
        '    { "name": "e", "runs": ["a"], "runner": 7 },',
        '    { "name": "f", "runs": ["a"], "runner": { "group": "g", "labels": ["x"] } }',
      ),
      want: [
        'w.jsonc:6:45: wave 1 "a" runner: a runner label must not be empty',
        'w.jsonc:7:45: wave 2 "b" runner: a list of runner labels must not be empty',
        'w.jsonc:8:51: wave 3 "c" runner[1]: a runner label must not be empty',
        'w.jsonc:9:45: wave 4 "d" runner: missing field "group"',
        'w.jsonc:10:45: wave 5 "e" runner: invalid runner 7: expected a label, a list of labels or { "group": … }',
      ],
    },
    {
      name: "an environment without a name",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "environment": { "url": "https://x" } }',
      ),
      want: ['w.jsonc:6:52: wave 1 "dev" environment: missing field "name"'],
    },
    {
      name: "a setup step of both kinds",
      text: topSpec(
        '  "pipeline": { "setup": [{ "run": "make", "uses": "a/b" }] },',
      ),
      want: [
        'w.jsonc:3:27: pipeline.setup[0]: invalid setup step: expected { "run": … } or { "uses": …, "with"?: … }',
      ],
    },
    {
      name: "the $schema key",
      text: topSpec('  "$schema": "./waves.schema.json",'),
      want: [],
    },
  ]);
});

Deno.test("specSchema checks the tool shorthand", async (t) => {
  const toolSpec = (tool: string) =>
    lines(
      "{",
      '  "name": "tf",',
      `  "tool": ${tool},`,
      '  "waves": [{ "name": "dev", "runs": ["a"] }]',
      "}",
    );
  await runProblemCases(t, [
    {
      name: "kind, dir, an unknown field and a mistyped argument",
      text: toolSpec('{ "kind": "pulumi", "directory": "x", "args": [1] }'),
      want: [
        'w.jsonc:3:11: tool: missing field "dir"',
        'w.jsonc:3:21: tool.kind: invalid value "pulumi": expected "opentofu", "terraform" or "sqitch"',
        'w.jsonc:3:31: tool: unknown field "directory"',
        "w.jsonc:3:58: tool.args[0]: expected a string, got 1",
      ],
    },
    {
      name: "an empty dir and binary",
      text: toolSpec('{ "kind": "opentofu", "dir": "", "binary": "" }'),
      want: [
        "w.jsonc:3:40: tool.dir: a directory must not be empty",
        "w.jsonc:3:54: tool.binary: a program must not be empty",
      ],
    },
  ]);
});

Deno.test("specSchema checks approval, signers and approvers (SPEC.md §12, §12.1)", async (t) => {
  await runProblemCases(t, [
    {
      name: "a valid set at the top level and on a wave",
      text: lines(
        "{",
        '  "name": "demo",',
        '  "approval": "sealed", "signers": "ops/allowed_signers",',
        '  "approvers": { "required": 2, "allowed": ["*@platform.example"], "selfApproval": false },',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"], "approval": "ledger", "approvers": { "required": 1 } }]',
        "}",
      ),
      want: [],
    },
    {
      name: "an unknown mode, with a suggestion",
      text: topSpec('  "approval": "seal",'),
      want: [
        'w.jsonc:3:15: approval: invalid value "seal": expected "ledger", "forge", "sealed" or "pr-review"',
      ],
    },
    {
      name: "a wave's mode",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "approval": "review" }',
      ),
      want: [
        'w.jsonc:6:49: wave 1 "dev" approval: invalid value "review": expected "ledger", "forge", "sealed" or "pr-review"',
      ],
    },
    {
      name: "an unknown approvers field, with a suggestion",
      text: topSpec('  "approvers": { "require": 2 },'),
      want: [
        'w.jsonc:3:18: approvers: unknown field "require"; did you mean "required"?',
      ],
    },
    {
      name: "signers is not a field of a wave",
      text: wavesSpec(
        '    { "name": "dev", "runs": ["a"], "signers": "x" }',
      ),
      want: [
        'w.jsonc:6:37: wave 1 "dev": unknown field "signers"',
      ],
    },
    {
      name: "required below 1, above 100, not whole",
      text: lines(
        "{",
        '  "name": "demo",',
        '  "approvers": { "required": 0 },',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [',
        '    { "name": "dev", "runs": ["a"], "approvers": { "required": 101 } },',
        '    { "name": "prod", "runs": ["b"], "approvers": { "required": 1.5 } }',
        "  ]",
        "}",
      ),
      want: [
        "w.jsonc:3:30: approvers.required: must be at least 1, got 0",
        'w.jsonc:6:64: wave 1 "dev" approvers.required: must be at most 100, got 101',
        'w.jsonc:7:65: wave 2 "prod" approvers.required: expected a whole number, got 1.5',
      ],
    },
    {
      name: "allowed empty, with an empty pattern and white space",
      text: lines(
        "{",
        '  "name": "demo",',
        '  "approvers": { "allowed": [] },',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"], "approvers": { "allowed": ["", "ann @x"], "selfApproval": "no" } }]',
        "}",
      ),
      want: [
        "w.jsonc:3:29: approvers.allowed: allowed must name at least one principal pattern",
        'w.jsonc:5:72: wave 1 "dev" approvers.allowed[0]: a principal pattern must not be empty',
        'w.jsonc:5:76: wave 1 "dev" approvers.allowed[1]: principal pattern "ann @x" holds white space or a control character',
        'w.jsonc:5:103: wave 1 "dev" approvers.selfApproval: expected true or false, got "no"',
      ],
    },
    {
      name: "signers outside the repository or not a path",
      text: topSpec(
        '  "signers": "../keys",',
      ),
      want: [
        'w.jsonc:3:14: signers: signers "../keys" must be a path from the repository\'s top level, with "/" between names and no ".", ".." or leading "/"',
      ],
    },
    {
      name: "an absolute signers path and an empty one",
      text: lines(
        "{",
        '  "name": "demo", "signers": "/etc/keys",',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"] }]',
        "}",
      ),
      want: [
        'w.jsonc:2:30: signers: signers "/etc/keys" must be a path from the repository\'s top level, with "/" between names and no ".", ".." or leading "/"',
      ],
    },
    {
      name: "an empty signers path",
      text: topSpec('  "signers": "",'),
      want: [
        `w.jsonc:3:14: signers: signers "" must be a path from the repository's top level, with "/" between names and no ".", ".." or leading "/"`,
      ],
    },
  ]);
});

Deno.test("specSchema checks destructiveOverrides at the top level and on a wave", async (t) => {
  await runProblemCases(t, [
    {
      name: "honour and ignore",
      text: lines(
        "{",
        '  "name": "demo", "destructiveOverrides": "honour",',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"], "destructiveOverrides": "ignore" }]',
        "}",
      ),
      want: [],
    },
    {
      name: "an unknown value",
      text: lines(
        "{",
        '  "name": "demo", "destructiveOverrides": "yes",',
        '  "plan": ["p", "{plan}"], "apply": ["a"],',
        '  "waves": [{ "name": "dev", "runs": ["a"], "destructiveOverrides": true }]',
        "}",
      ),
      want: [
        'w.jsonc:2:43: destructiveOverrides: invalid value "yes": expected "ignore" or "honour"',
        'w.jsonc:4:69: wave 1 "dev" destructiveOverrides: invalid value true: expected "ignore" or "honour"',
      ],
    },
  ]);
});

const EXAMPLE = new URL("../../examples/waves.jsonc", import.meta.url);
const TENANTS = new URL(
  "../../examples/tenants/waves.jsonc",
  import.meta.url,
);

function validator(): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile(specJsonSchema());
}

const MINIMAL = {
  name: "demo",
  plan: ["p", "{plan}"],
  apply: ["a"],
  waves: [{ name: "dev", runs: ["a", { target: "b", op: "x" }] }],
};

/** Every `properties` entry of a schema tree, with its path. */
function propertiesOf(
  node: unknown,
  path: string,
): { path: string; schema: Record<string, unknown> }[] {
  if (typeof node !== "object" || node === null) return [];
  if (Array.isArray(node)) {
    return node.flatMap((item, i) => propertiesOf(item, `${path}/${i}`));
  }
  const found: { path: string; schema: Record<string, unknown> }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const [name, schema] of Object.entries(value)) {
        found.push({
          path: `${path}/properties/${name}`,
          schema: schema as Record<string, unknown>,
        });
      }
    }
    found.push(...propertiesOf(value, `${path}/${key}`));
  }
  return found;
}

/** The errors ajv reports for a value, as `<instancePath> <message>`. */
function errorsOf(value: unknown): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(specJsonSchema());
  validate(value);
  return (validate.errors ?? []).map((error) =>
    `${error.instancePath} ${error.message}`
  );
}

Deno.test("specJsonSchema() matches the committed examples/waves.schema.json", async () => {
  // Regenerate with: deno run --allow-write scripts/write_schema.ts
  expect(await Deno.readTextFile(SCHEMA_FILE)).toBe(schemaFileText());
});

Deno.test("specJsonSchema() is draft 2020-12 and allows the $schema key", () => {
  const schema = specJsonSchema();
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(schema).toHaveProperty(["$defs", "Spec", "properties", "$schema"]);
  expect(schema).toHaveProperty([
    "$defs",
    "WrappedSpec",
    "properties",
    "$schema",
  ]);
  expect(schema).toHaveProperty(
    ["$defs", "Spec", "additionalProperties"],
    false,
  );
});

Deno.test("specJsonSchema() describes every field", () => {
  const fields = propertiesOf(specJsonSchema(), "#");
  expect(fields.length).toBeGreaterThan(60);
  const undescribed = fields
    .filter(({ schema }) =>
      typeof schema.description !== "string" || schema.description === ""
    )
    .map(({ path }) => path);
  expect(undescribed).toEqual([]);
});

Deno.test("specJsonSchema() picks the plain spec or the wrapper without a root anyOf", () => {
  const schema = specJsonSchema();
  expect(schema.anyOf).toBeUndefined();
  expect(schema.oneOf).toBeUndefined();
  expect(schema.then).toEqual({ $ref: "#/$defs/WrappedSpec" });
  expect(schema.else).toEqual({ $ref: "#/$defs/Spec" });
});

Deno.test("specJsonSchema() lets ajv report a mistyped field at its own path", async (t) => {
  await t.step("a wave's gate", () => {
    const errors = errorsOf({
      ...MINIMAL,
      waves: [{ name: "dev", runs: ["a"], gate: "sometimes" }],
    });
    expect(errors).toContain(
      "/waves/0/gate must be equal to one of the allowed values",
    );
    expect(errors.filter((error) => error.startsWith("/waves "))).toEqual([]);
    expect(errors.some((error) => /anyOf|oneOf/.test(error))).toBe(false);
  });
  await t.step("a top-level number", () => {
    const errors = errorsOf({ ...MINIMAL, parallel: "two" });
    expect(errors).toContain("/parallel must be integer");
    expect(errors).not.toContain("/waves must be object");
  });
  await t.step("an unknown key", () => {
    expect(errorsOf({ ...MINIMAL, share: 1 })).toContain(
      " must NOT have additional properties",
    );
  });
  await t.step("inside the compatibility wrapper", () => {
    const errors = errorsOf({ waves: { ...MINIMAL, parallel: "two" } });
    expect(errors).toContain("/waves/parallel must be integer");
    expect(errors).not.toContain("/waves must be array");
  });
});

Deno.test("specJsonSchema() validates spec files", async (t) => {
  const validate = validator();
  const minimal = MINIMAL;
  const cases: { name: string; value: unknown; valid: boolean }[] = [
    {
      name: "the bundled example",
      value: parse(await Deno.readTextFile(EXAMPLE)),
      valid: true,
    },
    {
      name: "examples/tenants/waves.jsonc (sqitch)",
      value: parse(await Deno.readTextFile(TENANTS)),
      valid: true,
    },
    { name: "a minimal spec", value: minimal, valid: true },
    {
      name: "the compatibility wrapper",
      value: {
        $schema: "./s.json",
        waves: minimal,
        options: { image: "alpine" },
      },
      valid: true,
    },
    {
      name: "every field",
      value: {
        ...minimal,
        op: "o",
        gate: "g",
        base: "HEAD~1",
        planWave: ["p", "{runs}"],
        applyWave: ["a", "{runs}"],
        parallel: 2,
        onFailure: "stop",
        timeout: "1h30m",
        heartbeat: 0,
        pendingTtl: "48h",
        branches: ["main"],
        runner: { group: "g", labels: ["l"] },
        notify: { webhook: "HOOK", key: "KEY" },
        pipeline: {
          image: "i",
          setup: [{ run: "x" }, { uses: "u", with: { a: 1 } }],
          variables: { A: "b" },
          install: "x",
        },
        waves: [{
          name: "w",
          runs: [],
          gate: "never",
          jobs: [{
            name: "j",
            runs: ["*"],
            shares: 2,
            runner: ["a"],
            environment: { name: "e" },
            idTokens: { T: "aud" },
          }],
          parallel: 1,
          onFailure: "continue",
          timeout: "5m",
          environment: { name: "e", url: "https://x" },
          variables: { A: "1" },
          runner: "r",
          idTokens: { T: "aud" },
          discover: true,
        }],
      },
      valid: true,
    },
    {
      name: "the tool shorthand",
      value: {
        name: "tf",
        tool: {
          kind: "opentofu",
          dir: "live/{target}",
          binary: "tofu",
          args: ["-lock-timeout=5m"],
        },
        waves: minimal.waves,
      },
      valid: true,
    },
    {
      name: "a tool of another kind",
      value: { ...minimal, tool: { kind: "pulumi", dir: "." } },
      valid: false,
    },
    {
      name: "a tool without a dir",
      value: { ...minimal, tool: { kind: "terraform" } },
      valid: false,
    },
    { name: "an unknown key", value: { ...minimal, share: 1 }, valid: false },
    { name: "a bad name", value: { ...minimal, name: "Demo" }, valid: false },
    {
      name: "a bad duration",
      value: { ...minimal, timeout: "5x" },
      valid: false,
    },
    {
      name: "a bad gate",
      value: { ...minimal, waves: [{ name: "d", runs: [], gate: "x" }] },
      valid: false,
    },
    {
      name: "a literal URL in notify",
      value: { ...minimal, notify: { webhook: "https://x" } },
      valid: false,
    },
    { name: "no waves", value: { ...minimal, waves: [] }, valid: false },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(validate(c.value)).toBe(c.valid));
  }
});
