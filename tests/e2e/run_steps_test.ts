// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { startBinary } from "../_helpers/binary.ts";
import { rollout, SPEC } from "../_helpers/rollout.ts";

/** Quiet until the file "go" exists (the test makes it when it has seen enough). */
const QUIET_PLAN = `#!/bin/sh
echo "starting $1"
while [ ! -e go ]; do sleep 0.02; done
printf '{"planDigest":"sha256:%064d"}' 0 > "$2"
printf 'no newline at the end'
`;

function quietSpec(extra: Record<string, unknown> = {}) {
  return {
    name: "tf",
    plan: ["sh", "quiet.sh", "{target}", "{plan}"],
    apply: ["true"],
    waves: [{ name: "dev", gate: "never", runs: ["dev"] }],
    ...extra,
  };
}

Deno.test("run streams a step's lines with its prefix and a heartbeat while it is quiet", async () => {
  await using r = await rollout(quietSpec({ heartbeat: "1s" }), {
    files: { "quiet.sh": QUIET_PLAN },
  });
  const job = startBinary(["run", ...SPEC, "--wave", "1"], { cwd: r.path });
  // The first heartbeat says how long the step has run: 1s, or more when slow.
  await job.stderrHas(/^\[plan\] dev: still running after \d+s$/m);
  await Deno.writeTextFile(`${r.path}/go`, "");
  const result = await job.finish();
  expect(result.code).toBe(0);
  const lines = result.stderr.split("\n");
  expect(lines).toContain("[plan] dev | starting dev");
  expect(
    lines.some((line) => /^\[plan\] dev: still running after \d+s$/.test(line)),
  )
    .toBe(true);
  expect(lines).toContain("[plan] dev | no newline at the end");
});

Deno.test("run --heartbeat 0 turns the heartbeat off", async () => {
  // Quiet for 3 heartbeats of the spec's 1s; a loaded machine only makes it longer.
  const plan = QUIET_PLAN.replace(
    "while [ ! -e go ]; do sleep 0.02; done",
    "sleep 3",
  );
  await using r = await rollout(quietSpec({ heartbeat: "1s" }), {
    files: { "quiet.sh": plan },
  });
  const result = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--heartbeat",
    "0",
  ]);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain("[plan] dev | no newline at the end");
  expect(result.stderr).not.toMatch(/still running/);
});

Deno.test("run stops a step past --timeout and fails the run, exit 1", async () => {
  await using r = await rollout(quietSpec(), {
    files: { "quiet.sh": QUIET_PLAN },
  });
  const result = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--timeout",
    "1s",
    "--json",
  ]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^failed: plan of "dev" timed out after 1s$/m);
  expect(result.stderr).toMatch(
    /^error: wave 1 "dev" is not decided: 1 run failed to plan$/m,
  );
  expect(JSON.parse(result.stdout)).toMatchObject({
    exitCode: 1,
    failed: ["dev"],
  });
});

Deno.test("run names a plan command that cannot start, with no stack trace", async () => {
  await using r = await rollout({
    ...quietSpec(),
    plan: ["no-such-tool", "{plan}"],
  });
  const result = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    /^failed: plan of "dev" could not start "no-such-tool": not found$/m,
  );
  expect(result.stderr).not.toMatch(/\n\s+at /);
});

const PLAN_WAVE = `#!/bin/sh
# $1: the {runs} file, $2: the {plans} file; plans t-a, t-b and x-c whatever it is asked.
cat "$1"
d() { printf 'sha256:%064d' "$1"; }
printf '{"runs":[{"target":"t-a","planDigest":"%s","summary":"1 to add"},{"target":"t-b","planDigest":"%s"},{"target":"x-c","planDigest":"%s"}]}' \\
  "$(d 1)" "$(d 2)" "$(d \${XC:-3})" > "$2"
`;
const APPLY_WAVE = `#!/bin/sh
cat "$1" >> applied.log
echo >> applied.log
`;

Deno.test("run with planWave and discover: the plans file decides the runs; applyWave applies a job's runs", async (t) => {
  const spec = {
    name: "tf",
    planWave: ["sh", "plan_wave.sh", "{runs}", "{plans}"],
    applyWave: ["sh", "apply_wave.sh", "{runs}"],
    heartbeat: "0",
    waves: [{
      name: "tenants",
      gate: "never",
      runs: [],
      discover: true,
      jobs: [{ name: "t", runs: ["t-*"], shares: 2 }, {
        name: "x",
        runs: ["x-*"],
      }],
    }],
  };
  await using r = await rollout(spec, {
    files: { "plan_wave.sh": PLAN_WAVE, "apply_wave.sh": APPLY_WAVE },
  });
  await t.step("the deciding job records the discovered runs", async () => {
    const result = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("[plan] wave 1 | {\n");
    expect(result.stderr).toContain('"discover": true');
    const decision = await r.readJson(".chant/waves/tf/wave-1.json") as {
      members: { target: string }[];
    };
    expect(decision.members.map((m) => m.target)).toEqual([
      "t-a",
      "t-b",
      "x-c",
    ]);
  });
  await t.step(
    "a group share applies its slice in one applyWave call",
    async () => {
      const result = await r.run([
        "run",
        ...SPEC,
        "--wave",
        "1",
        "--group",
        "t",
        "--share",
        "2",
      ]);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        /^ignored the plans of runs outside this job: t-a, x-c$/m,
      );
      const applied = await Deno.readTextFile(`${r.path}/applied.log`);
      expect(JSON.parse(applied)).toEqual({
        runs: [{ target: "t-b", op: "tf" }],
      });
    },
  );
  await t.step("a moved plan in a group job is refused", async () => {
    const result = await r.run(
      ["run", ...SPEC, "--wave", "1", "--group", "x"],
      { XC: "9" },
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^refused: x-c: its plan moved since wave 1 was decided; /m,
    );
  });
  await t.step(
    "a discovered run that falls in no group fails the deciding job before the gate",
    async () => {
      await r.repo.commit("drop a group", {
        "waves.json": JSON.stringify({
          ...spec,
          waves: [{ ...spec.waves[0], jobs: [spec.waves[0].jobs[0]] }],
        }),
      });
      const result = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^failed: discovered run "x-c" matches no job group$/m,
      );
    },
  );
});
