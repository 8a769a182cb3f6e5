// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { linkedPath } from "../../src/base/spec_path.ts";
import { normalisePath } from "../../src/gate/base_spec.ts";

Deno.test("normalisePath() normalises without the file system", async (t) => {
  const cases: [string, string | undefined][] = [
    ["waves.jsonc", "waves.jsonc"],
    ["./deploy//waves.jsonc", "deploy/waves.jsonc"],
    ["deploy/../waves.jsonc", "waves.jsonc"],
    ["../waves.jsonc", undefined],
    ["a/../../waves.jsonc", undefined],
    [".", undefined],
    ["", undefined],
  ];
  for (const [path, want] of cases) {
    await t.step(JSON.stringify(path), () => {
      expect(normalisePath(path)).toBe(want);
    });
  }
});

Deno.test("linkedPath() names the link and where it is", () => {
  expect(linkedPath("waves.jsonc", "waves.jsonc", "link", "HEAD").message)
    .toBe(
      '"waves.jsonc" is a symbolic link in HEAD; a spec must be a regular file',
    );
  expect(linkedPath("a/w.json", "a", "submodule", "0123456789ab").message)
    .toBe(
      '"a", on the path of "a/w.json", is a submodule in 0123456789ab; a spec must be a regular file',
    );
});
