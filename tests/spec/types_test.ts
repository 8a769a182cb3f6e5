// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { waveAt } from "../../src/spec/types.ts";

function specWith(rest: boolean) {
  return parseSpec(
    JSON.stringify({
      name: "demo",
      plan: ["p", "{plan}"],
      apply: ["a"],
      waves: [
        { name: "dev", runs: ["d"] },
        { name: "tenants", runs: ["t"], rest },
      ],
    }),
    "w.json",
  );
}

Deno.test("waveAt() finds wave k, rest waves included", async (t) => {
  await t.step("the spec's own waves", () => {
    const spec = specWith(false);
    expect(waveAt(spec, 1)?.name).toBe("dev");
    expect(waveAt(spec, 2)?.name).toBe("tenants");
  });
  await t.step("past them, nothing without a rest wave", () => {
    expect(waveAt(specWith(false), 3)).toBeUndefined();
  });
  await t.step("past them, the rest wave again as wave k", () => {
    const spec = specWith(true);
    const wave = waveAt(spec, 7);
    expect([wave?.k, wave?.name, wave?.runs]).toEqual([7, "tenants", [{
      target: "t",
      op: "demo",
    }]]);
    expect(spec.waves[1].k).toBe(2);
  });
  await t.step("no wave 0, no fractions", () => {
    expect(waveAt(specWith(true), 0)).toBeUndefined();
    expect(waveAt(specWith(true), 2.5)).toBeUndefined();
  });
});
