// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test (SPEC.md §17): what approvers see of a tenant wave. The
// waiting log, `show` and the job summary name the tenants of one identical
// plan once, name a tenant whose plan differs from the rest of its wave as
// drifted (one was deployed by hand), and quote the statements that make the
// plan destructive.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  exampleFiles,
  SPEC_FLAGS,
  tenantRepo,
  withChanges,
} from "../_helpers/tenants.ts";

/** How the summary names the destructive change, with its first statement. */
const DROP =
  'drop_note (ALTER TABLE … DROP COLUMN, line 2: "ALTER TABLE accounts DROP COLUMN note")';
/** The statement as the plan quotes it, under the change. */
const QUOTED =
  "drop_note: deploy/drop_note.sql:2: ALTER TABLE … DROP COLUMN: ALTER TABLE accounts DROP COLUMN note";

const SPEC = JSON.stringify({
  name: "tenants",
  tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
  heartbeat: 0,
  waves: [{
    name: "staging",
    runs: ["a", "b", "c", "d"],
    gate: "on-destructive",
  }],
});

Deno.test("run and show with sqitch: tenants of one plan together, a drifted one named, the destructive statements quoted", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_a", "tenant_b", "tenant_c", "tenant_d"]);
  const files: Record<string, string> = {
    ...await exampleFiles(),
    "waves.jsonc": SPEC,
  };
  await using r = await tenantRepo(pg, files);
  // Tenant d got the example's changes by hand, before this rollout.
  await r.sqitch(["deploy", "--target=db:pg:tenant_d"]);
  await r.repo.commit(
    "head: drop the note",
    withChanges(files["db/sqitch.plan"], [{
      name: "drop_note",
      requires: ["accounts"],
      deploy: "BEGIN;\nALTER TABLE accounts DROP COLUMN note;\nCOMMIT;\n",
    }]),
  );
  const summary = `${r.path}/summary.md`;

  await t.step("the waiting log", async () => {
    const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"], {
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `  3 runs (a, b, c): 3 changes to deploy; destructive: ${DROP} (destructive)\n` +
        `  d: 1 change to deploy; destructive: ${DROP} (destructive); ` +
        "drifted: its plan differs from the other 3 runs of the wave\n" +
        "  3 runs (a, b, c): + accounts (deploy), + invoices (deploy), + drop_note (deploy)\n" +
        `    ${QUOTED}\n` +
        "  d: + drop_note (deploy)\n" +
        `    ${QUOTED}\n`,
    );
    expect(out.stderr).not.toMatch(/^ {2}[abc]: /m);
  });

  await t.step("show", async () => {
    const out = await r.run(["show", ...SPEC_FLAGS, "--wave", "1"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines).toContain(
      `  3 runs (a, b, c)  DESTROYS  3 changes to deploy; destructive: ${DROP}`,
    );
    expect(lines).toContain(
      `  d                 DESTROYS  1 change to deploy; destructive: ${DROP}; ` +
        "drifted: its plan differs from the other 3 runs of the wave",
    );
    expect(out.stdout).toContain(
      "what will change:\n" +
        "  3 runs (a, b, c): + accounts (deploy), + invoices (deploy), + drop_note (deploy)\n" +
        `    ${QUOTED}\n`,
    );
  });

  await t.step("the job summary", async () => {
    const markdown = await Deno.readTextFile(summary);
    expect(markdown).toContain(
      "- 3 runs (a, b, c): + accounts (deploy), + invoices (deploy), + drop\\_note (deploy)\n" +
        "  - drop\\_note: deploy/drop\\_note.sql:2: ALTER TABLE … DROP COLUMN: ALTER TABLE accounts DROP COLUMN note\n" +
        "- d: + drop\\_note (deploy); drifted: its plan differs from the other 3 runs of the wave\n",
    );
  });
});
