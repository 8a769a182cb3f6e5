// End to end through the binary: hook commands (SPEC.md §11). A failed
// before-plan hook plans nothing, a failed after-plan or before-apply hook
// applies nothing, a failed after-apply hook fails the job after the applies;
// every plan, apply and hook command finds the hooks report at CHANT_WAVE_HOOKS;
// share jobs run the hooks recorded in the decision once they checked them.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  HOOK,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

/** A command hook running hook.sh as `name`, with more arguments. */
function hook(name: string, ...args: string[]) {
  return { name, run: ["sh", HOOK, name, ...args] };
}

const DEV = { name: "dev", gate: "never", runs: ["a", "b"] };

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("a failing before-plan hook plans nothing: exit 1 with its last lines", async () => {
  await using r = await rollout(
    specOf([DEV], { hooks: { "before-plan": [hook("check")] } }),
  );
  await r.control("hook-check", "exit", "3");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain(
    "[hook] check | hook check ran in phase hook\n",
  );
  expect(out.stderr).toContain(
    'error: wave 1 "dev": before-plan hook "check" failed: hook of "check" exited 3; nothing planned\n',
  );
  expect(out.stderr).toContain("  | hook check line 25\n");
  expect(out.stderr).not.toContain("[plan]");
  expect(await r.applied()).toEqual([]);
  expect(await exists(`${r.path}/.chant/waves/tf/wave-1.json`)).toBe(false);
});

Deno.test("a failing after-plan hook applies nothing and decides nothing", async () => {
  await using r = await rollout(
    specOf([DEV], { hooks: { "after-plan": [hook("review")] } }),
  );
  await r.control("hook-review", "exit", "1");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain("[plan] a | planning a\n");
  expect(out.stderr).toContain(
    'error: wave 1 "dev": after-plan hook "review" failed: hook of "review" exited 1; nothing applied\n',
  );
  expect(out.stderr).not.toContain("[apply]");
  expect(await r.applied()).toEqual([]);
  expect(await exists(`${r.path}/.chant/waves/tf/wave-1.json`)).toBe(false);
});

Deno.test("a failing before-apply hook applies nothing", async () => {
  await using r = await rollout(
    specOf([DEV], { hooks: { "before-apply": [hook("backup")] } }),
  );
  await r.control("hook-backup", "exit", "2");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain(
    'before-apply hook "backup" failed: hook of "backup" exited 2; nothing applied\n',
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a failing after-apply hook fails the job after the applies, so the next wave waits", async () => {
  const spec = specOf([DEV, { name: "prod", gate: "never", runs: ["p"] }], {
    order: "strict",
    hooks: { "after-apply": [hook("smoke"), hook("notify")] },
  });
  await using r = await rollout(spec);
  await r.control("hook-smoke", "exit", "1");
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
  expect(out.code).toBe(1);
  expect(await r.applied()).toEqual(["a", "b"]);
  expect(out.stderr).toContain(
    'error: wave 1 "dev": after-apply hook "smoke" failed: hook of "smoke" exited 1\n',
  );
  // Every after-apply hook runs, even after one failed.
  expect(out.stderr).toContain('hook after-apply "notify": ok\n');
  const result = JSON.parse(out.stdout);
  expect([result.exitCode, result.applied]).toEqual([1, ["a", "b"]]);
  const next = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(next.code).toBe(3);
  expect(next.stderr).toContain('wave 1 "dev" has not been applied at');
});

Deno.test("every command finds CHANT_WAVE_HOOKS: the outcomes so far and whether the wave is approved", async () => {
  const spec = specOf([{ name: "dev", runs: ["a"] }], {
    hooks: {
      "before-plan": [hook("init", "{runs}")],
      "after-plan": [hook("review", "{plans}")],
      "before-apply": [hook("backup")],
      "after-apply": [hook("smoke", "{plans}")],
    },
  });
  await using r = await rollout(spec);
  await r.control("a", "see-hooks");
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  expect(await r.readJson("seen/plan-a.hooks.json")).toEqual({
    wave: "dev",
    k: 1,
    approved: false,
    hooks: [{ point: "before-plan", name: "init", outcome: "ok" }],
  });
  expect(await r.readJson("seen/init.1.json")).toEqual({
    runs: [{ target: "a", op: "tf" }],
  });
  const plans = await r.readJson("seen/review.1.json");
  expect(plans.digest).toBe(digest);
  expect((plans.members as { target: string }[]).map((m) => m.target))
    .toEqual(["a"]);
  expect(await r.readJson("seen/review.hooks.json")).toMatchObject({
    approved: false,
  });
  expect((await r.run(approveLine(waiting.stderr))).code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  const ok = (point: string, name: string) => ({ point, name, outcome: "ok" });
  const beforeApply = [
    ok("before-plan", "init"),
    ok("after-plan", "review"),
    ok("before-apply", "backup"),
  ];
  expect(await r.readJson("seen/apply-a.hooks.json")).toEqual({
    wave: "dev",
    k: 1,
    approved: true,
    hooks: beforeApply,
  });
  expect(await r.readJson("seen/smoke.hooks.json")).toEqual({
    wave: "dev",
    k: 1,
    approved: true,
    hooks: beforeApply,
  });
  expect((await r.readJson("seen/smoke.1.json")).digest).toBe(digest);
  expect(await r.readJson(".chant/waves/tf/wave-1/wave.hooks.json")).toEqual(
    {
      wave: "dev",
      k: 1,
      approved: true,
      hooks: [...beforeApply, ok("after-apply", "smoke")],
    },
  );
});

Deno.test("share jobs run the hooks recorded in the decision, once checked", async (t) => {
  const hold = {
    name: "infra",
    after: { name: "infra", gate: "infra-wave-1", applied: true },
  };
  const spec = specOf([{
    name: "dev",
    gate: "never",
    runs: ["a", "b"],
    shares: 2,
  }], {
    hooks: { "before-apply": [hook("backup")] },
  });
  await using r = await rollout(spec);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);
  const path = ".chant/waves/tf/wave-1.json";
  const decision = await r.readJson(path);
  await t.step("the decision records the hooks", () => {
    expect(decision.hooks).toEqual({
      "before-plan": [],
      "after-plan": [],
      "before-apply": [hook("backup")],
      "after-apply": [],
    });
  });
  await t.step(
    "a record whose commands are not the spec's: exit 2",
    async () => {
      const forged = structuredClone(decision) as {
        hooks: Record<string, unknown[]>;
      };
      forged.hooks["before-plan"] = [{ name: "x", run: ["sh", "-c", "id"] }];
      await Deno.writeTextFile(`${r.path}/${path}`, JSON.stringify(forged));
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(
        `error: the decision record ${path} does not match the spec's hooks and the holds at`,
      );
      expect(out.stderr).toContain(
        'its "before-plan" commands are not the spec\'s',
      );
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step("a record with one more hold is only stricter", async () => {
    const stricter = structuredClone(decision) as {
      hooks: Record<string, unknown[]>;
    };
    stricter.hooks["before-apply"].push(hold);
    await Deno.writeTextFile(`${r.path}/${path}`, JSON.stringify(stricter));
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      'wave 1 "dev" waits on infra / infra-wave-1; nothing in it applied.',
    );
  });
  await t.step("the genuine record: the share job runs its hooks", async () => {
    await Deno.writeTextFile(`${r.path}/${path}`, JSON.stringify(decision));
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "[hook] backup | hook backup ran in phase hook",
    );
    expect(await r.applied()).toEqual(["a"]);
    // A wave whose policy needs no approval is never "approved".
    expect(await r.readJson("seen/backup.hooks.json")).toEqual({
      wave: "dev",
      k: 1,
      approved: false,
      hooks: [],
    });
  });
});

Deno.test("check refuses exactly what run refuses: a bad hook is exit 2 with the same line", async () => {
  const spec = specOf([{ ...DEV, rest: true }, { name: "prod", runs: ["p"] }], {
    hooks: { "before-plan": [{ name: "x", run: ["r", "{plans}"] }] },
  });
  await using r = await rollout(spec);
  const check = await r.run(["check", ...SPEC]);
  const run = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect([check.code, run.code]).toEqual([2, 2]);
  const first = (text: string) => text.split("\n")[0];
  expect(first(check.stderr)).toBe(first(run.stderr));
  expect(check.stderr).toContain(
    'hooks.before-plan[0].run[1]: unknown placeholder "{plans}": there are no plans before planning',
  );
  expect(check.stderr).toContain(
    'wave 1 "dev" rest: only the last wave may be "rest"',
  );
  expect(run.stderr).not.toContain("[hook]");
});

Deno.test("a dry run runs the plan-side hooks and names the apply-side ones", async () => {
  await using r = await rollout(
    specOf([DEV], {
      hooks: {
        "before-plan": [hook("init")],
        "before-apply": [hook("backup")],
        "after-apply": [hook("smoke")],
      },
    }),
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    'dry run: would run before-apply hook "backup"\n',
  );
  expect(
    (await Deno.readTextFile(`${r.path}/hooks.log`)).split("\n").filter(
      Boolean,
    ),
  ).toEqual(["init"]);
  expect(await exists(`${r.path}/.chant`)).toBe(false);
});
