// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { policyAtBase } from "../../src/policy/policy_at_base.ts";
import { invalidMessage, standInParse } from "./_stand_in_parse.ts";

const BASE = "0123456789abcdef0123456789abcdef01234567";
const FILE = "waves.jsonc";

const spec = (waves: string) =>
  `{\n  // at base\n  "name": "x",\n  "waves": [${waves}],\n}\n`;

Deno.test("policyAtBase() decides every row of the §4.4 table", async (t) => {
  const cases = [
    {
      name: "wave found with gate never",
      text: spec('{ "name": "dev" }, { "name": "prod", "gate": "never" }'),
      want: { policy: "never", source: "base", reason: "read at 0123456789ab" },
    },
    {
      name: "wave found with gate on-destructive",
      text: spec('{ "name": "prod", "gate": "on-destructive" }'),
      want: {
        policy: "on-destructive",
        source: "base",
        reason: "read at 0123456789ab",
      },
    },
    {
      name: "wave found with gate always",
      text: spec('{ "name": "prod", "gate": "always" }'),
      want: {
        policy: "always",
        source: "base",
        reason: "read at 0123456789ab",
      },
    },
    {
      name: "wave found without gate",
      text: spec('{ "name": "dev", "gate": "never" }, { "name": "prod" }'),
      want: {
        policy: "always",
        source: "base",
        reason: 'read at 0123456789ab; wave "prod" sets no gate',
      },
    },
    {
      name: "no such wave (new or renamed)",
      text: spec('{ "name": "production", "gate": "never" }'),
      want: {
        policy: "always",
        source: "absent-at-base",
        reason: 'wave "prod" is not in the spec at 0123456789ab',
      },
    },
    {
      name: "file absent at base",
      text: undefined,
      want: {
        policy: "always",
        source: "absent-at-base",
        reason: "the spec is not in 0123456789ab",
      },
    },
    {
      name: "file unparsable at base (JSONC syntax)",
      text: '{ "waves": [',
      want: {
        policy: "always",
        source: "absent-at-base",
        reason:
          "the spec at 0123456789ab does not parse: Cannot parse JSONC: unexpected end of JSONC input",
      },
    },
    {
      name: "file parsable but invalid at base: the first problem",
      text: spec('{ "name": "prod", "gate": "never", "INVALID": 1 }'),
      want: {
        policy: "always",
        source: "absent-at-base",
        reason: `the spec at 0123456789ab does not parse: ${
          invalidMessage(FILE).split("\n")[0]
        }`,
      },
    },
    {
      name: "an unknown gate value the parser let through",
      text: spec('{ "name": "prod", "gate": "sometimes" }'),
      want: {
        policy: "always",
        source: "absent-at-base",
        reason:
          'the spec at 0123456789ab does not parse: wave "prod": gate "sometimes" is not one of "always", "on-destructive", "never"',
      },
    },
    {
      name: "compatibility wrapper, wave with gate",
      text:
        '{ "waves": { "name": "x", "waves": [{ "name": "prod", "gate": "never" }] }, "options": {} }',
      want: { policy: "never", source: "base", reason: "read at 0123456789ab" },
    },
    {
      name: "compatibility wrapper, wave without gate",
      text:
        '{ "waves": { "name": "x", "waves": [{ "name": "prod" }] }, "options": { "gate": "never" } }',
      want: {
        policy: "always",
        source: "base",
        reason: 'read at 0123456789ab; wave "prod" sets no gate',
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = policyAtBase({
        text: c.text,
        file: FILE,
        parse: standInParse,
        waveName: "prod",
        base: BASE,
      });
      expect(got).toEqual(c.want);
    });
  }
});

Deno.test("policyAtBase() quotes a parser that throws a non-Error", () => {
  const got = policyAtBase({
    text: "{}",
    file: FILE,
    parse: () => {
      throw "boom";
    },
    waveName: "prod",
    base: BASE,
  });
  expect(got.reason).toBe("the spec at 0123456789ab does not parse: boom");
});

Deno.test("policyAtBase() trusts the parser's gate when the raw wave is not found", () => {
  const got = policyAtBase({
    text: "{}",
    file: FILE,
    parse: () => ({ waves: [{ name: "prod", gate: "never" }] }),
    waveName: "prod",
    base: BASE,
  });
  expect(got).toEqual({
    policy: "never",
    source: "base",
    reason: "read at 0123456789ab",
  });
});
