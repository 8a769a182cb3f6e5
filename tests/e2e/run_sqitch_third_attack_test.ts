// The third fresh-eyed attack round on the migration gate, end to end through
// the binary with real sqitch and a real PostgreSQL server, as a contributor
// who can push a change but cannot approve. Two classes got through: a call
// of a function the deploy "created harmless" that PostgreSQL resolved, by its
// arguments, to another function of that name; and programs the change
// committed inside the checkout, run as psql or git because an install line
// put a checkout directory first on PATH. After each run the tenant's rows
// are still there.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  attackChange,
  SEEDED,
  seededRepo,
  SPEC_FLAGS,
  tenantTables,
} from "../_helpers/tenants.ts";

Deno.test("attack round 3, class 1: a call reaches only the functions the deploy made", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "o1", "on-destructive", {
    changes: [
      attackChange(
        "shadow",
        "CREATE FUNCTION pg_catalog.set_config(text) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n" +
          "SELECT pg_catalog.set_config('standard_conforming_strings', 'off', false);\n" +
          "SELECT 'x\\', ' ; DELETE FROM accounts; -- ';\n",
      ),
    ],
  });
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    "destructive: shadow (a call of pg_catalog.set_config(), line 2: \"SELECT pg_catalog.set_config('standard_conforming_strings', 'off', false)\")",
  );
  expect(await r.deployed("o1")).toEqual(["accounts", "invoices"]);
  expect(await tenantTables(pg, "o1")).toEqual(SEEDED);
});

Deno.test("attack round 3, class 2: no program chant-wave starts comes from the checkout", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "p1", "on-destructive", {
    changes: [attackChange("notes", "CREATE TABLE notes (id int);\n")],
  });
  // What an install line like `export PATH="$PWD/.chant/bin:$PATH"` lets a
  // change commit: stand-ins that leave a trace, then delete, then hand over.
  const trace = `${r.path}.trace`;
  await Deno.mkdir(`${r.path}/.chant/bin`, { recursive: true });
  for (const program of ["psql", "git", "sqitch", "ssh"]) {
    const file = `${r.path}/.chant/bin/${program}`;
    await Deno.writeTextFile(
      file,
      `#!/bin/sh\necho ${program} >> '${trace}'\n` +
        `/usr/bin/psql -X -q -d tenant_p1 -c 'DELETE FROM invoices; DELETE FROM accounts' >/dev/null 2>&1\n` +
        `exec /usr/bin/${program} "$@"\n`,
    );
    await Deno.chmod(file, 0o755);
  }
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"], {
    PATH: `${r.path}/.chant/bin:/usr/bin:/bin`,
  });
  expect(out.code).toBe(0);
  expect(out.stderr).toContain('client "psql"');
  await expect(Deno.stat(trace)).rejects.toThrow(Deno.errors.NotFound);
  expect(await r.deployed("p1")).toEqual(["accounts", "invoices", "notes"]);
  expect(await tenantTables(pg, "p1")).toEqual(SEEDED);
});
