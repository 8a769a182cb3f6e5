// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { runProblemCases, wavesSpec } from "./_helpers.ts";

const wave = (rules: string) =>
  wavesSpec(
    '    { "name": "dev", "runs": ["a"] },',
    `    { "name": "prod", "runs": ["b"], "rules": ${rules} }`,
  );

Deno.test("rulesSchema refuses malformed rules with located messages", async (t) => {
  await runProblemCases(t, [
    {
      name: "an unknown field of when",
      text: wave('[{ "when": { "adress": "a.*" }, "gate": "always" }]'),
      want: [
        'w.jsonc:7:60: wave 2 "prod" rules[0].when: unknown field "adress"; did you mean "address"?',
      ],
    },
    {
      name: "a rule with neither gate nor approvers",
      text: wave('[{ "when": { "type": "aws_iam_*" } }]'),
      want: [
        'w.jsonc:7:48: wave 2 "prod" rules[0]: a rule must set "gate" or "approvers"',
      ],
    },
    {
      name: "an only rule with a gate other than never",
      text: wave(
        '[{ "when": { "only": { "action": "update" } }, "gate": "always" }]',
      ),
      want: [
        'w.jsonc:7:48: wave 2 "prod" rules[0]: a rule under "only" loosens: it sets gate "never" and no approvers',
      ],
    },
    {
      name: "gate never on a rule that only tightens",
      text: wave('[{ "when": { "action": "update" }, "gate": "never" }]'),
      want: [
        'w.jsonc:7:48: wave 2 "prod" rules[0]: gate "never" loosens only under "when": { "only": … }; a rule on some change only tightens',
      ],
    },
    {
      name: "only beside other fields",
      text: wave(
        '[{ "when": { "type": "x", "only": { "action": "update" } }, "gate": "never" }]',
      ),
      want: [
        'w.jsonc:7:58: wave 2 "prod" rules[0].when: "only" stands alone: put "type" inside it',
      ],
    },
    {
      name: "an empty when",
      text: wave('[{ "when": {}, "gate": "always" }]'),
      want: [
        'w.jsonc:7:58: wave 2 "prod" rules[0].when: when must name at least one of "address", "type", "action" or "only"',
      ],
    },
    {
      name: "an unknown action",
      text: wave('[{ "when": { "action": "delet" }, "gate": "always" }]'),
      want: [
        'w.jsonc:7:70: wave 2 "prod" rules[0].when.action: invalid value "delet": expected "create", "update", "delete", "replace", "read", "forget", "move", "import", "invoke", "deploy" or "revert"; did you mean "delete"?',
      ],
    },
  ]);
});

Deno.test("parseSpec() reads rules apart: when and only", () => {
  const spec = parseSpec(
    wave(
      '[{ "when": { "type": "aws_iam_*" }, "approvers": { "required": 2 } }, ' +
        '{ "when": { "only": { "action": "update", "attributes": ["tags.**"] } }, "gate": "never" }]',
    ),
    "w.jsonc",
  );
  expect(spec.waves[0].rules).toEqual([]);
  expect(spec.waves[1].rules).toEqual([
    { kind: "when", match: { type: "aws_iam_*" }, approvers: { required: 2 } },
    {
      kind: "only",
      match: { action: "update", attributes: ["tags.**"] },
      gate: "never",
    },
  ]);
});
