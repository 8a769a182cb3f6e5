// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test (SPEC.md §17, §19): a tenant fleet applied at HEAD, then
// one tenant changed by hand. `drift` names it (exit 5) among its siblings;
// `--record` records the wave's plans as a pending fact, and only an approval
// of it deploys the tenant again, once. A tenant whose database holds a change
// the plan lacks cannot be planned: drift says so (exit 1), naming it.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  exampleFiles,
  runThenApprove,
  SPEC_FLAGS,
  tenantRepo,
  withChanges,
} from "../_helpers/tenants.ts";

const CHANGES = ["accounts", "invoices"];
const TENANTS = ["a", "b", "c"];

function spec(): string {
  return JSON.stringify({
    name: "tenants",
    tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
    heartbeat: 0,
    waves: [{ name: "prod", runs: TENANTS, gate: "always" }],
  });
}

Deno.test("drift with sqitch: a tenant changed by hand is named (exit 5), and --record puts it right through one approval", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(TENANTS.map((tenant) => `tenant_${tenant}`));
  await using r = await tenantRepo(pg, {
    ...await exampleFiles(),
    "waves.jsonc": spec(),
  });
  await r.repo.commit("head: the rollout");
  const wave = ["run", ...SPEC_FLAGS, "--wave", "1"];
  await runThenApprove(r, wave);
  expect((await r.run(wave)).code).toBe(0);
  for (const tenant of TENANTS) {
    expect(await r.deployed(tenant)).toEqual(CHANGES);
  }

  await t.step("no drift: exit 0", async () => {
    const out = await r.run(["drift", ...SPEC_FLAGS]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("no drift: every run of 1 waves plans");
  });

  await t.step(
    "b reverted by hand: exit 5, b named, nothing recorded",
    async () => {
      await r.sqitch([
        "revert",
        "-y",
        "--target=db:pg:tenant_b",
        "--to",
        "accounts",
      ]);
      expect(await r.deployed("b")).toEqual(["accounts"]);
      const out = await r.run(["drift", ...SPEC_FLAGS, "--json"]);
      expect(out.code).toBe(5);
      expect(out.stderr).toMatch(
        /^drift: wave 1 "prod": 1 run of 3 drifted \(b\), set digest sha256:[0-9a-f]{64}; --record records its plans for an approval$/m,
      );
      const [found] = JSON.parse(out.stdout).waves;
      expect(found.drifted.map((run: { target: string }) => run.target))
        .toEqual(["b"]);
      expect(found.drifted[0]).toMatchObject({ changes: true, differsFrom: 2 });
      expect(await r.deployed("b")).toEqual(["accounts"]);
    },
  );

  await t.step(
    "--record, approve, run: b deployed once; again, nothing",
    async () => {
      const recorded = await r.run([
        "drift",
        ...SPEC_FLAGS,
        "--record",
        "--json",
      ]);
      expect(recorded.code).toBe(5);
      const { digest } = JSON.parse(recorded.stdout).waves[0];
      const waiting = await r.run(wave);
      expect(waiting.code).toBe(3);
      expect(waiting.stderr).toContain(
        `then approve: chant-wave approve tenants tenants-wave-1 --plan ${digest}\n`,
      );
      expect(await r.deployed("b")).toEqual(["accounts"]);
      const approve = await r.run([
        "approve",
        "tenants",
        "tenants-wave-1",
        "--by",
        "ann",
      ]);
      expect(approve.code).toBe(0);
      expect(approve.stderr).toContain(`for ${digest}`);
      const applied = await r.run(wave);
      expect(applied.code).toBe(0);
      expect(await r.deployed("b")).toEqual(CHANGES);
      const again = await r.run(wave);
      expect(again.code).toBe(0);
      const after = await r.run(["drift", ...SPEC_FLAGS]);
      expect(after.code).toBe(0);
    },
  );

  await t.step("c holds a change the plan lacks: exit 1, c named", async () => {
    // A change deployed by hand from another project plan: sqitch of that
    // plan, against c only.
    const plan = await Deno.readTextFile(`${r.path}/db/sqitch.plan`);
    const extra = withChanges(plan, [{
      name: "notes",
      deploy: "CREATE TABLE notes (id int);\n",
      requires: ["invoices"],
    }]);
    for (const [path, text] of Object.entries(extra)) {
      await r.repo.write(path, text);
    }
    await r.sqitch(["deploy", "--target=db:pg:tenant_c"]);
    await r.repo.git("checkout", "--", "db/sqitch.plan");
    for (const path of Object.keys(extra)) {
      if (path !== "db/sqitch.plan") await Deno.remove(`${r.path}/${path}`);
    }
    expect(await r.deployed("c")).toEqual([...CHANGES, "notes"]);
    const out = await r.run(["drift", ...SPEC_FLAGS, "--json"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      'error: wave 1 "prod" did not plan; its drift is unknown\n',
    );
    expect(out.stderr).toMatch(/c.*is not in the plan/);
    expect(JSON.parse(out.stdout).failed).toEqual([
      { wave: 1, name: "prod", targets: ["c"] },
    ]);
  });
});
