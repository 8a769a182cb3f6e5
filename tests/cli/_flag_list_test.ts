// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { flagList, flagText } from "../../src/cli/_help_text.ts";

Deno.test("flagList() aligns the texts three spaces past the widest heading", () => {
  expect(flagList([
    { name: "spec", value: { name: "F" }, description: "the waves file" },
    {
      name: "out",
      value: { name: "DIR" },
      description: "the root to write under",
      default: "the\nworking directory",
    },
    { name: "json", description: "print it\non stdout" },
  ])).toBe(
    [
      "  --spec F    the waves file",
      "  --out DIR   the root to write under (default: the",
      "              working directory)",
      "  --json      print it",
      "              on stdout",
    ].join("\n"),
  );
});

Deno.test("flagList() lets a heading past 20 characters run into its text", () => {
  expect(flagList([
    { name: "wave", value: { name: "K" }, description: "the wave" },
    {
      name: "out-of-order",
      value: { name: "REASON" },
      description: "run anyway\neven so",
    },
  ])).toBe(
    [
      "  --wave K   the wave",
      "  --out-of-order REASON  run anyway",
      "             even so",
    ].join("\n"),
  );
});

Deno.test("flagList() of no flags is empty", () => {
  expect(flagList([])).toBe("");
});

Deno.test("flagText() adds the default after the description", () => {
  expect(flagText({ name: "json", description: "print it" })).toBe(
    "print it",
  );
  expect(
    flagText({
      name: "binary",
      value: { name: "B" },
      description: "the program",
      default: '"sqitch"',
    }),
  ).toBe('the program (default: "sqitch")');
});
