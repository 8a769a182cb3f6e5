// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  checkPlanMechanism,
  mechanismOf,
} from "../../src/run/plan_mechanism.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { InputError } from "../../src/errors.ts";

const SHA = "0123456789ab".padEnd(40, "0");

function specOf(how: Record<string, unknown>) {
  return parseSpec(
    JSON.stringify({ name: "x", ...how, waves: [{ name: "a", runs: ["t"] }] }),
    "w.json",
  );
}

const OWN = { plan: ["p", "{plan}"], apply: ["a"] };
const TOFU = { tool: { kind: "opentofu", dir: "live/{target}" } };

Deno.test("mechanismOf() names how a spec plans", () => {
  expect(mechanismOf(specOf(OWN).plan)).toBe("its own commands");
  expect(mechanismOf(specOf(TOFU).plan)).toBe(
    'the opentofu tool (program "tofu")',
  );
});

Deno.test("checkPlanMechanism() holds the working copy to every version at base", () => {
  const bases = (how: Record<string, unknown>) => [
    { sha: SHA, spec: { status: "parsed" as const, spec: specOf(how) } },
  ];
  expect(() => checkPlanMechanism(specOf(OWN).plan, "w.json", bases(OWN)))
    .not.toThrow();
  expect(() =>
    checkPlanMechanism(specOf(OWN).plan, "w.json", [
      { sha: SHA, spec: { status: "absent" } },
    ])
  ).not.toThrow();
  expect(() => checkPlanMechanism(specOf(OWN).plan, "w.json", bases(TOFU)))
    .toThrow(InputError);
});
