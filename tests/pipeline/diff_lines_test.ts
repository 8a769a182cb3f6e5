// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { diffLines } from "../../src/pipeline/diff_lines.ts";

const NAMES = ["a (on disk)", "a (rendered)"] as const;

Deno.test("diffLines() shows changes as unified hunks with context", async (t) => {
  const cases = [
    { name: "equal texts", before: "x\ny\n", after: "x\ny\n", want: "" },
    {
      name: "one changed line",
      before: "a\nb\nc\n",
      after: "a\nB\nc\n",
      want: "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    },
    {
      name: "a missing file",
      before: "",
      after: "a\nb\n",
      want: "@@ -1,0 +1,2 @@\n+a\n+b\n",
    },
    {
      name: "two distant changes in two hunks",
      before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
      after: "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n",
      want:
        "@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -7,4 +8,3 @@\n 7\n 8\n 9\n-10\n",
    },
    {
      name: "no final newline",
      before: "a\nb",
      after: "a\nb\n",
      want: "@@ -1,2 +1,2 @@\n a\n-b (no newline at end)\n+b\n",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = diffLines(c.before, c.after, NAMES);
      expect(got).toBe(
        c.want === "" ? "" : `--- a (on disk)\n+++ a (rendered)\n${c.want}`,
      );
    });
  }
});

Deno.test("diffLines() handles large files without aligning their middles", () => {
  const before = Array.from({ length: 5000 }, (_, i) => `l${i}`).join("\n");
  const after = Array.from({ length: 5000 }, (_, i) => `m${i}`).join("\n");
  const got = diffLines(`${before}\n`, `${after}\n`, NAMES);
  expect(got.split("\n").filter((line) => line.startsWith("-l")).length)
    .toBe(5000);
});
