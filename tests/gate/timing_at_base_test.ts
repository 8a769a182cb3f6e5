// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { timingAtBase } from "../../src/gate/timing_at_base.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);

/** A base holding the given top-level fields and waves. */
function baseAt(
  sha: string,
  top: Record<string, unknown>,
  ...waves: Record<string, unknown>[]
) {
  const text = JSON.stringify({
    name: "x",
    plan: ["p", "{plan}"],
    apply: ["a"],
    ...top,
    waves,
  });
  return { sha, spec: baseSpecOf(text, "waves.jsonc", parseSpec) };
}

const PROD = { k: 2, name: "prod", targets: ["eu"] };
const FRIDAY = { days: ["fri"], hours: "16:00-24:00" };
const HOLIDAYS = { from: "2026-12-24", to: "2026-12-27" };

Deno.test("timingAtBase() reads soak, freeze and canary at base, the strictest winning", async (t) => {
  await t.step("the governing wave's own, over the top level's", () => {
    const base = baseAt(
      A,
      { soak: "2h", canary: 3, freeze: [FRIDAY] },
      { name: "dev", runs: ["d"] },
      { name: "prod", runs: ["eu"], soak: "30m", freeze: [HOLIDAYS] },
    );
    const timing = timingAtBase([base], PROD);
    expect(timing.soakMs).toBe(1_800_000);
    expect(timing.soakFrom).toBe(`at ${A.slice(0, 12)}, wave 2 "prod"`);
    expect(timing.canary).toBe(3);
    expect(timing.freeze.map((w) => w.kind)).toEqual(["dated", "weekly"]);
  });

  await t.step(
    "a change renaming its wave or moving its targets is still governed",
    () => {
      const base = baseAt(
        A,
        {},
        { name: "dev", runs: ["d"] },
        { name: "prod", runs: ["eu"], soak: "2h", canary: 1, freeze: [FRIDAY] },
      );
      const renamed = timingAtBase([base], {
        k: 5,
        name: "p2",
        targets: ["eu"],
      });
      expect(renamed.soakMs).toBe(7_200_000);
      expect(renamed.canary).toBe(1);
      expect(renamed.freeze).toHaveLength(1);
    },
  );

  await t.step(
    "the longest soak, the smallest canary, every window over every base",
    () => {
      const older = baseAt(
        A,
        {},
        { name: "dev", runs: ["d"] },
        { name: "prod", runs: ["eu"], soak: "4h", canary: 5, freeze: [FRIDAY] },
      );
      const newer = baseAt(
        B,
        {},
        { name: "dev", runs: ["d"] },
        { name: "prod", runs: ["eu"], soak: "1h", canary: 2, freeze: [FRIDAY] },
      );
      const timing = timingAtBase([newer, older], PROD);
      expect(timing.soakMs).toBe(4 * 3_600_000);
      expect(timing.soakFrom).toBe(`at ${A.slice(0, 12)}, wave 2 "prod"`);
      expect(timing.canary).toBe(2);
      expect(timing.canaryFrom).toBe(`at ${B.slice(0, 12)}, wave 2 "prod"`);
      expect(timing.freeze).toHaveLength(1);
    },
  );

  await t.step("a wave no base wave governs: the top level's at base", () => {
    const base = baseAt(
      A,
      { soak: "45m", freeze: [FRIDAY] },
      { name: "dev", runs: ["d"] },
    );
    const timing = timingAtBase([base], { k: 3, name: "new", targets: ["x"] });
    expect(timing.soakMs).toBe(2_700_000);
    expect(timing.soakFrom).toBe(`at ${A.slice(0, 12)}, the top level`);
    expect(timing.freeze).toHaveLength(1);
    expect(timing.canary).toBeUndefined();
  });

  await t.step("no spec at base, or none that parses: no timing", () => {
    const absent = { sha: A, spec: baseSpecOf(undefined, "w", parseSpec) };
    const broken = { sha: B, spec: baseSpecOf("{", "w", parseSpec) };
    expect(timingAtBase([absent, broken], PROD)).toEqual({
      soakMs: 0,
      freeze: [],
      order: [],
    });
  });
});
