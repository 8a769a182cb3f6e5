// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { formatTable, tableLines } from "../src/table.ts";

Deno.test("formatTable() pads every column but the last, and trims each line", () => {
  const rows = [["target", "plan", "took"], ["eu-west", "changes", ""], [
    "us",
    "no changes",
    "1s",
  ]];
  expect(formatTable(rows)).toBe(
    "target   plan        took\n" +
      "eu-west  changes\n" +
      "us       no changes  1s\n",
  );
});

Deno.test("tableLines() yields formatTable()'s lines one at a time", () => {
  const rows = Array.from(
    { length: 1000 },
    (_, i) => [`t-${i}`, i % 3 ? "changes" : "", `${i}s`],
  );
  const lines = [...tableLines(rows)];
  expect(lines.length).toBe(rows.length);
  expect(lines.map((line) => `${line}\n`).join("")).toBe(formatTable(rows));
  expect(tableLines([]).next().done).toBe(true);
});
