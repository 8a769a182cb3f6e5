// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test: the apply deploys exactly what was planned, an edited
// deploy script moves the digest, a database that moved since the plan is
// refused as moved, and an unreachable server fails naming the database
// without its password.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine } from "../_helpers/rollout.ts";
import {
  freePort,
  requireSqitch,
  startPostgres,
} from "../_helpers/postgres.ts";
import {
  exampleFiles,
  oneWaveSpec,
  SPEC_FLAGS,
  tenantRepo,
} from "../_helpers/tenants.ts";

/** Appends change `late` to the plan, with its deploy script (a before-apply hook). */
const ADD_LATE = [
  "printf '%s\\n' 'late [invoices] 2025-04-01T09:00:00Z Ann Example <ann@example.com> # late' >> db/sqitch.plan",
  "printf 'CREATE TABLE late (id int);\\n' > db/deploy/late.sql",
].join(" && ");

Deno.test("run with sqitch: the apply deploys exactly the approved plan", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_a", "tenant_b", "tenant_c"]);

  await t.step(
    "a change added to the plan after the approval is not deployed",
    async () => {
      await using r = await tenantRepo(pg, {
        ...await exampleFiles(),
        "waves.jsonc": oneWaveSpec("a", {
          name: "prod",
          gate: "always",
          hooks: {
            "before-apply": [{ name: "late", run: ["sh", "-c", ADD_LATE] }],
          },
        }),
      });
      await r.repo.commit("head: the change");
      const waiting = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      const approve = await r.run([
        ...approveLine(waiting.stderr),
        "--by",
        "ann",
      ]);
      expect(approve.code).toBe(0);
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        "[apply] a | Deploying changes through invoices to db:pg:tenant_a\n",
      );
      expect(await r.deployed("a")).toEqual(["accounts", "invoices"]);
      expect(await Deno.readTextFile(`${r.path}/db/sqitch.plan`)).toContain(
        "late [invoices]",
      );
    },
  );

  await t.step(
    "an edited deploy script moves the digest: the approval no longer covers it",
    async () => {
      await using r = await tenantRepo(pg, {
        ...await exampleFiles(),
        "waves.jsonc": oneWaveSpec("b", {
          name: "prod",
          gate: "always",
        }),
      });
      await r.repo.commit("head: the change");
      const waiting = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      const approve = await r.run([
        ...approveLine(waiting.stderr),
        "--by",
        "ann",
      ]);
      expect(approve.code).toBe(0);
      const script = `${r.path}/db/deploy/invoices.sql`;
      await Deno.writeTextFile(
        script,
        (await Deno.readTextFile(script)).replace(
          "total_cents bigint",
          "total_cents numeric",
        ),
      );
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain("b: its plan moved since the approval");
      expect(await r.deployed("b")).toEqual([]);
    },
  );

  await t.step(
    "a database that moved between the plan and the apply is refused as moved (exit 4)",
    async () => {
      const byHand =
        "sqitch --chdir=db deploy --target=db:pg:tenant_c --to=accounts";
      await using r = await tenantRepo(pg, {
        ...await exampleFiles(),
        "waves.jsonc": oneWaveSpec("c", {
          name: "prod",
          gate: "never",
          hooks: {
            "before-apply": [{ name: "by-hand", run: ["sh", "-c", byHand] }],
          },
        }),
      });
      await r.repo.commit("head: the change");
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(4);
      expect(out.stderr).toMatch(
        /^moved: apply of "c": "db:pg:tenant_c" moved since the plan: it had deployed nothing, it has deployed [0-9a-f]{12} now; nothing deployed$/m,
      );
      expect(out.stderr).toContain(
        "error: refused 1 run whose target moved since it was planned: c\n",
      );
      expect(await r.deployed("c")).toEqual(["accounts"]);
    },
  );
});

Deno.test("run with sqitch: an unreachable server fails the plan, naming the database without its password", async () => {
  await requireSqitch();
  const port = freePort();
  const target = `db:pg://postgres:s3cr3t-pw@127.0.0.1:${port}/tenant_{target}`;
  await using r = await tenantRepo(undefined, {
    ...await exampleFiles(),
    "waves.jsonc": oneWaveSpec("x", {
      name: "prod",
      gate: "never",
    }, target),
  });
  await r.repo.commit("head: the change");
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain(
    `failed: plan of "x": cannot read what "db:pg://***@127.0.0.1:${port}/tenant_x" has deployed: "sqitch status" exited 2\n`,
  );
  expect(out.stderr).toContain("Connection refused");
  expect(out.stdout + out.stderr).not.toContain("s3cr3t-pw");
});
