// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { shellLine, shellWord } from "../src/shell_words.ts";

Deno.test("shellLine() leaves safe words bare and single-quotes the rest", () => {
  expect(shellLine(["chant-wave", "run", "--spec", "dir/w.jsonc"])).toBe(
    "chant-wave run --spec dir/w.jsonc",
  );
  expect(shellLine(["a b", "$HOME", "it's", "", "*"])).toBe(
    `'a b' '$HOME' 'it'"'"'s' '' '*'`,
  );
});

Deno.test("shellLine() lines run exactly their argv under sh", async () => {
  const words = ["a b", "$HOME", "it's", "", "*", "x\ny", "`id`", "\\"];
  const line = shellLine(["printf", "%s\\0", ...words]);
  const out = await new Deno.Command("sh", { args: ["-c", line] }).output();
  expect(new TextDecoder().decode(out.stdout).split("\0").slice(0, -1))
    .toEqual(words);
});

Deno.test("shellWord() quotes one word only when it must", () => {
  expect(shellWord("git")).toBe("git");
  expect(shellWord("HEAD^1")).toBe("HEAD^1");
  expect(shellWord("my ledger")).toBe("'my ledger'");
});
