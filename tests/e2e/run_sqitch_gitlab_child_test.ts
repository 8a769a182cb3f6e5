// A sqitch rollout's GitLab child pipeline takes its jobs' lines from the spec
// at base (the fourth attack round on the migration gate): the deciding job
// writes the child at run time, and an install line from the change's spec
// would run in the wave's share jobs with the wave's credentials. Through the
// binary, with real sqitch and a real PostgreSQL server.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  exampleFiles,
  oneWaveSpec,
  SPEC_FLAGS,
  tenantRepo,
} from "../_helpers/tenants.ts";

/** The one-wave spec of two tenants in two shares, its jobs installed by `install`. */
function spec(tenant: string, install: string): string {
  const wave = { gate: "on-destructive", shares: 2 };
  const parsed = JSON.parse(oneWaveSpec(tenant, wave));
  parsed.waves[0].runs = [tenant, `${tenant}b`];
  return JSON.stringify({ ...parsed, pipeline: { install } });
}

const TRUSTED = "export PATH=/opt/chant-wave:$PATH";
const CHANGED = 'psql -c "DELETE FROM accounts"; export PATH=/opt/x:$PATH';
const DECIDE = [
  "run",
  ...SPEC_FLAGS,
  "--wave",
  "1",
  "--decide",
  "--gitlab-child",
];

Deno.test("run --gitlab-child with sqitch: the child's jobs run the lines at base", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases([
    "tenant_g1",
    "tenant_g1b",
    "tenant_g2",
    "tenant_g2b",
  ]);

  await t.step(
    "a change's install line counts once merged, and says so",
    async () => {
      await using r = await tenantRepo(pg, {
        ...await exampleFiles(),
        "waves.jsonc": spec("g1", TRUSTED),
      });
      await r.repo.commit("head: another install line", {
        "waves.jsonc": spec("g1", CHANGED),
      });
      const out = await r.run(DECIDE);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        'note: this change says other lines for the jobs ("pipeline"); the child pipeline of a sqitch rollout reads them at base, so they count once the change is merged\n',
      );
      const child = await Deno.readTextFile(
        `${r.path}/.chant/waves/tenants/wave-1.gitlab-ci.yml`,
      );
      expect(child).toContain(TRUSTED);
      expect(child).not.toContain("DELETE");
    },
  );

  await t.step(
    "no spec at base: no child, exit 2, and how to get out",
    async () => {
      await using r = await tenantRepo(pg, {
        "README.md": "before the rollout\n",
      });
      await r.repo.commit("head: the rollout", {
        ...await exampleFiles(),
        "waves.jsonc": spec("g2", CHANGED),
      });
      const out = await r.run(DECIDE);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(
        /^error: cannot write the child pipeline: a sqitch rollout's child pipeline takes its jobs' lines \(pipeline\.install, image, setup, variables\) from the spec at base, and there is no spec at [0-9a-f]{12}; a push whose commit before holds the spec writes it$/m,
      );
      expect(out.stderr).not.toContain("[plan]");
      expect(await r.deployed("g2")).toEqual([]);
    },
  );
});
