// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { projectFiles, projectPath } from "../../src/sqitch/project_files.ts";

Deno.test("projectPath() resolves \\i from the project and \\ir from the including file, inside the project only", () => {
  expect(projectPath("deploy/inc.sql")).toBe("deploy/inc.sql");
  expect(projectPath("inc.sql", "deploy/sub/x.sql")).toBe("deploy/sub/inc.sql");
  expect(projectPath("../shared/a.sql", "deploy/x.sql")).toBe("shared/a.sql");
  expect(projectPath("../a.sql")).toBeUndefined();
  expect(projectPath("../../etc/passwd", "deploy/x.sql")).toBeUndefined();
  expect(projectPath("/etc/passwd")).toBeUndefined();
});

Deno.test("projectFiles() reads regular files whose real path is inside the project", async (t) => {
  await using dir = await tempDir({
    "db/deploy/inc.sql": "CREATE TABLE a (id int);\n",
    "secret.sql": "DROP TABLE accounts;\n",
  });
  await Deno.symlink(`${dir.path}/secret.sql`, `${dir.path}/db/deploy/out.sql`);
  await Deno.symlink(`${dir.path}/db/deploy/inc.sql`, `${dir.path}/db/in.sql`);
  const files = projectFiles(`${dir.path}/db`);
  await t.step("a file", async () => {
    const got = await files.read("deploy/inc.sql");
    expect("bytes" in got && new TextDecoder().decode(got.bytes)).toBe(
      "CREATE TABLE a (id int);\n",
    );
  });
  await t.step("a link to a file inside", async () => {
    expect("bytes" in await files.read("in.sql")).toBe(true);
  });
  await t.step("a link out of the project", async () => {
    expect(await files.read("deploy/out.sql")).toEqual({
      why: "is a link to a file outside the project",
    });
  });
  await t.step("a directory, and nothing", async () => {
    expect(await files.read("deploy")).toEqual({
      why: "is not a regular file",
    });
    expect(await files.read("deploy/none.sql")).toEqual({
      why: "does not exist",
    });
  });
});
