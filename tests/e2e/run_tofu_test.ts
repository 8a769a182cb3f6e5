// End to end through the binary: the "tool" shorthand (SPEC.md §15) with a
// stand-in `tofu` first on PATH (tests/fixtures/tofu/tofu) that serves real plan
// documents, stamping each plan with a fresh timestamp as the real tool does.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { planFileName } from "../../src/run/plan_path.ts";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import {
  ENV,
  FAKE_DIR,
  noOpPlan,
  planFixture as fixture,
  toolSpec,
} from "../_helpers/tofu.ts";
import { approveLine, rollout, SPEC } from "../_helpers/rollout.ts";

/** action_reason.json: a tainted null_resource replaced. */
const TAINTED = fixture("action_reason.json");
const TAINTED_DIGEST =
  "sha256:824b2271a2357a10f3e8c0355853ab3075965b30a935761e50553cc1125d7c5a";
/** The same, planned by the adapter: its place (`live/{target}`, `-var=env=dev-1`) is digested too. */
const TAINTED_TOOL_DIGEST =
  "sha256:65dd49e0c5d280e009c521c736639544032af9332280b1b1297d3d3f25b49750";

/** identity.json (an update) with `age` set to `age` and a sensitive name. */
function update(age: number): string {
  const doc = JSON.parse(fixture("identity.json"));
  doc.resource_changes[0].change.after.age = age;
  doc.resource_changes[0].change.after.name = "hunter2-secret";
  doc.resource_changes[0].change.after_sensitive = { name: true };
  return JSON.stringify(doc);
}

async function calls(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${path}/ctl/tofu-calls.log`)
    .catch(() => "");
  return text.split("\n").filter(Boolean);
}

async function clearCalls(path: string): Promise<void> {
  await Deno.remove(`${path}/ctl/tofu-calls.log`).catch(() => {});
}

/** The plan file path of `target` in wave `k`, relative to the work tree. */
function planPathOf(k: number, target: string): string {
  return `.chant/waves/tf/wave-${k}/${planFileName(target)}`;
}

Deno.test("run with tool: a destructive plan waits on an on-destructive wave, then applies the saved plan", async (t) => {
  const spec = toolSpec([{
    name: "dev",
    runs: ["dev"],
    gate: "on-destructive",
  }]);
  (spec.tool as Record<string, unknown>).args = ["-var=env={wave}-{k}"];
  await using r = await rollout(spec, {
    files: { "live/dev/plan.json": TAINTED },
  });
  let planPath = "";
  await t.step("waits, exit 3, having planned and shown only", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(3);
    planPath = planPathOf(1, "dev");
    const tfplan = `${r.path}/${planPath}.tfplan`;
    expect(await calls(r.path)).toEqual([
      `-chdir=live/dev plan -input=false -no-color -out=${tfplan} -var=env=dev-1`,
      `-chdir=live/dev show -json ${tfplan}`,
    ]);
    expect(out.stderr).toContain(
      "1 to add, 0 to change, 1 to destroy (replace null_resource.example: tainted)",
    );
    expect(out.stderr).toContain("[plan] dev | Saved the plan to: ");
    expect(out.stderr).toContain("[plan] dev | TF_IN_AUTOMATION=1\n");
    expect(out.stderr).toContain(
      "[plan] dev | stdout goes to a file of mode 600\n",
    );
    expect(out.stderr).not.toContain("resource_changes");
    expect(await r.readJson(planPath)).toEqual({
      planDigest: TAINTED_TOOL_DIGEST,
      destructive: true,
      empty: false,
      summary:
        "1 to add, 0 to change, 1 to destroy (replace null_resource.example: tainted)",
      changes: [{ address: "null_resource.example", action: "replace" }],
    });
    await expect(Deno.stat(`${r.path}/${planPath}.tfplan.json`)).rejects
      .toThrow(Deno.errors.NotFound);
    const approve = await r.run([...approveLine(out.stderr), "--by", "ann"]);
    expect(approve.code).toBe(0);
  });
  await t.step("approved, a fresh plan (new timestamp) applies", async () => {
    await clearCalls(r.path);
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(0);
    const tfplan = `${r.path}/${planPath}.tfplan`;
    expect(await calls(r.path)).toEqual([
      `-chdir=live/dev plan -input=false -no-color -out=${tfplan} -var=env=dev-1`,
      `-chdir=live/dev show -json ${tfplan}`,
      `-chdir=live/dev apply -input=false -no-color ${tfplan}`,
    ]);
    expect(out.stderr).toContain("[apply] dev | Apply complete!");
  });
});

Deno.test("run with tool: an all-no-op wave never waits, even under always, and applies nothing", async () => {
  await using r = await rollout(
    toolSpec([{ name: "dev", runs: ["a", "b"], gate: "always" }]),
    {
      files: { "live/a/plan.json": noOpPlan(), "live/b/plan.json": noOpPlan() },
    },
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
  expect(out.code).toBe(0);
  const applies = (await calls(r.path)).filter((line) =>
    line.includes(" apply ")
  );
  // An empty plan has nothing to apply: its apply is skipped.
  expect(applies).toEqual([]);
  expect(out.stderr).toContain("skipped: a: no changes\n");
  expect((await r.readJson(planPathOf(1, "a"))).empty).toBe(true);
});

Deno.test("run with tool: a share job refuses a run whose plan changed (exit 4) and applies the unchanged one", async () => {
  await using r = await rollout(
    toolSpec([{
      name: "prod",
      runs: ["eu", "us"],
      shares: 2,
      gate: "on-destructive",
    }]),
    {
      files: {
        "live/eu/plan.json": update(1000),
        "live/us/plan.json": update(1000),
      },
    },
  );
  const decided = await r.run(["run", ...SPEC, "--wave", "1", "--decide"], ENV);
  expect(decided.code).toBe(0);
  expect(decided.stderr + decided.stdout).not.toContain("hunter2");
  await r.repo.write("live/eu/plan.json", update(1001));
  await clearCalls(r.path);

  const moved = await r.run(
    ["run", ...SPEC, "--wave", "1", "--share", "1"],
    ENV,
  );
  expect(moved.code).toBe(4);
  expect(moved.stderr).toMatch(
    /^(refused: )?eu: its plan moved since wave 1 was decided; decided sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64}$/m,
  );
  expect((await calls(r.path)).some((line) => line.includes(" apply "))).toBe(
    false,
  );

  // us was planned again too, with a new timestamp: the same digest.
  const unmoved = await r.run(
    ["run", ...SPEC, "--wave", "1", "--share", "2"],
    ENV,
  );
  expect(unmoved.code).toBe(0);
  const tfplan = `${r.path}/${planPathOf(1, "us")}.tfplan`;
  expect((await calls(r.path)).filter((line) => line.includes(" apply ")))
    .toEqual([`-chdir=live/us apply -input=false -no-color ${tfplan}`]);
  expect(unmoved.stderr + moved.stderr).not.toContain("hunter2");
});

Deno.test("run with tool: a failing tofu fails the run with one line naming it", async (t) => {
  await using r = await rollout(
    toolSpec([{ name: "dev", runs: ["dev"], gate: "never" }]),
    { files: { "live/dev/plan.json": TAINTED } },
  );
  await t.step("plan exits 1", async () => {
    await r.repo.write("live/dev/plan-exit", "1");
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('plan of "dev" exited 1');
    expect(out.stderr).toContain("[plan] dev | Error: the plan broke");
    await Deno.remove(`${r.path}/live/dev/plan-exit`);
  });
  await t.step("show -json prints no plan", async () => {
    await r.repo.write("live/dev/plan.json", "Error: state lock\n");
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(1);
    const planPath = planPathOf(1, "dev");
    expect(out.stderr).toContain(
      `plan of "dev": "${planPath}.tfplan.json" is not JSON: unexpected character "E" at line 1, column 1`,
    );
  });
  await t.step("the tool is not installed", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('plan of "dev" could not start "tofu"');
  });
  await t.step("binary (at base) names the program", async () => {
    const spec = toolSpec([{ name: "dev", runs: ["dev"], gate: "never" }]);
    (spec.tool as Record<string, unknown>).binary = `${FAKE_DIR}/tofu`;
    await using named = await rollout(spec, {
      files: { "live/dev/plan.json": TAINTED },
    });
    const out = await named.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("[apply] dev | Apply complete!");
  });
});

Deno.test("run with a plan script of one's own and chant-wave plan-file (the plan.sh of docs/opentofu-terraform.md)", async () => {
  const script = await Deno.readTextFile(`${FAKE_DIR}/plan.sh`);
  const page = await Deno.readTextFile(
    new URL("../../docs/opentofu-terraform.md", import.meta.url),
  );
  expect(page).toContain(script);
  await using r = await rollout({
    name: "tf",
    plan: ["sh", `${FAKE_DIR}/plan.sh`, "{target}", "{plan}"],
    apply: ["true"],
    heartbeat: "0",
    waves: [{ name: "dev", runs: ["dev"], gate: "never" }],
  }, { files: { "live/dev/plan.json": TAINTED } });
  const dist = new URL("../../dist/", import.meta.url).pathname;
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    PATH: `${FAKE_DIR}:${dist}:/usr/bin:/bin`,
  });
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    `[plan] dev | wrote "${
      planPathOf(1, "dev")
    }": 1 to add, 0 to change, 1 to destroy (replace null_resource.example: tainted)`,
  );
  expect((await r.readJson(planPathOf(1, "dev"))).planDigest).toBe(
    TAINTED_DIGEST,
  );
});

Deno.test("the three-environment tool spec of docs/opentofu-terraform.md passes check", async () => {
  const page = await Deno.readTextFile(
    new URL("../../docs/opentofu-terraform.md", import.meta.url),
  );
  const section = page.slice(page.indexOf("# OpenTofu and Terraform"));
  const spec = section.match(/```jsonc\n([\s\S]*?)```/)?.[1];
  expect(spec).toContain('"tool"');
  await using dir = await tempDir({ "waves.jsonc": spec! });
  const out = await runBinary(["check", "--spec", "waves.jsonc"], {
    cwd: dir.path,
  });
  expect({ ...out, stderr: out.stderr.split("\n")[0] }).toEqual({
    code: 0,
    stdout: "",
    stderr: "ok: waves.jsonc: 3 waves, 6 runs",
  });
});

Deno.test("run with tool: an approval of staging's plan never applies in prod's directory after the wave is renamed", async () => {
  const same = update(30);
  const spec = (names: string[]) => ({
    ...toolSpec(names.map((name) => ({ name, runs: ["eu"], gate: "always" }))),
    tool: { kind: "opentofu", dir: "live/{wave}/{target}" },
    order: "none",
  });
  await using r = await rollout(spec(["dev", "staging", "prod"]), {
    files: {
      "live/staging/eu/plan.json": same,
      "live/prod/eu/plan.json": same,
    },
  });
  const staging = await r.run(["run", ...SPEC, "--wave", "2"], ENV);
  expect(staging.code).toBe(3);
  expect((await r.run([...approveLine(staging.stderr), "--by", "ann"])).code)
    .toBe(0);
  await r.repo.commit("wave 2 renamed", {
    "waves.json": JSON.stringify(spec(["dev", "prod"]), null, 2) + "\n",
  });
  await clearCalls(r.path);
  const renamed = await r.run(["run", ...SPEC, "--wave", "2"], ENV);
  expect(renamed.code).toBe(3);
  expect(renamed.stderr).not.toContain("approved by ann");
  expect((await calls(r.path)).some((call) => call.includes(" apply "))).toBe(
    false,
  );
});
