// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { describeGoverning, governingWaves } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const BASE = parseSpec(
  JSON.stringify({
    name: "x",
    plan: ["p", "{plan}"],
    apply: ["a"],
    waves: [
      { name: "dev", gate: "never", runs: ["dev"] },
      { name: "staging", runs: ["st-1", "st-2", "st-3", "st-4", "st-5"] },
      { name: "prod", runs: ["eu"] },
    ],
  }),
  "waves.jsonc",
).waves;

Deno.test("governingWaves() finds waves by name, position and shared target", async (t) => {
  const cases = [
    {
      name: "same name and position",
      wave: { k: 1, name: "dev", targets: [] },
      want: 'wave 1 "dev" by name and position',
    },
    {
      name: "a renamed wave is governed by its position",
      wave: { k: 2, name: "qa", targets: [] },
      want: 'wave 2 "staging" by position',
    },
    {
      name: "a moved wave is governed by its name",
      wave: { k: 4, name: "prod", targets: [] },
      want: 'wave 3 "prod" by name',
    },
    {
      name: "targets are named, at most three",
      wave: { k: 9, name: "new", targets: ["st-5", "st-1", "st-3", "st-2"] },
      want: 'wave 2 "staging" by targets st-1, st-2, st-3 and 1 more',
    },
    {
      name: "a new wave with new targets has none",
      wave: { k: 9, name: "new", targets: ["other"] },
      want: "",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(describeGoverning(governingWaves(BASE, c.wave))).toBe(c.want);
    });
  }
});
