// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test: `chant-wave plan-file sqitch DIR TARGET PLAN_FILE`.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import {
  freePort,
  requireSqitch,
  startPostgres,
} from "../_helpers/postgres.ts";
import { exampleFiles } from "../_helpers/tenants.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

/** The ids `sqitch plan` gives the example's changes (their planner and dates are fixed). */
const ACCOUNTS = "dc2462de80ae44f4b7a6bde7c36a69b6831e3c26";
const INVOICES = "43e6f38d03c8c9c0bb7d4c50e2e572b38e352649";

async function sha256(
  bytes: string | Uint8Array<ArrayBuffer>,
): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes,
  );
  return `sha256:${
    [...new Uint8Array(digest)]
      .map((byte) => byte.toString(16).padStart(2, "0")).join("")
  }`;
}

/**
 * The digest SPEC'd for a plan: over the project, the target, the database's
 * change, the client, verify, sqitch.conf, the plan file and each pending
 * change's files.
 */
async function planDigest(
  files: Record<string, string>,
  target: string,
  deployed: string | null,
  changes: [string, string][],
): Promise<string> {
  const psql = await Deno.readFile(await Deno.realPath("/usr/bin/psql"));
  const covered = {
    kind: "sqitch-plan",
    version: 3,
    project: "tenants",
    target,
    deployed,
    client: { path: "/usr/bin/psql", sha256: await sha256(psql) },
    verify: false,
    config: await sha256(files["db/sqitch.conf"]),
    plan: await sha256(files["db/sqitch.plan"]),
    changes: await Promise.all(changes.map(async ([id, name]) => ({
      id,
      name,
      files: [{
        path: `deploy/${name}.sql`,
        sha256: await sha256(files[`db/deploy/${name}.sql`]),
      }],
    }))),
  };
  return await sha256(JSON.stringify(covered));
}

/** The apply state a plan of the example gives: how sqitch will deploy. */
const HOW = { program: "sqitch", client: "/usr/bin/psql", verify: false };

Deno.test("chant-wave plan-file sqitch writes the plan of a database's pending changes", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_one", "tenant_two"]);
  const files = await exampleFiles();
  await using dir = await tempRepo(files);
  const env = { PATH: "/usr/bin:/bin", ...pg.env };
  const planFile = async (target: string, ...flags: string[]) =>
    await runBinary(
      ["plan-file", "sqitch", "db", target, "out/plan.json", ...flags],
      { cwd: dir.path, env },
    );
  let fresh = "";

  await t.step(
    "every change of a fresh database, with what an apply needs",
    async () => {
      const out = await planFile("db:pg:tenant_one", "--json");
      expect(out.code).toBe(0);
      expect(out.stderr).toBe('wrote "out/plan.json": 2 changes to deploy\n');
      const plan = JSON.parse(
        await Deno.readTextFile(`${dir.path}/out/plan.json`),
      );
      expect(JSON.parse(out.stdout)).toEqual(plan);
      expect(plan).toEqual({
        planDigest: await planDigest(files, "db:pg:tenant_one", null, [
          [ACCOUNTS, "accounts"],
          [INVOICES, "invoices"],
        ]),
        destructive: false,
        empty: false,
        summary: "2 changes to deploy",
        changes: [
          { address: "accounts", action: "deploy" },
          { address: "invoices", action: "deploy" },
        ],
        sqitch: {
          project: "tenants",
          deployed: null,
          deployTo: INVOICES,
          ...HOW,
        },
      });
      fresh = plan.planDigest;
    },
  );

  await t.step(
    "another database in the same state plans another digest: the digest covers the target",
    async () => {
      const out = await planFile("db:pg:tenant_two");
      expect(out.code).toBe(0);
      const plan = JSON.parse(
        await Deno.readTextFile(`${dir.path}/out/plan.json`),
      );
      expect(plan.planDigest).toBe(
        await planDigest(files, "db:pg:tenant_two", null, [
          [ACCOUNTS, "accounts"],
          [INVOICES, "invoices"],
        ]),
      );
      expect(plan.planDigest).not.toBe(fresh);
    },
  );

  await t.step(
    "a database that has the first change plans the rest, under another digest",
    async () => {
      const deploy = await new Deno.Command("sqitch", {
        args: [
          "--chdir=db",
          "deploy",
          "--target=db:pg:tenant_two",
          "--to=accounts",
        ],
        cwd: dir.path,
        clearEnv: true,
        env,
        stdout: "null",
        stderr: "null",
      }).output();
      expect(deploy.code).toBe(0);
      const out = await planFile("db:pg:tenant_two");
      expect(out.code).toBe(0);
      expect(out.stderr).toBe('wrote "out/plan.json": 1 change to deploy\n');
      const plan = JSON.parse(
        await Deno.readTextFile(`${dir.path}/out/plan.json`),
      );
      expect(plan.planDigest).not.toBe(fresh);
      expect(plan.sqitch).toEqual({
        project: "tenants",
        deployed: ACCOUNTS,
        deployTo: INVOICES,
        ...HOW,
      });
    },
  );

  await t.step(
    "an unreachable server: exit 1, the database named, no password, no plan file",
    async () => {
      await Deno.remove(`${dir.path}/out/plan.json`);
      const port = freePort();
      const out = await planFile(
        `db:pg://postgres:s3cr3t-pw@127.0.0.1:${port}/tenant_one`,
      );
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `error: plan of "db:pg://***@127.0.0.1:${port}/tenant_one": cannot read what "db:pg://***@127.0.0.1:${port}/tenant_one" has deployed: "sqitch status" exited 2\n`,
      );
      expect(out.stdout + out.stderr).not.toContain("s3cr3t-pw");
      await expect(Deno.stat(`${dir.path}/out/plan.json`)).rejects.toThrow(
        Deno.errors.NotFound,
      );
    },
  );
});

Deno.test("chant-wave plan-file sqitch refuses bad words and flags (exit 2)", async (t) => {
  const cases = [
    {
      name: "too few words",
      args: ["sqitch", "db", "db:pg:x"],
      stderr:
        'error: "plan-file" needs the tool, DIR, TARGET and PLAN_FILE (e.g. "chant-wave plan-file sqitch db db:pg://localhost/app plan.json"); got "sqitch db db:pg:x"\n',
    },
    {
      name: "a sqitch flag for opentofu",
      args: ["opentofu", "show.json", "plan.json", "--honour-marks"],
      stderr: 'error: "--honour-marks" is for "plan-file sqitch"\n',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const out = await runBinary(["plan-file", ...c.args], { cwd: "/" });
      expect(out).toEqual({ code: 2, stdout: "", stderr: c.stderr });
    });
  }
});
