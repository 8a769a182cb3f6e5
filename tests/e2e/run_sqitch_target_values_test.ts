// The plan digest covers the target with the wave's values filled in (the
// fifth attack round on the migration gate): under `db:pg:{wave}_{target}` a
// change that only renamed its waves kept staging's approved digest and ran
// it on prod's database. Through the binary, with real sqitch and PostgreSQL.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine } from "../_helpers/rollout.ts";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  attackChange,
  exampleFiles,
  SPEC_FLAGS,
  tenantRepo,
  withChanges,
} from "../_helpers/tenants.ts";

/** Two always-gated waves of one run, each on a database of its own name. */
function spec(first: string, second: string): string {
  return JSON.stringify({
    name: "tenants",
    tool: { kind: "sqitch", dir: "db", target: "db:pg:{wave}_{target}" },
    heartbeat: 0,
    order: "none",
    waves: [
      { name: first, runs: ["t1"], gate: "always" },
      { name: second, runs: ["t1"], gate: "always" },
    ],
  });
}

Deno.test("run with sqitch: a staging approval never runs on prod's database after a wave is renamed", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["staging_t1", "prod_t1", "qa_t1"]);
  const files = await exampleFiles();
  await using r = await tenantRepo(pg, {
    ...files,
    "waves.jsonc": spec("staging", "prod"),
  });
  for (const db of ["staging_t1", "prod_t1"]) {
    await r.sqitch(["deploy", `--target=db:pg:${db}`]);
    await pg.sql(db, "INSERT INTO accounts (email) VALUES ('ann@example.com')");
  }
  await r.repo.commit(
    "the purge",
    withChanges(files["db/sqitch.plan"], [
      attackChange("purge", "DELETE FROM accounts;\n"),
    ]),
  );
  const wave1 = ["run", ...SPEC_FLAGS, "--wave", "1"];
  const waiting = await r.run(wave1);
  expect(waiting.code).toBe(3);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);

  await r.repo.commit("the waves renamed", {
    "waves.jsonc": spec("prod", "qa"),
  });
  const renamed = await r.run(wave1);
  expect(renamed.code).toBe(3);
  expect(renamed.stderr).not.toContain("approved by ann");
  expect(renamed.stderr).toMatch(/^gate tenants-wave-1: waiting/m);
  expect(await pg.sql("prod_t1", "SELECT count(*) FROM accounts")).toBe("1");
});
