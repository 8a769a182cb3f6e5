// End to end through the binary: the gate policy is read at the base commit
// (SPEC.md §4.4) and decides whether a wave waits (§4.5).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { runBinary } from "../_helpers/binary.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu", "us"] };

Deno.test("run waits on a gated wave even when the change sets gate never", async (t) => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["dev"] }, PROD]),
    {
      headSpec: specOf([
        { name: "dev", gate: "never", runs: ["dev"] },
        { ...PROD, gate: "never" },
      ]),
    },
  );
  const at = await r.readAt();

  await t.step(
    "the whole-wave job waits, exit 3, and applies nothing",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(out.code).toBe(3);
      expect(out.stdout).toBe("");
      expect(out.stderr).toContain(
        `policy of wave 2 "prod": always (read at ${at}: wave 2 "prod" by name and position)\n`,
      );
      expect(out.stderr).toMatch(
        /^then approve: chant-wave approve tf tf-wave-2 --plan sha256:[0-9a-f]{64}$/m,
      );
      expect(await r.applied()).toEqual([]);
      const decision = await r.readJson(".chant/waves/tf/wave-2.json");
      expect(decision).toMatchObject({
        status: "waiting",
        policy: "always",
        policySource: "base",
        policyReason: `read at ${at}: wave 2 "prod" by name and position`,
        baseRule: "chain",
        base: r.base,
      });
      const records = await r.records("tf-wave-2");
      expect(records.map((record) => record.kind)).toEqual(["pending"]);
      expect(records[0]).toMatchObject({
        planDigest: decision.digest,
        members: 2,
        base: r.base,
      });
    },
  );

  await t.step(
    "a re-run waits again and adds no second pending fact",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "prod", "--decide"]);
      expect(out.code).toBe(3);
      expect((await r.records("tf-wave-2")).length).toBe(1);
    },
  );

  await t.step("the wave the base spec leaves ungated goes on", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `policy of wave 1 "dev": never (read at ${at}: wave 1 "dev" by name and position)\n`,
    );
    expect(await r.applied()).toEqual(["dev"]);
  });

  await t.step("--base names where the policy is read", async () => {
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "2",
      "--base",
      "HEAD",
      "--dry-run",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `policy of wave 2 "prod": never (read at ${await r.readAt(
        r.head,
      )}: wave 2 "prod" by name and position)\n`,
    );
  });
});

Deno.test("run reads every row of the policy table at base and fails closed", async (t) => {
  await using repo = await tempRepo({ ".gitignore": ".chant/\n" });
  const noSpec = await repo.commit("no spec yet");
  const broken = await repo.commit("a broken spec", {
    "waves.json": '{ "name": "tf", "waves": [',
  });
  const devOnly = await repo.commit("the spec", {
    "waves.json": JSON.stringify(
      specOf([{ name: "dev", gate: "never", runs: ["dev"] }]),
    ),
  });
  await repo.commit("a new wave", {
    "waves.json": JSON.stringify(specOf([
      { name: "dev", gate: "never", runs: ["dev"] },
      { name: "new", gate: "never", runs: ["n1"] },
    ])),
  });
  const dryRun = (wave: string, base: string) =>
    runBinary(
      ["run", ...SPEC, "--wave", wave, "--base", base, "--dry-run"],
      { cwd: repo.path },
    );
  const cases = [
    {
      name: "file absent at base",
      wave: "dev",
      base: noSpec,
      code: 3,
      line: `policy of wave 1 "dev": always (the spec is not in ${
        noSpec.slice(0, 12)
      })\n`,
    },
    {
      name: "file unparsable at base: read where it was absent before",
      wave: "dev",
      base: broken,
      code: 3,
      line: `warning: waves.json does not parse at ${
        broken.slice(0, 12)
      } (waves.json:1:27: invalid JSONC: unexpected end of input), and no version before it parses (${
        noSpec.slice(0, 12)
      } has no waves.json): every wave needs an approval, as with no spec at base\n`,
    },
    {
      name: "no such wave at base (a new wave)",
      wave: "new",
      base: devOnly,
      code: 3,
      line: `policy of wave 2 "new": always (no wave at ${
        devOnly.slice(0, 12)
      } governs wave 2 "new")\n`,
    },
    {
      name: "wave found with its gate",
      wave: "dev",
      base: devOnly,
      code: 0,
      line: `policy of wave 1 "dev": never (read at ${
        devOnly.slice(0, 12)
      } in waves.json, blob ${
        (await repo.git("rev-parse", `${devOnly}:waves.json`)).slice(0, 12)
      }: wave 1 "dev" by name and position)\n`,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const out = await dryRun(c.wave, c.base);
      expect(out.stderr).toContain(c.line);
      expect(out.code).toBe(c.code);
    });
  }
});

Deno.test("run with on-destructive waits only when a member is destructive; an all-empty wave never waits", async (t) => {
  await using r = await rollout(
    specOf([
      { name: "prod", gate: "on-destructive", runs: ["eu", "us"] },
      { name: "quiet", gate: "always", runs: ["q1", "q2"] },
    ]),
  );

  await t.step("no member destructive: applies, exit 0", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      'gate tf-wave-1: no approval needed: the policy is "on-destructive" and no member is destructive\n',
    );
    expect(await r.applied()).toEqual(["eu", "us"]);
    // No gate was involved: only the wave's outcome is recorded.
    expect((await r.records("tf-wave-1")).map((x) => x.kind)).toEqual([
      "wave-outcome",
    ]);
  });

  await t.step("one member destructive: waits, exit 3", async () => {
    await r.clearApplied();
    await r.desire("us", "destroy the bucket");
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      'gate tf-wave-1: waiting: the policy is "on-destructive" and 1 member is destructive: "us"\n',
    );
    expect(await r.applied()).toEqual([]);
    const { members } = await r.readJson(".chant/waves/tf/wave-1.json");
    expect((members as { target: string }[]).find((m) => m.target === "us"))
      .toMatchObject({ destructive: true });
  });

  await t.step("an all-empty wave under always never waits", async () => {
    await r.desire("q1", "empty");
    await r.desire("q2", "empty");
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "gate tf-wave-2: no approval needed: every member's plan is empty\n",
    );
    expect((await r.records("tf-wave-2")).map((x) => x.kind)).toEqual([
      "wave-outcome",
    ]);
    expect((await r.readJson(".chant/waves/tf/wave-2.json")).status).toBe(
      "not-required",
    );
  });

  await t.step("one empty member and one not: waits", async () => {
    await r.desire("q2", "a change");
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.code).toBe(3);
  });
});
