// End to end through the binary: rest waves (SPEC.md §11). The spec's last wave
// says `rest: true`; `--wave k` past the spec's waves is that wave again, and a
// whole-wave job whose planWave reported `"waves": N` goes on to the next wave
// once it applied one, each planned, gated and applied on its own.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import {
  approveLine,
  PLAN_WAVE,
  rollout,
  SPEC,
  TOOL,
} from "../_helpers/rollout.ts";

/** One discovering rest wave; plan_wave.sh plans "t<k>" and reports 3 waves. */
function restSpec(gate: string): Record<string, unknown> {
  return {
    name: "tf",
    planWave: ["sh", PLAN_WAVE, "{k}", "{runs}", "{plans}"],
    apply: ["sh", TOOL, "apply", "{target}", "{plan}"],
    heartbeat: "0",
    order: "strict",
    waves: [{ name: "tenants", runs: [], discover: true, rest: true, gate }],
  };
}

/** `rest` entries as `[wave, exitCode, whether digest is a set digest]`. */
function shapeOf(
  rest: { wave: number; exitCode: number; digest?: string }[],
): [number, number, boolean][] {
  return rest.map(({ wave, exitCode, digest }) => [
    wave,
    exitCode,
    /^sha256:[0-9a-f]{64}$/.test(digest ?? ""),
  ]);
}

Deno.test("one whole-wave job applies waves 1 to 3 in order, each under its own gate", async () => {
  await using r = await rollout(restSpec("never"));
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
  expect(out.code).toBe(0);
  expect(await r.applied()).toEqual(["t1", "t2", "t3"]);
  expect(out.stderr).toContain(
    "wave 1 applied; the plan found 3 waves, so this job goes on to wave 2\n",
  );
  expect(out.stderr).toContain(
    "wave 2 applied; the plan found 3 waves, so this job goes on to wave 3\n",
  );
  expect(out.stderr).toContain('chant-wave: wave 3 "tenants" of tf');
  const result = JSON.parse(out.stdout);
  expect(result.wave).toBe(1);
  expect(result.applied).toEqual(["t1"]);
  expect(shapeOf(result.rest)).toEqual([[2, 0, true], [3, 0, true]]);
  for (const k of [1, 2, 3]) {
    const outcomes = (await r.records(`tf-wave-${k}`)).filter((record) =>
      record.kind === "wave-outcome"
    );
    expect(outcomes.map((o) => [o.wave, o.outcome])).toEqual([[k, "applied"]]);
  }
  const status = JSON.parse(
    (await r.run(["status", ...SPEC, "--json"])).stdout,
  );
  expect(
    status.waves.map((w: { wave: number; name: string; gate: string }) => [
      w.wave,
      w.name,
      w.gate,
    ]),
  ).toEqual([
    [1, "tenants", "tf-wave-1"],
    [2, "tenants", "tf-wave-2"],
    [3, "tenants", "tf-wave-3"],
  ]);
});

Deno.test("a gated rest wave waits (exit 3) and the next run goes on from it", async (t) => {
  await using r = await rollout(restSpec("always"));
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(3);
  expect((await r.run(approveLine(first.stderr))).code).toBe(0);
  let waiting = "";
  await t.step(
    "wave 1 applies; wave 2 waits for its own approval",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
      expect(out.code).toBe(3);
      expect(await r.applied()).toEqual(["t1"]);
      expect(out.stderr).toMatch(
        /^then approve: chant-wave approve tf tf-wave-2 --plan sha256:[0-9a-f]{64}$/m,
      );
      const result = JSON.parse(out.stdout);
      expect([result.exitCode, result.applied]).toEqual([3, ["t1"]]);
      expect(shapeOf(result.rest)).toEqual([[2, 3, true]]);
      waiting = out.stderr;
    },
  );
  await t.step(
    "the job run again skips wave 1, applies wave 2, waits at wave 3",
    async () => {
      expect((await r.run(approveLine(waiting))).code).toBe(0);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain("skipped: t1: already applied\n");
      expect(await r.applied()).toEqual(["t1", "t2"]);
      waiting = out.stderr;
    },
  );
  await t.step("--wave 3 runs the rest wave as wave 3", async () => {
    expect((await r.run(approveLine(waiting))).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "3"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`order: wave 2 "tenants" was applied at`);
    expect(await r.applied()).toEqual(["t1", "t2", "t3"]);
  });
});

Deno.test("--wave past the spec's waves needs a rest wave", async () => {
  const spec = restSpec("never");
  const waves = spec.waves as Record<string, unknown>[];
  await using r = await rollout({
    ...spec,
    waves: [{ ...waves[0], rest: false }],
  });
  const out = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(out.code).toBe(2);
  expect(out.stderr).toContain('error: wave "2" is not in "waves.json"\n');
  expect(out.stderr).toContain('  waves: 1 "tenants"\n');
  // Without rest, the job does not go on, whatever the plan found.
  const one = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(one.code).toBe(0);
  expect(await r.applied()).toEqual(["t1"]);
});

Deno.test("a dry run of a rest wave says where a real run would go on", async () => {
  await using r = await rollout(restSpec("never"));
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    "the plan found 3 waves; a real run would go on to wave 2\n",
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("jobs shows the rest wave as k+ and the pipeline says its job carries on", async () => {
  await using r = await rollout({
    ...restSpec("never"),
    waves: [
      { name: "dev", runs: ["d"], gate: "never" },
      { name: "tenants", runs: [], discover: true, rest: true },
    ],
  });
  const jobs = await r.run(["jobs", ...SPEC]);
  expect(jobs.code).toBe(0);
  expect(jobs.stdout).toMatch(/^wave-2-tenants +wave +2\+ tenants /m);
  const json = JSON.parse((await r.run(["jobs", ...SPEC, "--json"])).stdout);
  expect(json.map((job: { rest?: boolean }) => job.rest)).toEqual([
    undefined,
    true,
  ]);
  const out = await r.run(["pipeline", "github", ...SPEC, "--out", "out"]);
  expect(out.code).toBe(0);
  const text = await Deno.readTextFile(
    `${r.path}/out/.github/workflows/tf.yml`,
  );
  expect(text).toContain(
    '# Wave 2 "tenants" is a rest wave: job wave-2-tenants goes on through every\n' +
      "# further wave its plan reports, each planned, gated and applied on its own.\n",
  );
});

Deno.test("a rest wave with shares: the pipeline says further waves run by hand", async () => {
  await using r = await rollout({
    ...restSpec("never"),
    waves: [{
      name: "tenants",
      runs: ["a", "b"],
      shares: 2,
      rest: true,
    }],
  });
  const out = await r.run(["pipeline", "gitlab", ...SPEC, "--out", "out"]);
  expect(out.code).toBe(0);
  const text = await Deno.readTextFile(`${r.path}/out/tf.gitlab-ci.yml`);
  expect(text).toContain(
    '# Wave 1 "tenants" is a rest wave with shares: these jobs run wave 1 only;\n' +
      "# run further waves with chant-wave run --wave <k> (--decide, --share <i>).\n",
  );
});

Deno.test("the hook and rest-wave specs of docs/hooks.md pass check", async (t) => {
  const page = await Deno.readTextFile(
    new URL("../../docs/hooks.md", import.meta.url),
  );
  const cases: [string, string, string][] = [
    ["## Hooks", '"hooks"', "ok: waves.jsonc: 2 waves, 3 runs\n"],
    ["## Rest waves", '"rest": true', "ok: waves.jsonc: 2 waves, 1 runs\n"],
  ];
  for (const [heading, needle, want] of cases) {
    await t.step(heading, async () => {
      const section = page.slice(page.indexOf(`${heading}\n`));
      const spec = section.match(/```jsonc\n([\s\S]*?)```/)?.[1];
      expect(spec).toContain(needle);
      await using dir = await tempDir({ "waves.jsonc": spec! });
      const out = await runBinary(["check", "--spec", "waves.jsonc"], {
        cwd: dir.path,
      });
      expect({ ...out, stderr: `${out.stderr.split("\n")[0]}\n` })
        .toEqual({ code: 0, stdout: "", stderr: want });
    });
  }
});
