// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { viaUrl } from "../../src/cli/approve_command.ts";
import { InputError } from "../../src/errors.ts";

Deno.test("viaUrl() takes the http(s) URL of a run or job, nothing else", async (t) => {
  for (
    const url of [
      "https://github.com/o/r/actions/runs/7",
      "https://gitlab.example/g/p/-/jobs/12",
    ]
  ) {
    await t.step(url, () => expect(viaUrl(url)).toBe(url));
  }
  for (
    const bad of [
      "github.com/o/r/actions/runs/7",
      "javascript:alert(1)",
      "https://h/a b",
      "https://h/a\u001b[2J",
      `https://h/${"a".repeat(2048)}`,
    ]
  ) {
    await t.step(`refuses ${JSON.stringify(bad.slice(0, 30))}`, () => {
      expect(() => viaUrl(bad)).toThrow(InputError);
    });
  }
});
