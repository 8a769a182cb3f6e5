// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test: planning a tenant fleet asks each database's sqitch
// registry what it has deployed in one psql command, and the plans, digests,
// lines and exit codes are those `sqitch status` gave (forced by
// SQITCH_USERNAME, which only sqitch itself reads), for databases in every
// state: no registry, another project's registry, partly, fully, reverted,
// up to a tag, a reworked change, and registries of another release or
// without their releases table (which sqitch itself answers).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import { exampleFiles, SPEC_FLAGS, tenantRepo } from "../_helpers/tenants.ts";

/** Each tenant's state, and the changes its plan deploys at head. */
const TENANTS: Record<string, number> = {
  fresh: 3,
  other: 3,
  part: 2,
  reverted: 2,
  full: 1,
  tagged: 1,
  reworked: 0,
  old: 1,
  norelease: 2,
};

/** The head's plan: the example's, a tag, and `accounts` reworked. */
function reworked(files: Record<string, string>): Record<string, string> {
  const at = (path: string) => files[`db/${path}`];
  return {
    "db/sqitch.plan":
      `${
        at("sqitch.plan")
      }@v1 2025-02-01T09:00:00Z Ann Example <ann@example.com> # v1\n` +
      "accounts [accounts@v1] 2025-02-03T09:00:00Z Ann Example <ann@example.com> # Accounts get a region\n",
    ...Object.fromEntries(
      ["deploy", "revert", "verify"].map((
        script,
      ) => [`db/${script}/accounts@v1.sql`, at(`${script}/accounts.sql`)]),
    ),
    "db/deploy/accounts.sql":
      "BEGIN;\nALTER TABLE accounts ADD COLUMN region text;\nCOMMIT;\n",
    "db/revert/accounts.sql":
      "BEGIN;\nALTER TABLE accounts DROP COLUMN region;\nCOMMIT;\n",
    "db/verify/accounts.sql": "SELECT region FROM accounts WHERE false;\n",
  };
}

Deno.test("planning a tenant fleet asks each registry through psql and plans what sqitch status gave", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  const names = Object.keys(TENANTS);
  await pg.createDatabases(names.map((tenant) => `tenant_${tenant}`));
  const files = await exampleFiles();
  await using r = await tenantRepo(pg, {
    ...files,
    "waves.jsonc": JSON.stringify({
      name: "tenants",
      tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
      heartbeat: 0,
      parallel: 3,
      waves: [{ name: "prod", runs: names, gate: "always" }],
    }),
  });
  // sqitch and psql as chant-wave finds them on PATH: the real ones, each
  // sqitch call logged, and the server options of each psql.
  await using bin = await tempDir({
    sqitch: '#!/bin/sh\necho "$*" >> "$0.log"\nexec /usr/bin/sqitch "$@"\n',
    psql: '#!/bin/sh\necho "$PGOPTIONS" >> "$0.log"\nexec /usr/bin/psql "$@"\n',
  });
  await Deno.chmod(`${bin.path}/sqitch`, 0o755);
  await Deno.chmod(`${bin.path}/psql`, 0o755);
  const logged = async (program: string) => {
    const log = `${bin.path}/${program}.log`;
    const text = await Deno.readTextFile(log).catch(() => "");
    await Deno.writeTextFile(log, "");
    return text.split("\n").filter((line) => line !== "");
  };
  const statusCalls = async () =>
    (await logged("sqitch")).filter((line) => / status /.test(line))
      .map((line) => /tenant_(\S+)/.exec(line)?.[1]).sort();
  const PATH = `${bin.path}:/usr/bin:/bin`;
  const deploy = (tenant: string, ...flags: string[]) =>
    r.sqitch(["deploy", `--target=db:pg:tenant_${tenant}`, ...flags]);

  // At base: the example's two changes (each tenant its own database, so
  // the deploys run side by side).
  await Promise.all([
    ...["part", "norelease"].map((tenant) => deploy(tenant, "--to=accounts")),
    ...["full", "reverted", "old"].map((tenant) => deploy(tenant)),
  ]);
  await r.sqitch([
    "revert",
    "-y",
    "--target=db:pg:tenant_reverted",
    "--to=accounts",
  ]);
  await pg.sql("tenant_old", "UPDATE sqitch.releases SET version = 1.0");
  await pg.sql("tenant_norelease", "DROP TABLE sqitch.releases");
  await using other = await tempDir({
    "sqitch.conf": "[core]\n\tengine = pg\n",
    "sqitch.plan":
      "%syntax-version=1.0.0\n%project=other\n\nx 2025-01-01T09:00:00Z Ann Example <ann@example.com> # x\n",
    "deploy/x.sql": "CREATE TABLE x (id int);\n",
    "revert/x.sql": "DROP TABLE x;\n",
    "verify/x.sql": "SELECT 1;\n",
  });
  const sqitchOther = await new Deno.Command("sqitch", {
    args: ["deploy", "--target=db:pg:tenant_other"],
    cwd: other.path,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin", ...pg.env },
  }).output();
  expect(sqitchOther.code).toBe(0);
  // At head: a tag and a reworked change.
  await r.repo.commit("head: accounts get a region", reworked(files));
  await deploy("tagged", "--to=@v1");
  await deploy("reworked");

  const viaSqitch = { PATH, SQITCH_USERNAME: pg.env.PGUSER };
  const planFile = (tenant: string, env: Record<string, string>) =>
    runBinary([
      "plan-file",
      "sqitch",
      "db",
      `db:pg:tenant_${tenant}`,
      `out/${tenant}.json`,
    ], { cwd: r.path, env: { ...pg.env, ...env } });

  await t.step(
    "each database's plan file, digest and exit are those sqitch status gave; sqitch is asked only where the registry is of another shape",
    async () => {
      // Each tenant its own database and plan file: three at a time.
      const compare = async (tenant: string) => {
        const fast = await planFile(tenant, { PATH });
        const plan = await Deno.readTextFile(`${r.path}/out/${tenant}.json`);
        const slow = await planFile(tenant, viaSqitch);
        const again = await Deno.readTextFile(`${r.path}/out/${tenant}.json`);
        return { tenant, fast, slow, plan, again };
      };
      const compared = [];
      for (let at = 0; at < names.length; at += 3) {
        compared.push(
          ...await Promise.all(names.slice(at, at + 3).map(compare)),
        );
      }
      for (const { tenant, fast, slow, plan, again } of compared) {
        expect([tenant, fast]).toEqual([tenant, slow]);
        expect(fast.code).toBe(0);
        const count = TENANTS[tenant];
        expect(fast.stderr).toBe(
          `wrote "out/${tenant}.json": ${count} change${
            count === 1 ? "" : "s"
          } to deploy\n`,
        );
        expect(again).toBe(plan);
      }
      // The forced runs asked sqitch for every tenant, the others for the
      // registries of another shape only.
      expect(await statusCalls()).toEqual(
        [...names, "norelease", "old"].sort(),
      );
      // One psql a tenant, read-only, after the deploy's own setting.
      expect(await logged("psql")).toEqual(
        names.map(() =>
          "-c standard_conforming_strings=on -c default_transaction_read_only=on"
        ),
      );
    },
  );

  await t.step(
    "a deciding job over the fleet prints the lines and waits (exit 3) as it did through sqitch status, with the same digests",
    async () => {
      const decide = ["run", ...SPEC_FLAGS, "--wave", "1", "--decide"];
      const record = `${r.path}/.chant/waves/tenants/wave-1.json`;
      const fast = await r.run(decide, { PATH });
      const decided = JSON.parse(await Deno.readTextFile(record)).members;
      expect(await statusCalls()).toEqual(["norelease", "old"]);
      await Deno.remove(`${r.path}/.chant`, { recursive: true });
      const slow = await r.run(decide, viaSqitch);
      expect(await statusCalls()).toEqual(names.toSorted());
      expect(JSON.parse(await Deno.readTextFile(record)).members).toEqual(
        decided,
      );
      expect(fast.code).toBe(3);
      expect(slow.code).toBe(3);
      const planLines = (stderr: string) =>
        stderr.split("\n").filter((line) => /^ {2}\S.*: /.test(line));
      expect(planLines(fast.stderr)).toEqual(planLines(slow.stderr));
      for (
        const line of [
          "  2 runs (fresh, other): 3 changes to deploy\n",
          "  3 runs (full, old, tagged): 1 change to deploy\n",
          "  3 runs (norelease, part, reverted): 2 changes to deploy\n",
          "  reworked: 0 changes to deploy (empty)\n",
          "  3 runs (norelease, part, reverted): + invoices (deploy), + accounts (deploy)\n",
        ]
      ) {
        expect(fast.stderr).toContain(line);
      }
    },
  );

  await t.step(
    "a registry row cannot forge the reply: a change id holding a newline and JSON fails the plan, naming the database (exit 1)",
    async () => {
      await pg.createDatabases(["tenant_forged"]);
      await deploy("forged", "--to=accounts@v1");
      await pg.sql(
        "tenant_forged",
        `INSERT INTO sqitch.changes SELECT E'x\\n{"registry":"none"}', 'forged', E'evil\\t\\n', project, E'note\\n', committed_at + interval '1 day', committer_name, committer_email, planned_at, planner_name, planner_email FROM sqitch.changes`,
      );
      const out = await planFile("forged", { PATH });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `error: plan of "db:pg:tenant_forged": cannot read what "db:pg:tenant_forged" has deployed: "${bin.path}/psql" answered "{\\"registry\\" : \\"known\\", \\"change\\" : \\"x\\\\n{\\\\\\"registry`,
      );
      expect(out.stderr).toContain('not one line of {"registry": …}\n');
      await expect(Deno.stat(`${r.path}/out/forged.json`)).rejects.toThrow(
        Deno.errors.NotFound,
      );
    },
  );
});
