// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  codeBlock,
  markdownText,
  MAX_MARKDOWN_TEXT,
} from "../../src/summary/markdown_text.ts";

Deno.test("markdownText() leaves plain text as it is", () => {
  expect(markdownText("1 to add, 0 to destroy (prod-eu)")).toBe(
    "1 to add, 0 to destroy (prod-eu)",
  );
});

Deno.test("markdownText() escapes what would start Markdown of its own", () => {
  const cases: [string, string, string][] = [
    ["a line end", "a\n### h", "a\\\\n\\#\\#\\# h"],
    ["a cell", "a|b", "a\\|b"],
    ["a link and an image", "![i](u) [l](u)", "!\\[i\\](u) \\[l\\](u)"],
    ["HTML and an entity", "<b>&amp;", "\\<b\\>\\&amp;"],
    [
      "code, emphasis, math",
      "`c` *e* _u_ ~s~ $m$",
      "\\`c\\` \\*e\\* \\_u\\_ \\~s\\~ \\$m\\$",
    ],
    ["a backslash before a pipe", "a\\|b", "a\\\\\\|b"],
    [
      "autolinks",
      "https://x.example www.x.example",
      "https\\://x.example www\\.x.example",
    ],
    ["an e-mail", "ann@x.example", "ann\\@x.example"],
    ["a mention and a reference", "@ann #12", "\\@&#8203;ann \\#&#8203;12"],
  ];
  for (const [, text, escaped] of cases) {
    expect(markdownText(text)).toBe(escaped);
  }
});

Deno.test("markdownText() cuts a long text", () => {
  const text = markdownText("x".repeat(1000));
  expect(text).toHaveLength(MAX_MARKDOWN_TEXT);
  expect(text.endsWith("…")).toBe(true);
});

Deno.test("codeBlock() fences a line longer than any backtick run in it", () => {
  expect(codeBlock("chant-wave approve tf tf-wave-1")).toEqual([
    "```",
    "chant-wave approve tf tf-wave-1",
    "```",
  ]);
  expect(codeBlock("a ```` b\nc")).toEqual(["`````", "a ```` b\\nc", "`````"]);
});
