// End to end through the binary: `chant-wave drift` (SPEC.md §19) on real
// OpenTofu plan documents, served by the stand-in `tofu` first on PATH. A
// rollout applies every wave at HEAD; then a target is changed by hand, and
// drift finds it (exit 5, the target named); `--record` records the wave's
// plans as a pending fact, which only an approval turns into one apply.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  ENV,
  noOpPlan,
  planFixture as fixture,
  toolSpec,
} from "../_helpers/tofu.ts";
import { plannedDigest, rollout, SPEC } from "../_helpers/rollout.ts";
import { hookServer } from "../notify/_hook_server.ts";

/** identity.json: an update of one resource, `age` set to `age`. */
function update(age: number): string {
  const doc = JSON.parse(fixture("identity.json"));
  doc.resource_changes[0].change.after.age = age;
  return JSON.stringify(doc);
}

const WAVES = [
  { name: "dev", runs: ["dev"], gate: "never" },
  { name: "prod", runs: ["a", "b", "c"], gate: "always" },
];

async function applies(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${path}/ctl/tofu-calls.log`)
    .catch(() => "");
  await Deno.remove(`${path}/ctl/tofu-calls.log`).catch(() => {});
  return text.split("\n").filter((line) => line.includes(" apply "))
    .map((line) => line.split(" ")[0]);
}

async function appliedRollout() {
  const r = await rollout(toolSpec(WAVES), {
    files: Object.fromEntries(
      ["dev", "a", "b", "c"].map((t) => [`live/${t}/plan.json`, noOpPlan()]),
    ),
  });
  for (const k of ["1", "2"]) {
    const out = await r.run(["run", ...SPEC, "--wave", k], ENV);
    if (out.code !== 0) throw new Error(`wave ${k}: ${out.stderr}`);
  }
  await applies(r.path);
  return r;
}

Deno.test("drift: no drift exits 0; a target changed by hand exits 5 naming it, and records nothing", async (t) => {
  await using r = await appliedRollout();
  const head12 = r.head.slice(0, 12);
  await t.step("every plan empty: exit 0", async () => {
    const out = await r.run(["drift", ...SPEC, "--json"], ENV);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `drift: planning tf at ${head12} (HEAD: no forge names a default branch here)\n`,
    );
    expect(out.stderr).toContain(
      `no drift: every run of 2 waves plans no changes at ${head12}\n`,
    );
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({
      exitCode: 0,
      name: "tf",
      revision: r.head,
      recorded: false,
      failed: [],
    });
    expect(result.waves.map((w: { drifted: unknown[] }) => w.drifted))
      .toEqual([[], []]);
  });
  await t.step(
    "in CI, the tip of the default branch the forge names",
    async () => {
      const out = await r.run(["drift", ...SPEC], {
        ...ENV,
        GITLAB_CI: "true",
        CI_DEFAULT_BRANCH: "main",
      });
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `drift: planning tf at ${head12} (the tip of the default branch "main")\n`,
      );
    },
  );
  await t.step("b changed by hand: exit 5, b named", async () => {
    await r.repo.write("live/b/plan.json", update(1000));
    const out = await r.run(["drift", ...SPEC, "--json"], ENV);
    expect(out.code).toBe(5);
    expect(out.stderr).toMatch(
      /^drift: wave 2 "prod": 1 run of 3 drifted \(b\), set digest sha256:[0-9a-f]{64}; --record records its plans for an approval$/m,
    );
    expect(out.stderr).toContain(`drift at ${head12}:\n`);
    expect(out.stderr).toMatch(/^WAVE +TARGET +PLAN +WHY$/m);
    expect(out.stderr).toMatch(
      /^2 prod +b +0 to add, 1 to change, 0 to destroy, 1 to import +its plan is not empty, and differs from the other 2 runs of the wave$/m,
    );
    const result = JSON.parse(out.stdout);
    expect(result.exitCode).toBe(5);
    expect(result.waves[1]).toMatchObject({
      k: 2,
      name: "prod",
      gate: "tf-wave-2",
      runs: 3,
      status: "waiting",
      drifted: [{
        target: "b",
        changes: true,
        differsFrom: 2,
        summary: "0 to add, 1 to change, 0 to destroy, 1 to import",
      }],
    });
    // Information only: no pending fact, nothing applied.
    const kinds = (await r.records("tf-wave-2")).map((rec) => rec.kind);
    expect(kinds).not.toContain("pending");
    expect(await applies(r.path)).toEqual([]);
  });
});

Deno.test("drift --record: a pending fact whose approval applies the drifted plan once, and never without it", async (t) => {
  await using r = await appliedRollout();
  await r.repo.write("live/b/plan.json", update(1000));
  let digest = "";
  await t.step(
    "--record records the wave's plans as a pending fact",
    async () => {
      const out = await r.run(["drift", ...SPEC, "--record", "--json"], ENV);
      expect(out.code).toBe(5);
      expect(out.stderr).toMatch(
        /^drift: wave 2 "prod": 1 run of 3 drifted \(b\), set digest sha256:[0-9a-f]{64}; recorded its plans as a pending fact: approve them, then run wave 2 to apply them once$/m,
      );
      const result = JSON.parse(out.stdout);
      expect(result.recorded).toBe(true);
      digest = result.waves[1].digest;
      expect(result.waves[1].approve).toBe(
        `chant-wave approve tf tf-wave-2 --plan ${digest}`,
      );
      const pending = (await r.records("tf-wave-2"))
        .filter((rec) => rec.kind === "pending");
      expect(pending.map((rec) => [rec.planDigest, rec.head])).toEqual([
        [digest, r.head],
      ]);
      // Wave 1 did not drift: nothing recorded for it.
      expect((await r.records("tf-wave-1")).map((rec) => rec.kind))
        .not.toContain("pending");
      expect(await applies(r.path)).toEqual([]);
    },
  );
  await t.step(
    "run without an approval waits and applies nothing",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "2"], ENV);
      expect(out.code).toBe(3);
      // The run's own plan is the recorded one: the approval binds what runs.
      expect(plannedDigest(out.stderr)).toBe(digest);
      expect(await applies(r.path)).toEqual([]);
      const pending = (await r.records("tf-wave-2"))
        .filter((rec) => rec.kind === "pending");
      expect(pending.length).toBe(1);
    },
  );
  await t.step(
    "approved, run applies b once; a second run applies nothing",
    async () => {
      const approve = await r.run(
        ["approve", "tf", "tf-wave-2", "--by", "ann"],
        ENV,
      );
      expect(approve.code).toBe(0);
      expect(approve.stderr).toContain(
        `approved tf-wave-2 of tf for ${digest}`,
      );
      const first = await r.run(["run", ...SPEC, "--wave", "2"], ENV);
      expect(first.code).toBe(0);
      expect(await applies(r.path)).toEqual(["-chdir=live/b"]);
      const second = await r.run(["run", ...SPEC, "--wave", "2"], ENV);
      expect(second.code).toBe(0);
      expect(await applies(r.path)).toEqual([]);
    },
  );
});

Deno.test("drift: a revision some wave has not applied, or a checkout elsewhere, is exit 2", async (t) => {
  await using r = await appliedRollout();
  const applied = r.head;
  await t.step("a new commit, not rolled out yet", async () => {
    const head = await r.repo.commit("another change", { "notes.txt": "x\n" });
    const out = await r.run(["drift", ...SPEC, "--json"], ENV);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `error: drift plans a revision every wave applied, and 2 waves have not been applied at ${
        head.slice(0, 12)
      }: wave 1 "dev" (missing: the whole-wave job), wave 2 "prod" (missing: the whole-wave job)\n`,
    );
    expect(JSON.parse(out.stdout).exitCode).toBe(2);
  });
  await t.step("the default branch the forge names is elsewhere", async () => {
    await r.repo.git("branch", "trunk", applied);
    const out = await r.run(["drift", ...SPEC], {
      ...ENV,
      GITLAB_CI: "true",
      CI_DEFAULT_BRANCH: "trunk",
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `error: drift plans the checkout, which is at ${
        (await r.repo.git("rev-parse", "HEAD")).slice(0, 12)
      }, not at ${
        applied.slice(0, 12)
      } (the tip of the default branch "trunk")\n`,
    );
  });
  await t.step("--rev names another commit than HEAD", async () => {
    const out = await r.run(["drift", ...SPEC, "--rev", applied], ENV);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      /^error: drift plans the checkout, which is at [0-9a-f]{12}, not at [0-9a-f]{12} \(--rev "[0-9a-f]{40}"\)$/m,
    );
  });
});

Deno.test("drift in GitHub Actions appends a job summary, and with notify sends a drift event", async (t) => {
  await using server = hookServer();
  await using r = await rollout(
    {
      ...toolSpec(WAVES),
      notify: { webhook: "CHANT_HOOK_URL" },
    },
    {
      files: Object.fromEntries(
        ["dev", "a", "b", "c"].map((t) => [`live/${t}/plan.json`, noOpPlan()]),
      ),
    },
  );
  for (const k of ["1", "2"]) {
    expect((await r.run(["run", ...SPEC, "--wave", k], ENV)).code).toBe(0);
  }
  const file = `${r.repo.root}/summary.md`;
  const env = {
    ...ENV,
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: file,
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_RUN_ID: "91",
    CHANT_HOOK_URL: server.url,
  };
  await r.repo.write("live/c/plan.json", update(7));
  await t.step("a summary table and one drift event", async () => {
    const out = await r.run(["drift", ...SPEC], env);
    expect(out.code).toBe(5);
    const summary = await Deno.readTextFile(file);
    expect(summary).toContain(
      `### chant-wave drift: tf at \`${r.head.slice(0, 12)}\`: exit 5\n`,
    );
    expect(summary).toContain(
      "| c | 0 to add, 1 to change, 0 to destroy, 1 to import | its plan is not empty, and differs from the other 2 runs of the wave |\n",
    );
    const events = server.received.map((got) => JSON.parse(got.body));
    expect(events.length).toBe(1);
    expect(events[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(events[0]).toMatchObject({
      event: "drift",
      name: "tf",
      wave: 2,
      waveName: "prod",
      gate: "tf-wave-2",
      job: { kind: "drift" },
      summary: `wave 2 (prod) of tf, drift at ${
        r.head.slice(0, 12)
      }, 1 run drifted`,
      targets: ["c"],
      reason: "information only: nothing was recorded or applied",
    });
    expect(out.stderr).toContain('notify: delivered "drift" (HTTP 204');
  });
  await t.step(
    "--record: the deciding job's waiting event, then drift's",
    async () => {
      server.received.length = 0;
      const out = await r.run(["drift", ...SPEC, "--record"], env);
      expect(out.code).toBe(5);
      expect(server.received.map((got) => JSON.parse(got.body).event)).toEqual([
        "waiting",
        "drift",
      ]);
      // Its pending fact names no job for resume: re-running drift applies nothing.
      const pending = () =>
        r.records("tf-wave-2").then((records) =>
          records.filter((rec) => rec.kind === "pending")
        );
      expect((await pending()).map((rec) => rec.locator)).toEqual([undefined]);
      // The rollout's own job, waiting on those plans, names itself.
      const run = await r.run(["run", ...SPEC, "--wave", "2"], {
        ...env,
        GITHUB_RUN_ID: "92",
      });
      expect(run.code).toBe(3);
      expect((await pending()).at(-1)?.locator).toMatchObject({
        forge: "github",
        runId: "92",
      });
    },
  );
});

Deno.test("drift --record reads the gate at base: a revision that loosened it still waits for an approval", async () => {
  const files = Object.fromEntries(
    ["dev", "a", "b", "c"].map((t) => [`live/${t}/plan.json`, noOpPlan()]),
  );
  // The revision every wave applied says "never" for prod; its base, "always".
  const loose = WAVES.map((w) => ({ ...w, gate: "never" }));
  await using r = await rollout(toolSpec(WAVES), {
    files,
    headSpec: toolSpec(loose),
  });
  for (const k of ["1", "2"]) {
    expect((await r.run(["run", ...SPEC, "--wave", k], ENV)).code).toBe(0);
  }
  await r.repo.write("live/b/plan.json", update(1000));
  const out = await r.run(["drift", ...SPEC, "--record", "--json"], ENV);
  expect(out.code).toBe(5);
  expect(JSON.parse(out.stdout).waves[1].status).toBe("waiting");
  expect(out.stderr).toContain('policy of wave 2 "prod": always');
  const run = await r.run(["run", ...SPEC, "--wave", "2"], ENV);
  expect(run.code).toBe(3);
  expect(await applies(r.path)).toEqual([]);
});

Deno.test("drift --record on a wave whose gate needs no approval records nothing, and says a run applies it", async () => {
  await using r = await appliedRollout();
  await r.repo.write("live/dev/plan.json", update(5));
  const out = await r.run(["drift", ...SPEC, "--record", "--json"], ENV);
  expect(out.code).toBe(5);
  expect(out.stderr).toMatch(
    /^drift: wave 1 "dev": 1 run of 1 drifted \(dev\), set digest sha256:[0-9a-f]{64}; its gate needs no approval for these plans: run wave 1 to apply them$/m,
  );
  expect(JSON.parse(out.stdout).waves[0]).toMatchObject({
    status: "not-required",
    drifted: [{ target: "dev", changes: true }],
  });
  expect((await r.records("tf-wave-1")).map((rec) => rec.kind))
    .not.toContain("pending");
  expect(await applies(r.path)).toEqual([]);
  const run = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
  expect(run.code).toBe(0);
  expect(await applies(r.path)).toEqual(["-chdir=live/dev"]);
});
