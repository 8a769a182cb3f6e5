// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { wavePolicy, wavePolicyLines } from "../../src/gate/policy_at_base.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

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
