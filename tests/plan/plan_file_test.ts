// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parsePlanFile, parsePlansFile } from "../../src/plan/plan_file.ts";

const D = `sha256:${"a".repeat(64)}`;

Deno.test("parsePlansFile() reads the runs and the waves a plan found", async (t) => {
  await t.step("runs, and no waves", () => {
    expect(
      parsePlansFile(`{ "runs": [{ "target": "a", "planDigest": "${D}" }] }`),
    )
      .toEqual({
        runs: [{
          target: "a",
          planDigest: D,
          destructive: false,
          empty: false,
        }],
      });
  });
  await t.step('"waves": N', () => {
    expect(parsePlansFile('{ "runs": [], "waves": 3 }')).toEqual({
      runs: [],
      waves: 3,
    });
  });
  for (const bad of ["0", "1.5", '"3"', "10001", "-1"]) {
    await t.step(`refuses "waves": ${bad}`, () => {
      expect(() => parsePlansFile(`{ "runs": [], "waves": ${bad} }`)).toThrow(
        `"waves" is not a whole number from 1 to 10000: ${bad}`,
      );
    });
  }
  await t.step("still refuses a file without runs", () => {
    expect(() => parsePlansFile('{ "waves": 2 }')).toThrow(
      'has no "runs"',
    );
  });
});

Deno.test('parsePlanFile() reads "changes": what the plan changes, for the approver', async (t) => {
  const plan = (changes: string) =>
    `{ "planDigest": "${D}", "changes": ${changes} }`;
  await t.step("each entry's address and action, in order", () => {
    expect(
      parsePlanFile(
        plan(
          '[{ "address": "aws_instance.web", "action": "update", "extra": 1 }, { "address": "add_users", "action": "deploy" }]',
        ),
      ),
    ).toEqual({
      planDigest: D,
      destructive: false,
      empty: false,
      changes: [
        { address: "aws_instance.web", action: "update" },
        { address: "add_users", action: "deploy" },
      ],
    });
  });
  await t.step("the statements a change quotes, bounded", () => {
    const long = "x".repeat(500);
    const statements = [...Array(20)].map((_, i) => i === 0 ? long : `s${i}`);
    const [change] = parsePlanFile(
      plan(
        JSON.stringify([{ address: "drop_old", action: "deploy", statements }]),
      ),
    ).changes!;
    expect(change.statements!.length).toBe(20);
    expect(change.statements![0]).toBe("x".repeat(400));
    expect(change.statements![1]).toBe("s1");
  });
  await t.step("no statements, or an empty list: none kept", () => {
    const [change] = parsePlanFile(
      plan('[{ "address": "a", "action": "deploy", "statements": [] }]'),
    ).changes!;
    expect(change).toEqual({ address: "a", action: "deploy" });
  });
  await t.step("no changes field, no changes", () => {
    expect(parsePlanFile(`{ "planDigest": "${D}" }`).changes).toBe(undefined);
  });
  const bad: { name: string; changes: string; message: string }[] = [
    {
      name: "not a list",
      changes: '"x"',
      message: '"changes" is not a list: "x"',
    },
    {
      name: "an entry that is not an object",
      changes: "[1]",
      message: '"changes[0]" is not an object: 1',
    },
    {
      name: "no address",
      changes: '[{ "action": "create" }]',
      message: '"changes[0]" has no "address"',
    },
    {
      name: "an empty address",
      changes: '[{ "address": "", "action": "create" }]',
      message: '"changes[0].address" is empty',
    },
    {
      name: "an address too long",
      changes: `[{ "address": "${"a".repeat(1025)}", "action": "create" }]`,
      message: '"changes[0].address" is longer than 1024 characters',
    },
    {
      name: "an action that is not a word",
      changes: '[{ "address": "a", "action": "Delete!" }]',
      message:
        '"changes[0].action" is not a lowercase word of at most 32 characters: "Delete!"',
    },
    {
      name: "an action with a control character",
      changes: '[{ "address": "a", "action": "create\\u001b" }]',
      message:
        '"changes[0].action" is not a lowercase word of at most 32 characters: "create\\u001b"',
    },
    {
      name: "statements that are not strings",
      changes: '[{ "address": "a", "action": "deploy", "statements": [1] }]',
      message: '"changes[0].statements[0]" is not a string: 1',
    },
    {
      name: "more than 20 statements",
      changes: JSON.stringify([{
        address: "a",
        action: "deploy",
        statements: [...Array(21)].map(() => "s"),
      }]),
      message: '"changes[0].statements" has 21 entries; at most 20',
    },
    {
      name: "too many",
      changes: JSON.stringify(
        Array.from(
          { length: 10_001 },
          () => ({ address: "a", action: "read" }),
        ),
      ),
      message: '"changes" has 10001 entries; at most 10000',
    },
  ];
  for (const c of bad) {
    await t.step(`refuses ${c.name}`, () => {
      expect(() => parsePlanFile(plan(c.changes))).toThrow(c.message);
    });
  }
});
