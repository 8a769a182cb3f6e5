// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import { tempDir } from "../_helpers/binary.ts";
import { judgeChange } from "../../src/sqitch/change_scripts.ts";
import { projectFiles } from "../../src/sqitch/project_files.ts";
import { loadPgParser } from "../../src/sqitch/sql/classify_script.ts";

const parser = await loadPgParser();
const utf8 = (text: string) => new TextEncoder().encode(text);
const hash = (text: string) =>
  `sha256:${createHash("sha256").update(text).digest("hex")}`;

Deno.test("judgeChange() follows every include inside the project, digesting each file in the order psql runs it", async (t) => {
  const files = {
    "db/deploy/shared/columns.sql":
      "\\ir more.sql\nALTER TABLE a ADD COLUMN b int;\n",
    "db/deploy/shared/more.sql": "CREATE INDEX ON a (b);\n",
    "db/deploy/gone.sql": "DROP TABLE accounts;\n",
    "db/deploy/self.sql": "\\i deploy/self.sql\n",
    "db/verify/check.sql": "SELECT count(*) FROM a;\n",
  };
  await using dir = await tempDir(files);
  const project = projectFiles(`${dir.path}/db`);
  const judge = (deploy: string, verify?: string) =>
    judgeChange(
      { path: "deploy/x.sql", bytes: utf8(deploy) },
      verify === undefined
        ? undefined
        : { path: "verify/x.sql", bytes: utf8(verify) },
      { parser, created: new Set(), schemas: new Set() },
      project,
    );
  await t.step(
    "nested \\i and \\ir, then the verify script and its include",
    async () => {
      const deploy =
        "CREATE TABLE a (id int);\n\\i deploy/shared/columns.sql\n";
      const verify = "\\ir ../verify/check.sql\n";
      expect(await judge(deploy, verify)).toEqual({
        files: [
          { path: "deploy/x.sql", sha256: hash(deploy) },
          {
            path: "deploy/shared/columns.sql",
            sha256: hash(files["db/deploy/shared/columns.sql"]),
          },
          {
            path: "deploy/shared/more.sql",
            sha256: hash(files["db/deploy/shared/more.sql"]),
          },
          { path: "verify/x.sql", sha256: hash(verify) },
          {
            path: "verify/check.sql",
            sha256: hash(files["db/verify/check.sql"]),
          },
        ],
        findings: [],
        marked: false,
      });
    },
  );
  await t.step(
    "what an included file does is the change's, named in that file",
    async () => {
      const got = await judge("\\ir gone.sql\n");
      expect(got.findings).toEqual([{
        what: "DROP TABLE",
        line: 1,
        statement: "DROP TABLE accounts",
        file: "deploy/gone.sql",
      }]);
    },
  );
  await t.step(
    "an include outside the project, missing, or of itself",
    async () => {
      const got = await judge(
        "\\i ../etc/passwd\n\\ir none.sql\n\\i deploy/self.sql\n",
      );
      expect(
        got.findings.map((f) =>
          `${f.file}:${f.line}: ${f.what}: ${f.statement}`
        ),
      )
        .toEqual([
          "deploy/x.sql:1: an include outside the project: \\i ../etc/passwd",
          "deploy/x.sql:2: an include that cannot be read: deploy/none.sql does not exist: \\ir none.sql",
          "deploy/self.sql:1: an include of deploy/self.sql inside itself: \\i deploy/self.sql",
        ]);
      expect(got.files.map((f) => [f.path, f.sha256 === null])).toEqual([
        ["deploy/x.sql", false],
        ["deploy/none.sql", true],
        ["deploy/self.sql", false],
      ]);
    },
  );
});
