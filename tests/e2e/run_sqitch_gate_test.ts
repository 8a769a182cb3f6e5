// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test: which deploy scripts are destructive under an
// on-destructive gate, and when a "-- chant-wave: not destructive" mark counts.
// The attacks of issue 35 are in run_sqitch_attack_test.ts.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  exampleFiles,
  SPEC_FLAGS,
  tenantRepo,
  withChanges,
} from "../_helpers/tenants.ts";

/** A one-wave spec over the example's project: tenant `tenant`, on-destructive. */
function gateSpec(tenant: string, wave: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name: "tenants",
    tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
    heartbeat: 0,
    waves: [{
      name: "staging",
      runs: [tenant],
      gate: "on-destructive",
      ...wave,
    }],
  });
}

/** The example's project with `spec` as waves.jsonc. */
async function filesWith(spec: string): Promise<Record<string, string>> {
  return { ...await exampleFiles(), "waves.jsonc": spec };
}

const DROP_NOTE = {
  name: "drop_note",
  requires: ["accounts"],
  deploy: "BEGIN;\nALTER TABLE accounts DROP COLUMN note;\nCOMMIT;\n",
};

Deno.test("run with sqitch: an on-destructive wave waits for a destructive deploy script only", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_a", "tenant_b"]);

  await t.step("a dropped column waits, and nothing is deployed", async () => {
    const files = await filesWith(gateSpec("a"));
    await using r = await tenantRepo(pg, files);
    await r.repo.commit(
      "head: drop the note",
      withChanges(files["db/sqitch.plan"], [DROP_NOTE]),
    );
    const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      '  a: 3 changes to deploy; destructive: drop_note (ALTER TABLE … DROP COLUMN, line 2: "ALTER TABLE accounts DROP COLUMN note")',
    );
    expect(out.stderr).toContain(
      'the policy is "on-destructive" and 1 member is destructive: "a"',
    );
    expect(await r.deployed("a")).toEqual([]);
  });

  await t.step(
    "DROP in comments, strings, dollar quotes and identifiers does not count: it applies",
    async () => {
      const files = await filesWith(gateSpec("b"));
      await using r = await tenantRepo(pg, files);
      await r.repo.commit(
        "head: an audit table",
        withChanges(files["db/sqitch.plan"], [{
          name: "audit",
          requires: ["accounts"],
          deploy: [
            "-- DROP TABLE accounts;",
            "/* DROP TABLE accounts; /* nested */ TRUNCATE accounts; */",
            'CREATE TABLE audit (id int, "drop table accounts" text);',
            "COMMENT ON TABLE audit IS 'DROP TABLE accounts; TRUNCATE accounts';",
            "CREATE FUNCTION audit_note() RETURNS text LANGUAGE sql",
            "  AS $body$ SELECT 'DELETE FROM accounts' $body$;",
            "",
          ].join("\n"),
        }]),
      );
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain("  b: 3 changes to deploy\n");
      expect(out.stderr).toContain(
        'no approval needed: the policy is "on-destructive" and no member is destructive',
      );
      expect(await r.deployed("b")).toEqual(["accounts", "invoices", "audit"]);
    },
  );
});

Deno.test("run with sqitch: a not-destructive mark counts only when the spec at base honours marks", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_m"]);
  const ignoring = gateSpec("m");
  const honouring = gateSpec("m", { destructiveOverrides: "honour" });
  const files = await filesWith(ignoring);
  await using r = await tenantRepo(pg, files);
  const merged = await r.repo.commit(
    "head: a marked drop, and marks honoured",
    {
      ...withChanges(files["db/sqitch.plan"], [{
        ...DROP_NOTE,
        deploy:
          `-- chant-wave: not destructive: nobody wrote a note yet\n${DROP_NOTE.deploy}`,
      }]),
      "waves.jsonc": honouring,
    },
  );

  await t.step("the change's own spec cannot let its mark count", async () => {
    const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(
      /^destructive overrides of wave 1 "staging": ignored \(read at [0-9a-f]{12}: wave 1 "staging" by name and position\)$/m,
    );
    expect(out.stderr).toContain(
      'note: this change says destructiveOverrides "honour" for wave 1 "staging"; it is read at base, so not-destructive marks are ignored for this change, and honoured for a change based on it',
    );
    expect(out.stderr).toContain(
      '  m: 3 changes to deploy; destructive: drop_note (ALTER TABLE … DROP COLUMN, line 3: "ALTER TABLE accounts DROP COLUMN note"; its mark is ignored)',
    );
  });

  await t.step(
    "once the base honours marks, the marked change applies without waiting",
    async () => {
      await r.repo.commit("head: the next change");
      // The next change is pushed on top of the one that honours marks.
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"], {
        GITLAB_CI: "true",
        CI_PIPELINE_SOURCE: "push",
        CI_COMMIT_BEFORE_SHA: merged,
      });
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        /^destructive overrides of wave 1 "staging": honoured \(read at /m,
      );
      expect(out.stderr).toContain(
        "  m: 3 changes to deploy; marked not destructive: drop_note\n",
      );
      expect(await r.deployed("m")).toEqual([
        "accounts",
        "invoices",
        "drop_note",
      ]);
    },
  );
});
