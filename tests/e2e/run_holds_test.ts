// End to end through the binary: holds on other rollouts (SPEC.md §11). A hold
// keeps a wave waiting (exit 3) with the command that approves the gate it waits
// on; once that gate is approved (or, with `applied`, its wave applied) the wave
// goes on. Holds are policy: a change that deletes one still waits.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { rollout, SPEC, specOf, TOOL } from "../_helpers/rollout.ts";

/** The other rollout, in `infra.json`: one gated wave of one run. */
const INFRA = JSON.stringify({
  name: "infra",
  plan: ["sh", TOOL, "plan", "{target}", "{plan}"],
  apply: ["sh", TOOL, "apply", "{target}", "{plan}"],
  heartbeat: "0",
  waves: [{ name: "net", runs: ["net-1"] }],
});

function holdOn(applied?: true) {
  return {
    name: "infra-ready",
    after: {
      name: "infra",
      gate: "infra-wave-1",
      ...(applied ? { applied } : {}),
    },
  };
}

const DEV = { name: "dev", gate: "never", runs: ["d1"] };

/** The `Approve: chant-wave approve …` command of a held wave, as argv. */
function approveOfHold(stderr: string): string[] {
  const line = stderr.match(
    /nothing in it applied\. Approve: chant-wave (.+)$/m,
  )
    ?.[1];
  if (line === undefined) throw new Error(`no "Approve:" in:\n${stderr}`);
  return line.split(" ");
}

Deno.test("a hold on another rollout's gate waits until that gate is approved", async (t) => {
  await using r = await rollout(
    specOf([DEV], { hooks: { "before-apply": [holdOn()] } }),
    { files: { "infra.json": INFRA } },
  );
  await t.step("the gate has no plans yet: held, nothing applied", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      'hold before-apply "infra-ready" on infra / infra-wave-1: held: no plans wait at infra-wave-1 yet\n',
    );
    expect(await r.applied()).toEqual([]);
  });
  const infra = await r.run(["run", "--spec", "infra.json", "--wave", "1"]);
  expect(infra.code).toBe(3);
  let approve: string[] = [];
  await t.step(
    "the gate waits: exit 3 with the line that approves it",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toMatch(
        /^wave 1 "dev" waits on infra \/ infra-wave-1; nothing in it applied\. Approve: chant-wave approve infra infra-wave-1 --plan sha256:[0-9a-f]{64}$/m,
      );
      expect(out.stderr).not.toContain("[apply]");
      approve = approveOfHold(out.stderr);
    },
  );
  await t.step("a dry run says the same", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      'wave 1 "dev" waits on infra / infra-wave-1; nothing in it applied. Approve:',
    );
  });
  await t.step("once that gate is approved, the wave goes on", async () => {
    expect((await r.run(approve)).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(
      /hold before-apply "infra-ready" on infra \/ infra-wave-1: ok: approved by \S+ for sha256:/,
    );
    expect(await r.applied()).toEqual(["d1"]);
  });
});

Deno.test("a hold is not let through by a pending fact with no plan set and an approval of another digest", async () => {
  await using r = await rollout(
    specOf([DEV], { hooks: { "before-apply": [holdOn()] } }),
    { files: { "infra.json": INFRA } },
  );
  expect((await r.run(["run", "--spec", "infra.json", "--wave", "1"])).code)
    .toBe(3);
  const held = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect((await r.run([...approveOfHold(held.stderr), "--by", "ann"])).code)
    .toBe(0);
  // A newer pending fact of another digest, with no plan set beside it, as the
  // change's code could write it.
  const gate = join(r.path, ".chant/ledger/gates/infra/infra-wave-1");
  const [file] = [...Deno.readDirSync(gate)]
    .map((e) => e.name).filter((n) => n.includes("-pending-"));
  const pending = JSON.parse(Deno.readTextFileSync(join(gate, file)));
  const later = new Date(Date.parse(pending.timestamp) + 1000).toISOString();
  const forged = {
    ...pending,
    id: "f0f0f0f0f0f0",
    planDigest: `sha256:${"e".repeat(64)}`,
    timestamp: later,
  };
  Deno.writeTextFileSync(
    join(
      gate,
      file.replace(/-pending-[^.]+/, "-pending-f0f0f0f0f0f0").replace(
        /^[^-]+/,
        later.replace(/[-:.]/g, ""),
      ),
    ),
    JSON.stringify(forged),
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `wave 1 "dev" waits on infra / infra-wave-1; nothing in it applied. Approve: chant-wave approve infra infra-wave-1 --plan sha256:${
      "e".repeat(64)
    }\n`,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a change that deletes the hold still waits: holds are read at base", async () => {
  const base = specOf([DEV], { hooks: { "before-plan": [holdOn()] } });
  await using r = await rollout(base, {
    headSpec: specOf([DEV]),
    files: { "infra.json": INFRA },
  });
  expect((await r.run(["run", "--spec", "infra.json", "--wave", "1"])).code)
    .toBe(3);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `hold before-plan "infra-ready" on infra / infra-wave-1: read at ${
      r.base.slice(0, 12)
    } (wave 1 "dev"); holds are policy, so it stands\n`,
  );
  expect(out.stderr).toContain(
    'wave 1 "dev" waits on infra / infra-wave-1; nothing in it applied. Approve: chant-wave approve infra infra-wave-1 --plan sha256:',
  );
  // A hold at before-plan: nothing planned.
  expect(out.stderr).not.toContain("[plan]");
  expect((await r.run(approveOfHold(out.stderr))).code).toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  expect(await r.applied()).toEqual(["d1"]);
});

Deno.test("a hold with applied waits until that wave applied, not only approved", async () => {
  await using r = await rollout(
    specOf([DEV], { hooks: { "after-plan": [holdOn(true)] } }),
    { files: { "infra.json": INFRA } },
  );
  const infra = ["run", "--spec", "infra.json", "--wave", "1"];
  expect((await r.run(infra)).code).toBe(3);
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(3);
  expect((await r.run([...approveOfHold(first.stderr), "--by", "ann"])).code)
    .toBe(0);
  const approved = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(approved.code).toBe(3);
  expect(approved.stderr).toContain(
    'wave 1 "dev" waits on infra / infra-wave-1; nothing in it applied. It waits until that wave applied (approved by ann)\n',
  );
  expect(await r.applied()).toEqual([]);
  expect((await r.run(infra)).code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    'hold after-plan "infra-ready" on infra / infra-wave-1: ok: that wave applied at infra-wave-1\n',
  );
  expect(await r.applied()).toEqual(["net-1", "d1"]);
});

Deno.test("a share job refuses a decision record that dropped a hold at base", async () => {
  const waves = [{ ...DEV, runs: ["d1", "d2"], shares: 2 }];
  await using r = await rollout(
    specOf(waves, { hooks: { "before-apply": [holdOn()] } }),
    { headSpec: specOf(waves) },
  );
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);
  const path = ".chant/waves/tf/wave-1.json";
  const decision = await r.readJson(path) as {
    hooks: Record<string, unknown[]>;
  };
  expect(decision.hooks["before-apply"]).toEqual([
    { ...holdOn(), after: { ...holdOn().after, applied: false } },
  ]);
  decision.hooks["before-apply"] = [];
  await Deno.writeTextFile(`${r.path}/${path}`, JSON.stringify(decision));
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
  expect(out.code).toBe(2);
  expect(out.stderr).toContain(
    `error: the decision record ${path} does not match the spec's hooks and the holds at ${
      r.base.slice(0, 12)
    }; run the deciding job again\n`,
  );
  expect(out.stderr).toContain(
    '  it lacks the hold "infra-ready" (infra / infra-wave-1) at "before-apply"\n',
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a hold with applied on a wave of job groups waits until every group applied", async () => {
  const infra = JSON.stringify({
    name: "infra",
    plan: ["sh", TOOL, "plan", "{target}", "{plan}"],
    apply: ["sh", TOOL, "apply", "{target}", "{plan}"],
    heartbeat: "0",
    waves: [{
      name: "net",
      runs: ["net-eu", "net-us"],
      jobs: [{ name: "eu", runs: ["net-eu"] }, {
        name: "us",
        runs: ["net-us"],
      }],
    }],
  });
  await using r = await rollout(
    specOf([DEV], { hooks: { "after-plan": [holdOn(true)] } }),
    { files: { "infra.json": infra } },
  );
  const wave = ["run", "--spec", "infra.json", "--wave", "1"];
  expect((await r.run([...wave, "--decide"])).code).toBe(3);
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(3);
  expect((await r.run([...approveOfHold(first.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run([...wave, "--decide"])).code).toBe(0);
  expect((await r.run([...wave, "--group", "eu"])).code).toBe(0);
  const one = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(one.code).toBe(3);
  expect(one.stderr).toContain(
    'hold after-plan "infra-ready" on infra / infra-wave-1: held: approved by ann, but that wave has not applied since (group "us" not yet)\n',
  );
  expect(await r.applied()).toEqual(["net-eu"]);
  expect((await r.run([...wave, "--group", "us"])).code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    'hold after-plan "infra-ready" on infra / infra-wave-1: ok: that wave applied at infra-wave-1\n',
  );
  expect(await r.applied()).toEqual(["net-eu", "net-us", "d1"]);
});
