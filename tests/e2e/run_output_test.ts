// End to end through the binary: the `--json` result (SPEC.md §4.8), failed
// applies and `onFailure` (§4.7), and the `.chant/` hygiene warning (§9).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const RESULT_KEYS = [
  "applied",
  "decision",
  "exitCode",
  "failed",
  "job",
  "moved",
  "skipped",
  "untried",
  "wave",
];

function onlyObject(stdout: string): Record<string, unknown> {
  expect(stdout.endsWith("\n")).toBe(true);
  expect(stdout.trimEnd().split("\n")).toHaveLength(1);
  const value = JSON.parse(stdout);
  expect(typeof value).toBe("object");
  return value;
}

Deno.test("run --json puts exactly one result object on stdout and nothing else", async (t) => {
  await using r = await rollout(specOf([
    { name: "dev", gate: "never", runs: ["d2", "d1"] },
    { name: "prod", gate: "always", runs: ["eu", "us"], shares: 2 },
  ]));

  await t.step("whole wave, applied: exit 0", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
    expect(out.code).toBe(0);
    const result = onlyObject(out.stdout);
    expect(Object.keys(result).sort()).toEqual(RESULT_KEYS);
    expect(result).toMatchObject({
      exitCode: 0,
      wave: 1,
      job: { kind: "wave" },
      decision: { wave: 1, name: "tf", status: "not-required" },
      applied: ["d1", "d2"],
      failed: [],
      moved: [],
      untried: [],
    });
    expect(result.job).toEqual({ kind: "wave" });
    // The tools' own output goes to the log on stderr, never to stdout.
    expect(out.stderr).toContain("[apply] d1 | applying d1\n");
  });

  await t.step("deciding job, waiting: exit 3", async () => {
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "2",
      "--decide",
      "--json",
    ]);
    expect(out.code).toBe(3);
    const result = onlyObject(out.stdout);
    expect(Object.keys(result).sort()).toEqual(RESULT_KEYS);
    expect(result).toMatchObject({
      exitCode: 3,
      wave: 2,
      job: { kind: "decide" },
      decision: { status: "waiting" },
      applied: [],
    });
    expect(result.job).toEqual({ kind: "decide" });
  });

  await t.step("share job, waiting: exit 3, with its share", async () => {
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "2",
      "--share",
      "2",
      "--json",
    ]);
    expect(out.code).toBe(3);
    const result = onlyObject(out.stdout);
    expect(Object.keys(result).sort()).toEqual(RESULT_KEYS);
    expect(result.job).toEqual({ kind: "share", share: 2 });
    expect(result.exitCode).toBe(3);
  });

  await t.step("a failed plan: exit 1, no decision", async () => {
    await r.control("d1", "plan-exit", "1");
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
    await r.uncontrol("d1", "plan-exit");
    expect(out.code).toBe(1);
    const result = onlyObject(out.stdout);
    expect(Object.keys(result).sort()).toEqual(
      RESULT_KEYS.filter((key) => key !== "decision"),
    );
    expect(result).toMatchObject({ exitCode: 1, failed: ["d1"], applied: [] });
  });
});

const STOP_OR_GO = (onFailure: string) =>
  specOf([{
    name: "dev",
    gate: "never",
    runs: ["c", "a", "b"],
    onFailure,
  }], { parallel: 1 });

Deno.test("run with onFailure stop leaves the rest untried; continue goes on; exit 1 with the output's tail", async (t) => {
  for (const onFailure of ["stop", "continue"]) {
    await t.step(onFailure, async () => {
      await using r = await rollout(STOP_OR_GO(onFailure));
      await r.control("b", "apply-exit", "7");
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
      expect(out.code).toBe(1);
      const result = onlyObject(out.stdout);
      const stop = onFailure === "stop";
      expect(result).toMatchObject({
        exitCode: 1,
        applied: stop ? ["a"] : ["a", "c"],
        failed: ["b"],
        untried: stop ? ["c"] : [],
      });
      expect(await r.applied()).toEqual(stop ? ["a"] : ["a", "c"]);
      expect(out.stderr).toContain('failed: apply of "b" exited 7\n');
      // The tail: the last 20 lines of its output.
      expect(out.stderr).toContain("  | apply b line 12\n");
      expect(out.stderr).toContain("  | apply of b broke\n");
      expect(out.stderr).not.toContain("  | apply b line 11\n");
      if (stop) {
        expect(out.stderr).toContain(
          "untried after a failure (onFailure: stop): c\n",
        );
      } else {
        expect(out.stderr).not.toContain("untried after a failure");
      }
    });
  }

  await t.step("in a share job too", async () => {
    await using r = await rollout(specOf([{
      name: "dev",
      gate: "never",
      runs: ["a", "b", "c", "d"],
      shares: 2,
      onFailure: "stop",
    }]));
    expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
      .toBe(0);
    await r.control("a", "apply-exit", "1");
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "1",
      "--share",
      "1",
      "--json",
    ]);
    expect(out.code).toBe(1);
    expect(onlyObject(out.stdout)).toMatchObject({
      exitCode: 1,
      job: { kind: "share", share: 1 },
      applied: [],
      failed: ["a"],
      untried: ["b"],
    });
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("run without onFailure stops at a failed apply when a plan it applies is destructive; else, or when the spec says continue, goes on", async (t) => {
  const cases = [
    {
      name: "unset, a destructive plan: stop, saying why",
      onFailure: undefined,
      destroys: true,
      stops: true,
    },
    {
      name: "unset, no destructive plan: continue",
      onFailure: undefined,
      destroys: false,
      stops: false,
    },
    {
      name: 'an explicit "continue" with a destructive plan: continue',
      onFailure: "continue",
      destroys: true,
      stops: false,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using r = await rollout(specOf([{
        name: "dev",
        gate: "never",
        runs: ["c", "a", "b"],
        ...(c.onFailure ? { onFailure: c.onFailure } : {}),
      }], { parallel: 1 }));
      if (c.destroys) await r.desire("a", "destroy the old table");
      await r.control("b", "apply-exit", "7");
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
      expect(out.code).toBe(1);
      expect(onlyObject(out.stdout)).toMatchObject({
        exitCode: 1,
        applied: c.stops ? ["a"] : ["a", "c"],
        failed: ["b"],
        untried: c.stops ? ["c"] : [],
      });
      expect(await r.applied()).toEqual(c.stops ? ["a"] : ["a", "c"]);
      const why = "onFailure: stop (the default for a destructive plan)\n";
      if (c.stops) {
        expect(out.stderr).toContain(why);
        expect(out.stderr).toContain(
          "untried after a failure (onFailure: stop): c\n",
        );
      } else {
        expect(out.stderr).not.toContain(why);
        expect(out.stderr).not.toContain("untried after a failure");
      }
    });
  }
});

Deno.test("run keeps .chant/ out of git with its own .gitignore", async (t) => {
  const spec = specOf([{ name: "dev", gate: "never", runs: ["a"] }]);
  await t.step(
    "not ignored by the repository: .chant/.gitignore ignores it",
    async () => {
      await using r = await rollout(spec, { ignoreChant: false });
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).not.toContain("warning:");
      expect(await Deno.readTextFile(join(r.path, ".chant", ".gitignore")))
        .toBe("# written by chant-wave: nothing here is committed\n*\n");
      // Nothing under .chant/ is untracked: git ignores it all.
      expect(await r.repo.git("status", "--porcelain", "--", ".chant"))
        .toBe("");
    },
  );
  await t.step(
    "a .chant/.gitignore already there is left as it is",
    async () => {
      await using r = await rollout(spec, { ignoreChant: false });
      await Deno.mkdir(join(r.path, ".chant"));
      await Deno.writeTextFile(join(r.path, ".chant", ".gitignore"), "mine\n");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(await Deno.readTextFile(join(r.path, ".chant", ".gitignore")))
        .toBe("mine\n");
    },
  );
  await t.step("a dry run writes nothing", async () => {
    await using r = await rollout(spec, { ignoreChant: false });
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
    expect(out.code).toBe(0);
    await expect(Deno.lstat(join(r.path, ".chant", ".gitignore"))).rejects
      .toThrow();
  });
});
