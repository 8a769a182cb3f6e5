// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { recordedHooksProblem } from "../../src/hooks/check_recorded_hooks.ts";
import type { Hooks } from "../../src/spec/types.ts";

const NONE: Hooks = {
  "before-plan": [],
  "after-plan": [],
  "before-apply": [],
  "after-apply": [],
};
const HOLD = {
  name: "h",
  after: { name: "i", gate: "i-wave-1", applied: false },
};
const INIT = { name: "init", run: ["init", "{k}"] };

Deno.test("recordedHooksProblem() trusts a record only as far as the job's own view", async (t) => {
  const expected: Hooks = {
    ...NONE,
    "before-plan": [INIT],
    "before-apply": [HOLD],
  };
  const cases: [string, Hooks, string | undefined][] = [
    ["the same hooks", expected, undefined],
    [
      "one more hold is only stricter",
      {
        ...expected,
        "after-plan": [{ ...HOLD, after: { ...HOLD.after, applied: true } }],
      },
      undefined,
    ],
    [
      "the hold renamed is the same hold",
      { ...expected, "before-apply": [{ ...HOLD, name: "other" }] },
      undefined,
    ],
    [
      "a dropped hold",
      { ...expected, "before-apply": [] },
      'it lacks the hold "h" (i / i-wave-1) at "before-apply"',
    ],
    [
      "a hold moved later",
      { ...expected, "before-apply": [], "after-apply": [HOLD] },
      'it lacks the hold "h" (i / i-wave-1) at "before-apply"',
    ],
    [
      "an added command",
      { ...expected, "after-apply": [{ name: "x", run: ["curl", "evil"] }] },
      'its "after-apply" commands are not the spec\'s',
    ],
    [
      "a changed argument",
      { ...expected, "before-plan": [{ ...INIT, run: ["init", "{op}"] }] },
      'its "before-plan" commands are not the spec\'s',
    ],
    [
      "a dropped command",
      { ...expected, "before-plan": [] },
      'its "before-plan" commands are not the spec\'s',
    ],
  ];
  for (const [name, recorded, want] of cases) {
    await t.step(name, () => {
      expect(recordedHooksProblem(recorded, expected)).toBe(want);
    });
  }
});
