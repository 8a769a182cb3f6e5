// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { shellQuote } from "../../src/pipeline/_shell_quote.ts";

Deno.test("shellQuote() leaves safe words bare and single-quotes the rest", () => {
  expect(shellQuote(["chant-wave", "run", "--spec", "dir/w.jsonc"])).toBe(
    "chant-wave run --spec dir/w.jsonc",
  );
  expect(shellQuote(["a b", "$HOME", "it's", "", "*"])).toBe(
    `'a b' '$HOME' 'it'"'"'s' '' '*'`,
  );
});

Deno.test("shellQuote() lines run exactly their argv under sh", async () => {
  const words = ["a b", "$HOME", "it's", "", "*", "x\ny", "`id`", "\\"];
  const line = shellQuote(["printf", "%s\\0", ...words]);
  const out = await new Deno.Command("sh", { args: ["-c", line] }).output();
  expect(new TextDecoder().decode(out.stdout).split("\0").slice(0, -1))
    .toEqual(words);
});
