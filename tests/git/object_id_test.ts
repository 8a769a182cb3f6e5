// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  commitFields,
  objectId,
  treeEntries,
} from "../../src/git/object_id.ts";
import { treeBytes } from "./_tree_bytes.ts";

const text = (s: string) => new TextEncoder().encode(s);

Deno.test("objectId() hashes git's header and the content, SHA-1 or SHA-256", async (t) => {
  await t.step("the empty blob, SHA-1", () => {
    expect(objectId("blob", new Uint8Array(), 40)).toBe(
      "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
    );
  });
  await t.step("the empty blob, SHA-256", () => {
    expect(objectId("blob", new Uint8Array(), 64)).toBe(
      "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
    );
  });
  await t.step(
    "a blob git hashed: `printf hello | git hash-object --stdin`",
    () => {
      expect(objectId("blob", text("hello"), 40)).toBe(
        "b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0",
      );
    },
  );
});

Deno.test("treeEntries() reads every entry of a tree, and refuses one cut short", () => {
  const a = "1".repeat(40);
  const b = "2".repeat(40);
  const bytes = treeBytes([
    { mode: "100644", name: "x.json", oid: a },
    { mode: "40000", name: "order", oid: b },
  ]);
  expect(treeEntries(bytes, 40)).toEqual([
    { mode: "100644", name: "x.json", oid: a },
    { mode: "40000", name: "order", oid: b },
  ]);
  expect(() => treeEntries(bytes.subarray(0, bytes.length - 1), 40)).toThrow(
    "a tree of the git ledger is cut short",
  );
});

Deno.test("commitFields() reads a commit's tree and parents, not its message", () => {
  const tree = "3".repeat(40);
  const parent = "4".repeat(40);
  const commit = text(
    `tree ${tree}\nparent ${parent}\nauthor a <a@x> 0 +0000\n\nparent ${
      "5".repeat(40)
    }\n`,
  );
  expect(commitFields(commit)).toEqual({ tree, parents: [parent] });
});
