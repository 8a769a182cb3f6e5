// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { formatProblem, SpecError } from "../src/errors.ts";

Deno.test("formatProblem() prints file:line:col: where: what", async (t) => {
  const cases = [
    {
      name: "with a place",
      problem: {
        file: "w.jsonc",
        line: 14,
        col: 17,
        where: 'wave 2 "prod" runs[3]',
        what: 'target "eu-1" appears twice',
      },
      want: 'w.jsonc:14:17: wave 2 "prod" runs[3]: target "eu-1" appears twice',
    },
    {
      name: "at the top level",
      problem: {
        file: "w.jsonc",
        line: 1,
        col: 1,
        where: "",
        what: 'missing field "name"',
      },
      want: 'w.jsonc:1:1: missing field "name"',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(formatProblem(c.problem)).toBe(c.want));
  }
});

Deno.test("SpecError() heads with the first problem and keeps the rest as details", () => {
  const error = new SpecError([
    { file: "a", line: 1, col: 2, where: "", what: "one" },
    { file: "a", line: 3, col: 4, where: "", what: "two" },
  ]);
  expect(error.message).toBe("a:1:2: one");
  expect(error.details).toEqual(["a:3:4: two"]);
  expect(error.exitCode).toBe(2);
});
