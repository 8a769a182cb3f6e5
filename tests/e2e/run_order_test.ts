// End to end through the binary: promotion order (SPEC.md §4.11). A wave runs
// only after the wave before it applied the same revision; `--out-of-order`
// records who ran it anyway and why; `order` is read at base.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const DEV = { name: "dev", gate: "never", runs: ["d1"] };
const STAGING = { name: "staging", gate: "never", runs: ["s1", "s2"] };
const PROD = { name: "prod", gate: "never", runs: ["p1"] };
const STRICT = specOf([DEV, STAGING, PROD], { order: "strict" });

Deno.test("wave 2 waits until wave 1 applied this commit", async (t) => {
  await using r = await rollout(STRICT);
  const head12 = r.head.slice(0, 12);
  await t.step("wave 2 first: exit 3, nothing planned", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `wave 1 "dev" has not been applied at ${head12} (missing: the whole-wave job); run it first\n`,
    );
    expect(out.stderr).not.toContain("[plan]");
    expect(await r.applied()).toEqual([]);
  });
  await t.step("a dry run says so too, and records nothing", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "2", "--dry-run"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain("has not been applied at");
  });
  await t.step("after wave 1 applies, wave 2 goes on", async () => {
    expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `order: wave 1 "dev" was applied at ${head12}\n`,
    );
    expect(await r.applied()).toEqual(["d1", "s1", "s2"]);
  });
  await t.step(
    "a new commit: wave 2 waits again until wave 1 ran at it",
    async () => {
      const next = await r.repo.commit("another change", { "a.txt": "a" });
      const out = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `wave 1 "dev" has not been applied at ${next.slice(0, 12)}`,
      );
      // Wave 1 plans nothing new (its plans are unchanged): nothing-to-do counts.
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
      expect((await r.run(["run", ...SPEC, "--wave", "2"])).code).toBe(0);
    },
  );
  await t.step(
    "status names the revision each wave last completed",
    async () => {
      const out = await r.run(["status", ...SPEC, "--json"]);
      const head = await r.repo.git("rev-parse", "HEAD");
      const waves = JSON.parse(out.stdout).waves;
      expect(waves[0].completed.head).toBe(head);
      expect(waves[1].completed.head).toBe(head);
      expect(waves[2].completed).toBeUndefined();
    },
  );
});

Deno.test("a wave of two shares is complete only when both shares applied", async () => {
  await using r = await rollout(
    specOf([DEV, { ...STAGING, shares: 2 }, PROD], { order: "strict" }),
  );
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "2", "--decide"])).code).toBe(
    0,
  );
  await r.control("s2", "apply-exit", "1");
  expect((await r.run(["run", ...SPEC, "--wave", "2", "--share", "1"])).code)
    .toBe(0);
  const one = await r.run(["run", ...SPEC, "--wave", "3"]);
  expect(one.code).toBe(3);
  expect(one.stderr).toContain("(missing: share 2); run it first");
  expect((await r.run(["run", ...SPEC, "--wave", "2", "--share", "2"])).code)
    .toBe(1);
  const failed = await r.run(["run", ...SPEC, "--wave", "3"]);
  expect(failed.code).toBe(3);
  expect(failed.stderr).toContain("(missing: share 2)");
  await r.uncontrol("s2", "apply-exit");
  expect((await r.run(["run", ...SPEC, "--wave", "2", "--share", "2"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "3"])).code).toBe(0);
});

Deno.test("--out-of-order runs anyway and records who and why", async () => {
  await using r = await rollout(STRICT);
  const out = await r.run(
    ["run", ...SPEC, "--wave", "3", "--out-of-order", "hotfix INC-42"],
    { GITHUB_ACTIONS: "true", GITHUB_ACTOR: "ann" },
  );
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    "running wave 3 out of order (by ann: hotfix INC-42)",
  );
  expect(await r.applied()).toEqual(["p1"]);
  const log = await r.run(["ledger", "log", "tf", "tf-wave-3"]);
  expect(log.stdout).toMatch(
    /out-of-order \S+ wave 3 ran out of order at [0-9a-f]{12} by ann: hotfix INC-42/,
  );
  const status = await r.run(["status", ...SPEC]);
  expect(status.stdout).toMatch(
    /out of order: at [0-9a-f]{12} by ann: hotfix INC-42/,
  );
  const empty = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "3",
    "--out-of-order",
    " ",
  ]);
  expect(empty.code).toBe(2);
});

Deno.test("order is read at base: none there turns the check off, none in the change does not", async (t) => {
  await t.step("none at base", async () => {
    await using r = await rollout(specOf([DEV, STAGING], { order: "none" }));
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("order: none (read at ");
  });
  await t.step("none only in the working copy", async () => {
    await using r = await rollout(specOf([DEV, STAGING], { order: "strict" }), {
      headSpec: specOf([DEV, STAGING], { order: "none" }),
    });
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('wave 1 "dev" has not been applied at');
  });
  await t.step("a gated wave 1 waits; wave 2 waits on it", async () => {
    await using r = await rollout(
      specOf([{ ...DEV, gate: "always" }, STAGING], { order: "strict" }),
    );
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(waiting.code).toBe(3);
    expect((await r.run(["run", ...SPEC, "--wave", "2"])).code).toBe(3);
    expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
      .toBe(0);
    expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
    expect((await r.run(["run", ...SPEC, "--wave", "2"])).code).toBe(0);
  });
});
