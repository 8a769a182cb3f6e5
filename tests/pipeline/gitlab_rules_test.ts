// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { gitlabRules } from "../../src/pipeline/_gitlab_rules.ts";

const SOURCES =
  '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web")';

Deno.test("gitlabRules() turns branches into rules expressions", async (t) => {
  const cases = [
    { branch: "main", match: '== "main"' },
    { branch: "release/1.x", match: '== "release/1.x"' },
    { branch: "release/*", match: "=~ /^release\\/[^\\/]*$/" },
    { branch: "team/**/hotfix", match: "=~ /^team\\/.*\\/hotfix$/" },
    { branch: "v1.*", match: "=~ /^v1\\.[^\\/]*$/" },
  ];
  for (const c of cases) {
    await t.step(c.branch, () => {
      const problems: string[] = [];
      expect(gitlabRules([c.branch], problems)).toEqual([
        { if: `${SOURCES} && $CI_COMMIT_BRANCH ${c.match}` },
      ]);
      expect(problems).toEqual([]);
    });
  }
});

Deno.test("gitlabRules() refuses branches no expression can hold", () => {
  const problems: string[] = [];
  const rules = gitlabRules(["main", "a b", "x$y", 'q"', "r\\s"], problems);
  expect(rules.length).toBe(1);
  expect(problems).toEqual(
    ["a b", "x$y", 'q"', "r\\s"].map((branch) =>
      `branch "${branch}" cannot go into a rules expression; use letters, digits, ".", "_", "-", "/" and "*"`
    ),
  );
});
