// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import { tempDir } from "../_helpers/binary.ts";
import { resolveClient } from "../../src/sqitch/database_client.ts";

Deno.test("resolveClient() finds the client in PATH's absolute directories and digests the file it leads to", async (t) => {
  await using dir = await tempDir({ "bin/psql": "#!/bin/sh\necho psql\n" });
  await Deno.chmod(`${dir.path}/bin/psql`, 0o755);
  await Deno.mkdir(`${dir.path}/links`);
  await Deno.symlink(`${dir.path}/bin/psql`, `${dir.path}/links/psql`);
  const sha256 = `sha256:${
    createHash("sha256").update("#!/bin/sh\necho psql\n").digest("hex")
  }`;
  await t.step("a name on PATH, through a link", async () => {
    expect(await resolveClient("psql", `/nowhere:${dir.path}/links`)).toEqual({
      path: `${dir.path}/links/psql`,
      sha256,
    });
  });
  await t.step("an absolute path", async () => {
    expect(await resolveClient(`${dir.path}/bin/psql`, "")).toEqual({
      path: `${dir.path}/bin/psql`,
      sha256,
    });
  });
  await t.step("a relative PATH entry is never searched", async () => {
    const cwd = Deno.cwd();
    Deno.chdir(dir.path);
    try {
      expect(await resolveClient("psql", "bin")).toBe(
        'the client "psql" is not on PATH',
      );
    } finally {
      Deno.chdir(cwd);
    }
  });
  await t.step("a file that is not executable", async () => {
    await Deno.chmod(`${dir.path}/bin/psql`, 0o644);
    expect(await resolveClient(`${dir.path}/bin/psql`, "")).toBe(
      `the client ${
        JSON.stringify(`${dir.path}/bin/psql`)
      } is not an executable file`,
    );
  });
});
