// End to end through the binary: share and group jobs (SPEC.md §4.1, §4.7):
// slices, moved plans, a missing decision, and unknown waves, shares and groups.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

interface Member {
  target: string;
  planDigest: string;
}

async function planDigestOf(
  path: string,
  dir: string,
  target: string,
): Promise<string> {
  for await (const entry of Deno.readDir(`${path}/${dir}`)) {
    if (entry.name.startsWith(`${target}-`)) {
      const plan = JSON.parse(
        await Deno.readTextFile(`${path}/${dir}/${entry.name}`),
      );
      return plan.planDigest;
    }
  }
  throw new Error(`no plan file of "${target}" in ${dir}`);
}

Deno.test("run refuses a moved plan in a share job and applies the unmoved runs, exit 4", async (t) => {
  await using r = await rollout(
    specOf([{
      name: "prod",
      gate: "always",
      runs: ["t3", "t1", "t2"],
      shares: 2,
    }]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(waiting.code).toBe(3);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code).toBe(
    0,
  );
  const decision = await r.readJson(".chant/waves/tf/wave-1.json");
  const decided = new Map(
    (decision.members as Member[]).map((m) => [m.target, m.planDigest]),
  );

  await t.step(
    "share 1 (t1, t2) with t2 moved: t1 applies, t2 does not",
    async () => {
      await r.desire("t2", "replicas = 9");
      const out = await r.run([
        "run",
        ...SPEC,
        "--wave",
        "1",
        "--share",
        "1",
        "--json",
      ]);
      expect(out.code).toBe(4);
      const now = await planDigestOf(r.path, ".chant/waves/tf/wave-1", "t2");
      expect(now).not.toBe(decided.get("t2"));
      expect(out.stderr).toContain("slice: t1, t2\n");
      expect(out.stderr).toMatch(
        new RegExp(
          `^(refused: )?t2: its plan moved since wave 1 was decided; decided ${
            decided.get("t2")
          }, planned now ${now}$`,
          "m",
        ),
      );
      expect(await r.applied()).toEqual(["t1"]);
      expect(JSON.parse(out.stdout)).toMatchObject({
        exitCode: 4,
        wave: 1,
        job: { kind: "share", share: 1 },
        applied: ["t1"],
        failed: [],
        moved: ["t2"],
        untried: [],
      });
    },
  );

  await t.step(
    "share 2 (t3), unmoved, applies under the same approval",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain("slice: t3\n");
      expect(await r.applied()).toEqual(["t1", "t3"]);
    },
  );

  await t.step(
    "a share whose every run moved applies nothing, exit 4",
    async () => {
      await r.desire("t3", "replicas = 2");
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"]);
      expect(out.code).toBe(4);
      expect(await r.applied()).toEqual(["t1", "t3"]);
    },
  );
});

const GROUPED = specOf([{
  name: "apply",
  gate: "never",
  runs: ["dev-a", "prod-us", "prod-eu", "prod-ap"],
  jobs: [
    { name: "dev", runs: ["dev-*"] },
    { name: "prod", runs: ["prod-*"], shares: 2 },
    { name: "later", runs: ["later-*"] },
  ],
}, { name: "plain", gate: "never", runs: ["p1", "p2"], shares: 2 }]);

Deno.test("run --group slices the group's runs; an empty slice applies nothing", async (t) => {
  await using r = await rollout(GROUPED);

  await t.step("a group job before the deciding job is exit 2", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--group", "dev"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      'error: no decision for wave 1 "apply" at ".chant/waves/tf/wave-1.json": run the deciding job first',
    ]);
    expect(await r.applied()).toEqual([]);
  });

  await t.step(
    "the deciding job plans every run and applies none",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(out.code).toBe(0);
      expect(await r.applied()).toEqual([]);
    },
  );

  const cases = [
    {
      args: ["--group", "prod", "--share", "1"],
      slice: ["prod-ap", "prod-eu"],
    },
    { args: ["--group", "prod", "--share", "2"], slice: ["prod-us"] },
    { args: ["--group", "dev"], slice: ["dev-a"] },
    { args: ["--group", "later"], slice: [] },
  ];
  for (const c of cases) {
    await t.step(c.args.join(" "), async () => {
      await r.clearApplied();
      const out = await r.run([
        "run",
        ...SPEC,
        "--wave",
        "1",
        ...c.args,
        "--json",
      ]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `slice: ${c.slice.length ? c.slice.join(", ") : "(no runs)"}\n`,
      );
      expect((await r.applied()).sort()).toEqual(c.slice);
      const result = JSON.parse(out.stdout);
      expect(result.applied.sort()).toEqual(c.slice);
      expect(result.job).toEqual({
        kind: "group",
        group: c.args[1],
        ...(c.args[3] ? { share: Number(c.args[3]) } : {}),
      });
    });
  }
});

Deno.test("run refuses an unknown wave, share or group with the choices, exit 2", async (t) => {
  await using r = await rollout(GROUPED);
  const cases = [
    {
      name: "unknown wave",
      args: ["--wave", "9"],
      stderr: 'error: wave "9" is not in "waves.json"\n' +
        '  waves: 1 "apply", 2 "plain"\n',
    },
    {
      name: "unknown wave name",
      args: ["--wave", "plan"],
      stderr: 'error: wave "plan" is not in "waves.json"\n' +
        '  waves: 1 "apply", 2 "plain"\n',
    },
    {
      name: "unknown share",
      args: ["--wave", "2", "--share", "3"],
      stderr: 'error: wave 2 "plain" has 2 shares; "--share 3" is not one\n' +
        "  shares: 1, 2\n",
    },
    {
      name: "unknown group",
      args: ["--wave", "1", "--group", "prd"],
      stderr:
        'error: wave 1 "apply" has no job group "prd"; did you mean "prod"?\n' +
        "  groups: dev, prod, later\n",
    },
    {
      name: "unknown share of a group",
      args: ["--wave", "1", "--group", "prod", "--share", "3"],
      stderr:
        'error: wave 1 "apply" group "prod" has 2 shares; "--share 3" is not one\n' +
        "  shares: 1, 2\n",
    },
    {
      name: "a group of 2 shares needs --share",
      args: ["--wave", "1", "--group", "prod"],
      stderr:
        'error: wave 1 "apply" group "prod" has 2 shares; add "--share I"\n' +
        "  shares: 1, 2\n",
    },
    {
      name: "a share job of a wave with groups needs --group",
      args: ["--wave", "1", "--share", "1"],
      stderr:
        'error: wave 1 "apply" splits its runs into job groups; add "--group G"\n' +
        "  groups: dev, prod, later\n",
    },
    {
      name: "--group on a wave without groups",
      args: ["--wave", "2", "--group", "dev"],
      stderr: 'error: wave 2 "plain" has no job groups; drop "--group"\n',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      expect(await r.run(["run", ...SPEC, ...c.args])).toEqual({
        code: 2,
        stdout: "",
        stderr: c.stderr,
      });
    });
  }
  await t.step("nothing was planned or recorded", async () => {
    await expect(Deno.stat(`${r.path}/.chant`)).rejects.toBeInstanceOf(
      Deno.errors.NotFound,
    );
  });
});

Deno.test("run --share with no decision is exit 2: run the deciding job first", async () => {
  await using r = await rollout(GROUPED);
  const out = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "2",
    "--share",
    "1",
    "--json",
  ]);
  expect(out.code).toBe(2);
  expect(errorLines(out.stderr)).toEqual([
    'error: no decision for wave 2 "plain" at ".chant/waves/tf/wave-2.json": run the deciding job first',
  ]);
  expect(JSON.parse(out.stdout)).toMatchObject({ exitCode: 2 });
  expect(await r.applied()).toEqual([]);
});

Deno.test("a share job whose approval was revoked and then folded by ledger compact waits, exit 3", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["t1", "t2"], shares: 2 }]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);
  expect((await r.run(["revoke", "tf", "tf-wave-1"])).code).toBe(0);
  const compact = await r.run(["ledger", "compact"]);
  expect(compact.code).toBe(0);
  expect(compact.stderr).toMatch(
    /^folded 2 records and 1 plan set of tf tf-wave-1/m,
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
  expect(out.stderr).not.toContain("holds no approval");
  expect(out.code).toBe(3);
  expect(await r.applied()).toEqual([]);
});
