// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { isRelativeRevision } from "../../src/spec/relative_revision.ts";

Deno.test("isRelativeRevision() knows every way to name where the checkout stands", () => {
  for (
    const rev of [
      "HEAD",
      "HEAD^1",
      "HEAD~3",
      "HEAD^{commit}",
      "head^1",
      " HEAD^1",
      "@",
      "@^",
      "@~2",
      "@{-1}",
      "@{u}",
      "main@{1}",
      "main@{upstream}",
      "ORIG_HEAD",
      "FETCH_HEAD~1",
      "MERGE_HEAD",
      "CHERRY_PICK_HEAD",
      "AUTO_MERGE",
      ":/loosen",
    ]
  ) expect([rev, isRelativeRevision(rev)]).toEqual([rev, true]);
});

Deno.test("isRelativeRevision() leaves names of fixed commits alone", () => {
  for (
    const rev of [
      "0123456789abcdef0123456789abcdef01234567",
      "v1.2.0",
      "release",
      "origin/main",
      "HEADS-UP",
      "heads/x",
    ]
  ) expect([rev, isRelativeRevision(rev)]).toEqual([rev, false]);
});
