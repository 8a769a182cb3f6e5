// End to end through the binary, as an attacker would mount it: the order of
// waves and the holds are policy, read at base (SPEC.md §4.11, §11). Moving prod
// to position 1, or putting a prod target in a new first wave, never lets prod
// run before the waves the merged configuration put ahead of it; a new wave past
// the base's waves keeps the base's top-level hold.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { rollout, SPEC, specOf, TOOL } from "../_helpers/rollout.ts";

const DEV = { name: "dev", gate: "never", runs: ["d1"] };
const STAGING = { name: "staging", gate: "never", runs: ["s1"] };
const PROD = { name: "prod", gate: "never", runs: ["p1"] };
const ORDERED = specOf([DEV, STAGING, PROD], { order: "strict" });

const sha12 = (sha: string) => sha.slice(0, 12);

Deno.test("reordering the waves so prod is wave 1 still waits for dev and staging", async (t) => {
  await using r = await rollout(ORDERED, {
    headSpec: specOf([PROD, DEV, STAGING], { order: "strict" }),
  });
  const head12 = sha12(r.head);
  await t.step("prod, now wave 1, waits: nothing planned", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `wave 2 "dev" has not been applied at ${head12} (missing: the whole-wave job); the order is read at base: at ${
        sha12(r.base)
      }, wave 1 "dev" came before wave 3 "prod"; run it first\n`,
    );
    expect(out.stderr).toContain(
      `wave 3 "staging" has not been applied at ${head12} (missing: the whole-wave job); the order is read at base: at ${
        sha12(r.base)
      }, wave 2 "staging" came before wave 3 "prod"; run it first\n`,
    );
    expect(out.stderr).not.toContain("[plan]");
    expect(await r.applied()).toEqual([]);
  });
  await t.step("--out-of-order is the recorded way past it", async () => {
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "1",
      "--out-of-order",
      "hotfix INC-7",
    ]);
    expect(out.code).toBe(0);
    expect(await r.applied()).toEqual(["p1"]);
  });
});

Deno.test("a new first wave holding a prod target waits for what came before prod", async () => {
  await using r = await rollout(ORDERED, {
    headSpec: specOf([
      { name: "first", gate: "never", runs: ["p1"] },
      DEV,
      STAGING,
      { ...PROD, runs: ["p2"] },
    ], { order: "strict" }),
  });
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `wave 2 "dev" has not been applied at ${
      sha12(r.head)
    } (missing: the whole-wave job); the order is read at base`,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a new wave past the base's waves keeps the base's top-level hold", async () => {
  const hold = {
    name: "infra-ready",
    after: { name: "infra", gate: "infra-wave-1" },
  };
  const infra = JSON.stringify({
    name: "infra",
    plan: ["sh", TOOL, "plan", "{target}", "{plan}"],
    apply: ["sh", TOOL, "apply", "{target}", "{plan}"],
    heartbeat: "0",
    waves: [{ name: "net", runs: ["net-1"] }],
  });
  await using r = await rollout(
    specOf([DEV], { hooks: { "before-plan": [hold] } }),
    {
      files: { "infra.json": infra },
      headSpec: specOf([DEV, { name: "extra", gate: "never", runs: ["x1"] }]),
    },
  );
  const out = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `hold before-plan "infra-ready" on infra / infra-wave-1: read at ${
      sha12(r.base)
    } (its top level); holds are policy, so it stands\n`,
  );
  expect(out.stderr).toContain(
    'wave 2 "extra" waits on infra / infra-wave-1; nothing in it applied.',
  );
  expect(out.stderr).not.toContain("[plan]");
  expect(await r.applied()).toEqual([]);
});

Deno.test("waves holding runs of the same names keep their own order; a renamed prod moved first meets prod's gate", async (t) => {
  const same = (name: string, gate = "never") => ({
    name,
    gate,
    runs: ["eu", "us"],
  });
  const SAME = specOf(
    [same("dev"), same("staging"), same("prod", "always")],
    { order: "strict" },
  );
  await t.step("unchanged: dev, staging and prod run in turn", async () => {
    await using r = await rollout(
      specOf([same("dev"), same("staging"), same("prod")], {
        order: "strict",
      }),
    );
    for (const k of ["1", "2", "3"]) {
      expect((await r.run(["run", ...SPEC, "--wave", k])).code).toBe(0);
    }
    expect(await r.applied()).toHaveLength(6);
  });
  await t.step(
    "prod renamed and moved first: its targets name no prod database, yet its gate is prod's",
    async () => {
      await using r = await rollout(SAME, {
        headSpec: specOf([same("live"), same("dev"), same("staging")], {
          order: "strict",
        }),
      });
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toMatch(/waiting: the policy is "always"/);
      expect(await r.applied()).toEqual([]);
    },
  );
});

Deno.test("removing the waves before prod never lets prod run first", async () => {
  await using r = await rollout(ORDERED, {
    headSpec: specOf([PROD], { order: "strict" }),
  });
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `the order is read at base: at ${
      sha12(r.base)
    }, wave 1 "dev" came before wave 3 "prod", and no wave of this change stands for wave 1 "dev"; it runs in order once the change is merged\n`,
  );
  expect(out.stderr).not.toContain("[plan]");
  expect(await r.applied()).toEqual([]);
});
