// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import {
  policyAtBase,
  strictestPolicy,
} from "../../src/gate/policy_at_base.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";

/** A spec text at base with the given waves (JSON objects). */
function specAt(...waves: Record<string, unknown>[]): string {
  return JSON.stringify({
    name: "x",
    plan: ["p", "{plan}"],
    apply: ["a"],
    waves,
  });
}

function read(
  text: string | undefined,
  k: number,
  name: string,
  targets: string[],
) {
  const spec = baseSpecOf(text, "waves.jsonc", parseSpec);
  const { governing: _, reads: __, ...rest } = policyAtBase(
    { sha: SHA, spec },
    {
      k,
      name,
      targets,
    },
  );
  return rest;
}

const DEV = { name: "dev", gate: "never", runs: ["dev"] };
const STAGING = { name: "staging", gate: "on-destructive", runs: ["st-eu"] };
const PROD = { name: "prod", gate: "always", runs: ["prod-eu", "prod-us"] };

Deno.test("policyAtBase() decides every row of the §4.4 table", async (t) => {
  await t.step("governing waves found: the strictest of their gates", () => {
    expect(read(specAt(DEV, STAGING, PROD), 2, "staging", ["st-eu"])).toEqual({
      policy: "on-destructive",
      source: "base",
      reason: 'read at 0123456789ab: wave 2 "staging" by name and position',
    });
  });
  await t.step("a governing wave without gate counts as always", () => {
    expect(read(specAt({ name: "dev", runs: ["dev"] }), 1, "dev", ["dev"]))
      .toMatchObject({ policy: "always", source: "base" });
  });
  await t.step("none governs (a new wave with new targets)", () => {
    expect(read(specAt(DEV), 2, "canary", ["c-1"])).toEqual({
      policy: "always",
      source: "absent-at-base",
      reason: 'no wave at 0123456789ab governs wave 2 "canary"',
    });
  });
  await t.step("the spec is absent at base", () => {
    expect(read(undefined, 1, "dev", ["dev"])).toEqual({
      policy: "always",
      source: "absent-at-base",
      reason: "the spec is not in 0123456789ab",
    });
  });
  await t.step("no version of the spec at or before the base parses", () => {
    expect(read('{ "name": "x", "waves": [ }', 1, "dev", ["dev"])).toEqual({
      policy: "always",
      source: "absent-at-base",
      reason: "no version of the spec at or before 0123456789ab parses",
    });
  });
  await t.step(
    "a spec that fails validation at base counts as unparsable",
    () => {
      const got = read(
        specAt({ name: "dev", gate: "sometimes", runs: ["dev"] }),
        1,
        "dev",
        ["dev"],
      );
      expect(got.policy).toBe("always");
      expect(got.reason).toBe(
        "no version of the spec at or before 0123456789ab parses",
      );
    },
  );
});

Deno.test("policyAtBase() cannot be loosened by the change's names or targets", async (t) => {
  const base = specAt(DEV, STAGING, PROD);
  await t.step(
    "renaming staging to dev: staging still governs by position",
    () => {
      expect(read(base, 2, "dev", ["st-eu"])).toEqual({
        policy: "on-destructive",
        source: "base",
        reason:
          'read at 0123456789ab: wave 1 "dev" by name; wave 2 "staging" by position',
      });
    },
  );
  await t.step("swapping the names of dev and prod", () => {
    expect(read(base, 1, "prod", ["dev"]).policy).toBe("always");
    expect(read(base, 3, "dev", ["prod-eu", "prod-us"]).policy).toBe("always");
  });
  await t.step("moving a prod target into the dev wave", () => {
    expect(read(base, 1, "dev", ["dev", "prod-eu"])).toEqual({
      policy: "always",
      source: "base",
      reason:
        'read at 0123456789ab: wave 1 "dev" by name and position; wave 3 "prod" by target prod-eu',
    });
  });
});

Deno.test("strictestPolicy() orders always > on-destructive > never", () => {
  expect(strictestPolicy(["never"])).toBe("never");
  expect(strictestPolicy(["never", "on-destructive"])).toBe("on-destructive");
  expect(strictestPolicy(["on-destructive", "always", "never"])).toBe("always");
});
