// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import { tempDir } from "../_helpers/binary.ts";
import { resolveClient } from "../../src/sqitch/database_client.ts";

/** A checkout the test's files are not in. */
const ELSEWHERE = "/nonexistent-checkout";

Deno.test("resolveClient() finds the client in PATH's absolute directories and digests the file it leads to", async (t) => {
  await using dir = await tempDir({ "bin/psql": "#!/bin/sh\necho psql\n" });
  await Deno.chmod(`${dir.path}/bin/psql`, 0o755);
  await Deno.mkdir(`${dir.path}/links`);
  await Deno.symlink(`${dir.path}/bin/psql`, `${dir.path}/links/psql`);
  const sha256 = `sha256:${
    createHash("sha256").update("#!/bin/sh\necho psql\n").digest("hex")
  }`;
  await t.step("a name on PATH, through a link", async () => {
    expect(await resolveClient("psql", `/nowhere:${dir.path}/links`, ELSEWHERE))
      .toEqual({
        path: `${dir.path}/links/psql`,
        sha256,
      });
  });
  await t.step("an absolute path", async () => {
    expect(await resolveClient(`${dir.path}/bin/psql`, "", ELSEWHERE)).toEqual({
      path: `${dir.path}/bin/psql`,
      sha256,
    });
  });
  await t.step("a relative PATH entry is never searched", async () => {
    const cwd = Deno.cwd();
    Deno.chdir(dir.path);
    try {
      expect(await resolveClient("psql", "bin", ELSEWHERE)).toBe(
        'the client "psql" is not on PATH (outside the checkout)',
      );
    } finally {
      Deno.chdir(cwd);
    }
  });
  await t.step(
    "the checkout's files are never the client: on PATH, by path, or through a link",
    async () => {
      const checkout = await Deno.realPath(dir.path);
      expect(await resolveClient("psql", `${dir.path}/bin`, checkout)).toBe(
        'the client "psql" is not on PATH (outside the checkout)',
      );
      expect(await resolveClient(`${dir.path}/bin/psql`, "", checkout)).toBe(
        `the client ${
          JSON.stringify(`${dir.path}/bin/psql`)
        } is inside the checkout, whose files the change chooses`,
      );
      await using outside = await tempDir({});
      await Deno.symlink(`${dir.path}/bin/psql`, `${outside.path}/psql`);
      expect(await resolveClient("psql", outside.path, checkout)).toBe(
        'the client "psql" is not on PATH (outside the checkout)',
      );
    },
  );
  await t.step("a file that is not executable", async () => {
    await Deno.chmod(`${dir.path}/bin/psql`, 0o644);
    expect(await resolveClient(`${dir.path}/bin/psql`, "", ELSEWHERE)).toBe(
      `the client ${
        JSON.stringify(`${dir.path}/bin/psql`)
      } is not an executable file`,
    );
  });
});
