// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test: the tenants example (examples/tenants/) rolls a new
// change out to dev (1 tenant, no gate), staging (3 tenants, on-destructive)
// and prod (20 tenants in region groups, always, 2 approvers).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine } from "../_helpers/rollout.ts";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  exampleFiles,
  SPEC_FLAGS,
  tenantRepo,
  withChanges,
} from "../_helpers/tenants.ts";

const PROD = [
  ...["eu", "us"].flatMap((region) =>
    Array.from({ length: 8 }, (_, i) => `${region}-0${i + 1}`)
  ),
  ...Array.from({ length: 4 }, (_, i) => `ap-0${i + 1}`),
];
const TENANTS = ["dev-01", "stg-01", "stg-02", "stg-03", ...PROD];

/** The members of a decision record: target → plan digest. */
async function decidedDigests(
  path: string,
  k: number,
): Promise<Map<string, string>> {
  const record = JSON.parse(
    await Deno.readTextFile(`${path}/.chant/waves/tenants/wave-${k}.json`),
  );
  return new Map(
    record.members.map((m: { target: string; planDigest: string }) => [
      m.target,
      m.planDigest,
    ]),
  );
}

Deno.test("the tenants example deploys a new change to dev, staging and 20 prod tenants in region groups; a drifted tenant plans differently", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(TENANTS.map((tenant) => `tenant_${tenant}`));
  const files = await exampleFiles();
  await using r = await tenantRepo(pg, files);
  await r.repo.commit(
    "head: invoices get a due date",
    withChanges(files["db/sqitch.plan"], [{
      name: "add_due_date",
      requires: ["invoices"],
      deploy: "ALTER TABLE invoices ADD COLUMN due_date date;\n",
    }]),
  );
  // eu-03 drifted: someone deployed its first change by hand.
  await r.sqitch(["deploy", "--target=db:pg:tenant_eu-03", "--to=accounts"]);

  await t.step("dev applies without a gate", async () => {
    const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("  dev-01: 3 changes to deploy\n");
    expect(out.stderr).toContain(
      "[apply] dev-01 | Deploying changes through add_due_date to db:pg:tenant_dev-01\n",
    );
    expect(await r.deployed("dev-01")).toEqual([
      "accounts",
      "invoices",
      "add_due_date",
    ]);
  });

  await t.step(
    "staging's changes destroy nothing, so it applies without waiting",
    async () => {
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "2"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        'gate tenants-wave-2: no approval needed: the policy is "on-destructive" and no member is destructive\n',
      );
      for (const tenant of ["stg-01", "stg-02", "stg-03"]) {
        expect((await r.deployed(tenant)).at(-1)).toBe("add_due_date");
      }
    },
  );

  let approve: string[] = [];
  await t.step(
    "prod's deciding job waits; tenants in the same state plan the same digest, the drifted one another",
    async () => {
      const out = await r.run([
        "run",
        ...SPEC_FLAGS,
        "--wave",
        "3",
        "--decide",
      ]);
      expect(out.code).toBe(3);
      const digests = await decidedDigests(r.path, 3);
      expect([...digests.keys()].sort()).toEqual([...PROD].sort());
      const same = PROD.filter((tenant) => tenant !== "eu-03")
        .map((tenant) => digests.get(tenant));
      expect(new Set(same).size).toBe(1);
      expect(digests.get("eu-03")).not.toBe(same[0]);
      // One line for the 19 tenants of one plan, one for the drifted one.
      expect(out.stderr).toContain(
        "  19 runs (ap-01, ap-02, ap-03 and 16 more): 3 changes to deploy\n",
      );
      expect(out.stderr).toContain(
        "  eu-03: 2 changes to deploy; drifted: its plan differs from the other 19 runs of the wave\n",
      );
      expect(out.stderr).not.toContain("  eu-04: ");
      approve = approveLine(out.stderr);
      for (const tenant of PROD) {
        expect(await r.deployed(tenant)).not.toContain("invoices");
      }
    },
  );

  await t.step(
    "two approvers, then the deciding job stands approved",
    async () => {
      for (const by of ["ann@example.com", "bob@example.com"]) {
        const out = await r.run([...approve, "--by", by]);
        expect(out.code).toBe(0);
      }
      const out = await r.run([
        "run",
        ...SPEC_FLAGS,
        "--wave",
        "3",
        "--decide",
      ]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        "decided: .chant/waves/tenants/wave-3.json\n",
      );
    },
  );

  await t.step(
    "each region's group job deploys exactly its tenants",
    async () => {
      for (const group of ["eu", "us", "ap"]) {
        const out = await r.run([
          "run",
          ...SPEC_FLAGS,
          "--wave",
          "3",
          "--group",
          group,
        ]);
        expect(out.code).toBe(0);
        expect(out.stderr).toContain(`slice: ${group}-01, ${group}-02`);
        expect(out.stderr).not.toContain("[apply] dev-01");
      }
      for (const tenant of PROD) {
        expect(await r.deployed(tenant)).toEqual([
          "accounts",
          "invoices",
          "add_due_date",
        ]);
      }
    },
  );
});
