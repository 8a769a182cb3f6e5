// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import {
  needsApproval,
  type PlannedMember,
  policyAtBase,
  strictestPolicy,
  wavePolicy,
  wavePolicyLines,
} from "../../src/gate/policy_at_base.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type { GatePolicy } from "../../src/spec/types.ts";

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

Deno.test("needsApproval() follows the §4.4 rules", async (t) => {
  const plain: PlannedMember = { target: "a" };
  const destroys: PlannedMember = { target: "b", destructive: true };
  const empty: PlannedMember = { target: "c", empty: true };
  const cases: {
    name: string;
    policy: GatePolicy;
    members: PlannedMember[];
    want: { needed: boolean; why: string };
  }[] = [
    {
      name: "always needs one",
      policy: "always",
      members: [plain],
      want: { needed: true, why: 'the policy is "always"' },
    },
    {
      name: "always, some members empty",
      policy: "always",
      members: [plain, empty],
      want: { needed: true, why: 'the policy is "always"' },
    },
    {
      name: "on-destructive with a destructive member",
      policy: "on-destructive",
      members: [plain, destroys],
      want: {
        needed: true,
        why: 'the policy is "on-destructive" and 1 member is destructive: "b"',
      },
    },
    {
      name: "on-destructive names at most three targets",
      policy: "on-destructive",
      members: ["p", "q", "r", "s", "t"].map((target) => ({
        target,
        destructive: true,
      })),
      want: {
        needed: true,
        why:
          'the policy is "on-destructive" and 5 members are destructive: "p", "q", "r", and 2 more',
      },
    },
    {
      name: "on-destructive without targets",
      policy: "on-destructive",
      members: [{ destructive: true }, { destructive: true }],
      want: {
        needed: true,
        why: 'the policy is "on-destructive" and 2 members are destructive',
      },
    },
    {
      name: "on-destructive, nothing destructive",
      policy: "on-destructive",
      members: [plain, empty],
      want: {
        needed: false,
        why: 'the policy is "on-destructive" and no member is destructive',
      },
    },
    {
      name: "never needs none",
      policy: "never",
      members: [destroys],
      want: { needed: false, why: 'the policy is "never"' },
    },
    {
      name: "every member empty needs none, even under always",
      policy: "always",
      members: [empty, { empty: true }],
      want: { needed: false, why: "every member's plan is empty" },
    },
    {
      name: "a wave with no members needs none and says so",
      policy: "always",
      members: [],
      want: {
        needed: false,
        why: "the wave has no members, so it needs no approval",
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(needsApproval(c.policy, c.members)).toEqual(c.want);
    });
  }
});

const A = "a".repeat(40);
const B = "b".repeat(40);

/** A base holding the given waves (JSON objects). */
function baseAt(sha: string, ...waves: Record<string, unknown>[]) {
  const text = JSON.stringify({
    name: "x",
    plan: ["p", "{plan}"],
    apply: ["a"],
    waves,
  });
  return { sha, spec: baseSpecOf(text, "waves.jsonc", parseSpec) };
}

const WAVE = { k: 1, name: "prod" };

Deno.test("wavePolicy() takes the strictest policy over every base", async (t) => {
  await t.step("one base: its policy as policyAtBase reads it", () => {
    const policy = wavePolicy(
      [baseAt(A, { name: "prod", gate: "never", runs: ["eu"] })],
      WAVE,
      ["eu"],
    );
    expect(policy.policy).toBe("never");
    expect(policy.reason).toBe(
      'read at aaaaaaaaaaaa: wave 1 "prod" by name and position',
    );
  });
  await t.step(
    "two bases: the strictest wins, what governed named once",
    () => {
      const policy = wavePolicy(
        [
          baseAt(A, { name: "prod", gate: "never", runs: ["eu"] }),
          baseAt(B, { name: "prod", gate: "on-destructive", runs: ["eu"] }),
        ],
        WAVE,
        ["eu", "eu"],
      );
      expect(policy.policy).toBe("on-destructive");
      expect(policy.source).toBe("base");
      expect(policy.reason).toBe(
        'read at aaaaaaaaaaaa and bbbbbbbbbbbb: wave 1 "prod" by name and position',
      );
      expect(policy.governing).toHaveLength(2);
    },
  );
  await t.step("two bases read differently: each named", () => {
    const policy = wavePolicy(
      [
        baseAt(A, { name: "prod", gate: "never", runs: ["eu"] }),
        baseAt(B, { name: "live", gate: "always", runs: ["eu"] }),
      ],
      WAVE,
      ["eu"],
    );
    expect(policy.reason).toBe(
      'read at aaaaaaaaaaaa: wave 1 "prod" by name and position; and ' +
        'read at bbbbbbbbbbbb: wave 1 "live" by position',
    );
  });
  await t.step("one version at two commits: its blob named once", () => {
    const text = baseAt(A, { name: "prod", gate: "never", runs: ["eu"] });
    const at = (sha: string) => ({
      ...text,
      sha,
      file: "waves.jsonc",
      blob: "c".repeat(40),
    });
    expect(wavePolicy([at(A), at(B)], WAVE, ["eu"]).reason).toBe(
      "read at aaaaaaaaaaaa and bbbbbbbbbbbb in waves.jsonc, blob cccccccccccc: " +
        'wave 1 "prod" by name and position',
    );
  });
  await t.step("a base without the spec counts as always", () => {
    const policy = wavePolicy(
      [
        baseAt(A, { name: "prod", gate: "never", runs: ["eu"] }),
        { sha: B, spec: { status: "absent" as const } },
      ],
      WAVE,
      ["eu"],
    );
    expect(policy.policy).toBe("always");
    expect(policy.source).toBe("base");
  });
});

Deno.test("wavePolicyLines() says the policy, and when the change's gate differs", async (t) => {
  const policy = { policy: "always" as const, reason: "read at 1a2b" };
  await t.step("the same gate: one line", () => {
    expect(wavePolicyLines(policy, { ...WAVE, gate: "always" })).toEqual([
      'policy of wave 1 "prod": always (read at 1a2b)',
    ]);
  });
  await t.step(
    "another gate in the change: a note that it holds once merged",
    () => {
      expect(wavePolicyLines(policy, { ...WAVE, gate: "never" })).toEqual([
        'policy of wave 1 "prod": always (read at 1a2b)',
        'note: this change says gate "never" for wave 1 "prod"; the gate is read at base, so "always" holds for this change, and "never" for a change based on it',
      ]);
    },
  );
});
