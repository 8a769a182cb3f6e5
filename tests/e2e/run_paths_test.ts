// End to end through the binary: where plans, decisions and records go (SPEC.md
// §4.2, §4.6, §5.1, §9), the set digest of the plans (§4.3), the spec in a
// subdirectory (§4.4), and `chant-wave --spec F --wave K` meaning `run` (§2).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const DECISION_KEYS = [
  "approve",
  "base",
  "baseRule",
  "bases",
  "createdAt",
  "decisionId",
  "digest",
  "gate",
  "members",
  "name",
  "policy",
  "policyReason",
  "policySource",
  "spec",
  "status",
  "version",
  "wave",
];

Deno.test("run binds the gate to the set digest of the plan files and records the decision", async (t) => {
  await using r = await rollout(specOf([
    { name: "prod", gate: "always", runs: ["t3", "t1", "t2"] },
  ]));
  for (const n of [1, 2, 3]) {
    await r.control(
      `t${n}`,
      "plan-raw",
      `{ "planDigest": "sha256:${String(n).repeat(64)}", "summary": "s${n}" }`,
    );
  }
  const out = await r.run(["--spec", "waves.json", "--wave", "1"]);

  await t.step("no command means run; the §4.3 test vector", () => {
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      'planned 3 runs of wave 1 "prod": sha256:106d25f35ee6bc02e9aa253d0b2633a764396833c82e0c5ec5a4ad83a2a85b4e\n',
    );
  });

  await t.step(
    "the decision record has the §4.6 fields, members sorted",
    async () => {
      const decision = await r.readJson(".chant/waves/tf/wave-1.json");
      expect(Object.keys(decision).sort()).toEqual(DECISION_KEYS);
      expect(decision).toMatchObject({
        version: 1,
        wave: 1,
        name: "tf",
        spec: "waves.json",
        gate: "tf-wave-1",
        policy: "always",
        policySource: "base",
        base: r.base,
        status: "waiting",
        digest:
          "sha256:106d25f35ee6bc02e9aa253d0b2633a764396833c82e0c5ec5a4ad83a2a85b4e",
        approve:
          "chant-wave approve tf tf-wave-1 --plan sha256:106d25f35ee6bc02e9aa253d0b2633a764396833c82e0c5ec5a4ad83a2a85b4e",
      });
      expect(decision.members).toEqual([1, 2, 3].map((n) => ({
        target: `t${n}`,
        planDigest: `sha256:${String(n).repeat(64)}`,
        op: "tf",
        summary: `s${n}`,
      })));
    },
  );
});

Deno.test("run gives targets that differ only by unsafe characters their own plan files", async () => {
  await using r = await rollout(specOf([
    { name: "dev", gate: "never", runs: ["a/b", "a_b", "a b"] },
  ]));
  await r.desire("a/b", "one");
  await r.desire("a_b", "two");
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
  expect(out.code).toBe(0);
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${r.path}/.chant/waves/tf/wave-1`)) {
    if (entry.name.endsWith(".plan.json")) files.push(entry.name);
  }
  expect(files).toHaveLength(3);
  const { decision } = JSON.parse(out.stdout);
  const digests = (decision.members as { planDigest: string }[]).map((m) =>
    m.planDigest
  );
  expect(new Set(digests).size).toBe(3);
  expect((await r.applied()).sort()).toEqual(["a b", "a/b", "a_b"]);
});

Deno.test("run and approve use --ledger, else CHANT_WAVE_LEDGER, else .chant/ledger", async () => {
  await using r = await rollout(specOf([
    { name: "prod", gate: "always", runs: ["a"] },
  ]));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"], {
    CHANT_WAVE_LEDGER: "shared/ledger",
  });
  expect(waiting.code).toBe(3);
  const pending = `${r.path}/shared/ledger/gates/tf/tf-wave-1`;
  expect(
    [...Deno.readDirSync(pending)].filter((e) => e.isFile).map((e) => e.name),
  ).toHaveLength(1);
  await expect(Deno.stat(`${r.path}/.chant/ledger`)).rejects.toBeInstanceOf(
    Deno.errors.NotFound,
  );
  // The default ledger has no pending fact; the flag names the shared one.
  expect((await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"])).code)
    .toBe(2);
  expect(
    (await r.run([
      "approve",
      "tf",
      "tf-wave-1",
      "--by",
      "ann",
      "--ledger",
      "shared/ledger",
    ])).code,
  ).toBe(0);
  const applied = await r.run(["run", ...SPEC, "--wave", "1"], {
    CHANT_WAVE_LEDGER: "shared/ledger",
  });
  expect(applied.code).toBe(0);
  // --ledger wins over the variable.
  const other = await r.run(
    ["run", ...SPEC, "--wave", "1", "--ledger", "other", "--dry-run"],
    { CHANT_WAVE_LEDGER: "shared/ledger" },
  );
  expect(other.code).toBe(3);
  expect(other.stderr).toContain('gate "tf-wave-1" has no approval for ');
});

Deno.test("run reads the policy of a spec in a subdirectory, from the top or from inside", async (t) => {
  const sub = specOf([{ name: "dev", gate: "never", runs: ["a"] }]);
  await using r = await rollout(
    specOf([{ name: "other", gate: "always", runs: ["x"] }]),
    { files: { "deploy/waves.json": JSON.stringify(sub) } },
  );
  await r.repo.commit("change the sub spec", {
    "deploy/waves.json": JSON.stringify(specOf([
      { name: "dev", gate: "always", runs: ["a"] },
    ])),
  });
  // HEAD^1 holds gate "never" for deploy/waves.json, as committed at the base;
  // the change tightens it.
  const at = await r.readAt(r.base, "deploy/waves.json");
  await t.step("--spec deploy/waves.json from the top level", async () => {
    const out = await r.run([
      "run",
      "--spec",
      "deploy/waves.json",
      "--wave",
      "1",
      "--dry-run",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `policy of wave 1 "dev": never (read at ${at}: wave 1 "dev" by name and position)\n`,
    );
  });
  await t.step("--spec waves.json from deploy/", async () => {
    const out = await runBinary(
      ["run", "--spec", "waves.json", "--wave", "1", "--dry-run"],
      { cwd: `${r.path}/deploy` },
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `policy of wave 1 "dev": never (read at ${at}: wave 1 "dev" by name and position)\n`,
    );
  });
});
