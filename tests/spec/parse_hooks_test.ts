// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseHooks } from "../../src/spec/parse_hooks.ts";
import { JsonReader } from "../../src/input/json_reader.ts";

/** A decision record's `hooks` value, as the decision's reader hands it over. */
const at = (value: unknown) => new JsonReader(value, {}, ["hooks"]);

Deno.test("parseHooks() reads a decision record's hooks", async (t) => {
  await t.step("none: every point empty", () => {
    expect(parseHooks()).toEqual({
      "before-plan": [],
      "after-plan": [],
      "before-apply": [],
      "after-apply": [],
    });
  });
  await t.step("commands and holds; unknown points are ignored", () => {
    const hooks = parseHooks(at({
      "before-plan": [{ name: "init", run: ["init", "{k}"] }],
      "before-apply": [{ name: "h", after: { name: "i", gate: "i-wave-1" } }],
      "later": [{ name: "x", run: ["x"] }],
    }));
    expect(hooks["before-plan"]).toEqual([{
      name: "init",
      run: ["init", "{k}"],
    }]);
    expect(hooks["before-apply"]).toEqual([
      { name: "h", after: { name: "i", gate: "i-wave-1", applied: false } },
    ]);
  });
  const bad: [string, unknown, string][] = [
    ["not an object", 3, '"hooks" is not an object: 3'],
    [
      "a point not a list",
      { "after-plan": {} },
      '"hooks.after-plan" is not a list: {}',
    ],
    [
      "a hook with neither",
      { "after-plan": [{ name: "x" }] },
      '"hooks.after-plan[0]" has neither "run" nor "after"',
    ],
    [
      "a command that is not strings",
      { "after-plan": [{ name: "x", run: [1] }] },
      '"hooks.after-plan[0]" has neither "run" nor "after"',
    ],
    [
      "a name with a control character",
      { "after-plan": [{ name: "x\u001b", run: ["a"] }] },
      '"hooks.after-plan[0].name" holds a control character',
    ],
    [
      "a hold without a gate",
      { "after-plan": [{ name: "x", after: { name: "i" } }] },
      '"hooks.after-plan[0].after" has no "gate"',
    ],
    [
      "a hold at after-apply",
      { "after-apply": [{ name: "x", after: { name: "i", gate: "g" } }] },
      '"hooks.after-apply" holds a hold, which would hold nothing back',
    ],
  ];
  for (const [name, value, message] of bad) {
    await t.step(`refuses ${name}`, () => {
      expect(() => parseHooks(at(value))).toThrow(message);
    });
  }
});
