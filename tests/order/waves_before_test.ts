// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { wavesBefore } from "../../src/order/waves_before.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const SHA = "a".repeat(40);

function specOf(waves: Record<string, unknown>[]) {
  return parseSpec(
    JSON.stringify({ name: "x", plan: ["p", "{plan}"], apply: ["a"], waves }),
    "w.json",
  );
}

const DEV = { name: "dev", runs: ["d1"] };
const STAGING = { name: "staging", runs: ["s1"] };
const PROD = { name: "prod", runs: ["p1"] };
const BASES = [{
  sha: SHA,
  spec: { status: "parsed" as const, spec: specOf([DEV, STAGING, PROD]) },
}];

Deno.test("wavesBefore() waits for the wave before and what the base put ahead", async (t) => {
  const names = (found: ReturnType<typeof wavesBefore>) =>
    found.map((w) =>
      "gone" in w
        ? ["gone", w.gone.name, w.why]
        : "merged" in w
        ? ["merged", w.merged[0].name, w.merged[1].name, w.targets, w.why]
        : [w.wave.k, w.wave.name, w.why]
    );
  await t.step("unchanged order: only the wave before", () => {
    const head = specOf([DEV, STAGING, PROD]);
    expect(names(wavesBefore(head, 3, ["p1"], BASES))).toEqual([
      [2, "staging", ""],
    ]);
    expect(names(wavesBefore(head, 1, ["d1"], BASES))).toEqual([]);
  });
  await t.step("prod moved first: dev and staging, by name", () => {
    const head = specOf([PROD, DEV, STAGING]);
    expect(names(wavesBefore(head, 1, ["p1"], BASES))).toEqual([
      [2, "dev", `at aaaaaaaaaaaa, wave 1 "dev" came before wave 3 "prod"`],
      [
        3,
        "staging",
        `at aaaaaaaaaaaa, wave 2 "staging" came before wave 3 "prod"`,
      ],
    ]);
  });
  await t.step(
    "a wave holding runs of two base waves: merged, not ordered",
    () => {
      const devAndStaging = specOf([
        { name: "dev", runs: ["d1", "s1"] },
        PROD,
      ]);
      expect(names(wavesBefore(devAndStaging, 1, ["d1", "s1"], BASES)))
        .toEqual([["merged", "dev", "staging", ["s1"], "at aaaaaaaaaaaa"]]);
      const stagingAndProd = specOf([DEV, {
        name: "staging",
        runs: ["s1", "p1"],
      }]);
      expect(names(wavesBefore(stagingAndProd, 2, ["s1", "p1"], BASES)))
        .toEqual([
          [1, "dev", ""],
          ["merged", "staging", "prod", ["p1"], "at aaaaaaaaaaaa"],
        ]);
      const renamed = specOf([DEV, { name: "late", runs: ["s1", "p1"] }]);
      expect(names(wavesBefore(renamed, 2, ["s1", "p1"], BASES)).at(-1))
        .toEqual(["merged", "staging", "prod", ["p1"], "at aaaaaaaaaaaa"]);
    },
  );
  await t.step("a new first wave holding a prod target", () => {
    const head = specOf([{ name: "first", runs: ["p1"] }, DEV, STAGING]);
    expect(names(wavesBefore(head, 1, ["p1"], BASES)).map((w) => w[1]))
      .toEqual(["dev", "staging"]);
  });
  await t.step(
    "runs of the same names in every wave: no wave waits for a later one",
    () => {
      const same = [
        { name: "dev", runs: ["eu", "us"] },
        { name: "staging", runs: ["eu", "us"] },
        { name: "prod", runs: ["eu", "us"] },
      ];
      const head = specOf(same);
      const bases = [{
        sha: SHA,
        spec: { status: "parsed" as const, spec: specOf(same) },
      }];
      expect(names(wavesBefore(head, 1, ["eu", "us"], bases))).toEqual([]);
      expect(names(wavesBefore(head, 2, ["eu", "us"], bases))).toEqual([
        [1, "dev", ""],
      ]);
      expect(names(wavesBefore(head, 3, ["eu", "us"], bases))).toEqual([
        [2, "staging", ""],
      ]);
      // prod moved first still waits, by name
      const moved = specOf([same[2], same[0], same[1]]);
      expect(names(wavesBefore(moved, 1, ["eu", "us"], bases)).map((w) => w[1]))
        .toEqual(["dev", "staging"]);
    },
  );
  await t.step(
    "dev keeping its place but holding a prod target waits for staging, and holds runs of two waves",
    () => {
      const head = specOf([{ name: "dev", runs: ["d1", "p1"] }, STAGING, PROD]);
      expect(names(wavesBefore(head, 1, ["d1", "p1"], BASES))).toEqual([
        [
          2,
          "staging",
          `at aaaaaaaaaaaa, wave 2 "staging" came before wave 3 "prod"`,
        ],
        ["merged", "dev", "prod", ["p1"], "at aaaaaaaaaaaa"],
      ]);
    },
  );
  await t.step("every wave renamed and reordered: matched by target", () => {
    const head = specOf([
      { name: "x", runs: ["p1"] },
      { name: "y", runs: ["d1"] },
      { name: "z", runs: ["s1"] },
    ]);
    expect(names(wavesBefore(head, 1, ["p1"], BASES)).map((w) => w[1]))
      .toEqual(["y", "z"]);
  });
  await t.step(
    "the waves before prod removed: they are gone, and prod waits",
    () => {
      const head = specOf([PROD]);
      expect(names(wavesBefore(head, 1, ["p1"], BASES))).toEqual([
        [
          "gone",
          "dev",
          `at aaaaaaaaaaaa, wave 1 "dev" came before wave 3 "prod"`,
        ],
        [
          "gone",
          "staging",
          `at aaaaaaaaaaaa, wave 2 "staging" came before wave 3 "prod"`,
        ],
      ]);
    },
  );
  await t.step(
    "staging's target moved into the prod wave: staging is gone",
    () => {
      const head = specOf([DEV, { name: "prod", runs: ["s1", "p1"] }]);
      expect(names(wavesBefore(head, 2, ["s1", "p1"], BASES))).toEqual([
        [1, "dev", ""],
        [
          "gone",
          "staging",
          `at aaaaaaaaaaaa, wave 2 "staging" came before wave 3 "prod"`,
        ],
      ]);
    },
  );
  await t.step("a spec absent at base adds nothing", () => {
    const head = specOf([PROD, DEV]);
    expect(
      wavesBefore(head, 1, ["p1"], [{ sha: SHA, spec: { status: "absent" } }]),
    )
      .toEqual([]);
  });
});
