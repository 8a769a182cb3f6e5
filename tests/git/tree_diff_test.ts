// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { diffTrees } from "../../src/git/tree_diff.ts";
import { treeBytes } from "./_tree_bytes.ts";

const file = (name: string, c: string) => ({
  mode: "100644",
  name,
  oid: c.repeat(40),
});
const dir = (name: string, c: string) => ({
  mode: "40000",
  name,
  oid: c.repeat(40),
});

Deno.test("diffTrees() finds what only the old and only the new tree hold", async (t) => {
  const cases = [
    {
      name: "nothing changed",
      before: [file("a", "1"), file("b", "2")],
      after: [file("a", "1"), file("b", "2")],
      removed: [],
      added: [],
    },
    {
      name: "one added in the middle",
      before: [file("a", "1"), file("c", "3")],
      after: [file("a", "1"), file("b", "2"), file("c", "3")],
      removed: [],
      added: [file("b", "2")],
    },
    {
      name: "one removed, one changed",
      before: [file("a", "1"), file("b", "2"), file("c", "3")],
      after: [file("a", "1"), file("c", "4")],
      removed: [file("b", "2"), file("c", "3")],
      added: [file("c", "4")],
    },
    {
      name: "a folder sorts as if its name ended in a slash",
      before: [file("order.json", "1"), dir("order", "2")],
      after: [file("order.json", "1"), dir("order", "3")],
      removed: [dir("order", "2")],
      added: [dir("order", "3")],
    },
    {
      name: "from and to an empty tree",
      before: [],
      after: [file("a", "1")],
      removed: [],
      added: [file("a", "1")],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(diffTrees(treeBytes(c.before), treeBytes(c.after), 40)).toEqual({
        removed: c.removed,
        added: c.added,
      });
    });
  }
});
