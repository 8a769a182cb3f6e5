// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { normalisePrincipal } from "../../src/seal/seal.ts";

Deno.test("normalisePrincipal() applies NFKC, trims and lowercases", async (t) => {
  const cases = [
    { name: "case", input: "Ann@Example.COM", want: "ann@example.com" },
    {
      name: "white space",
      input: " \tann@example.com\u00a0\n",
      want: "ann@example.com",
    },
    {
      name: "full-width letters",
      input: "Ａｎｎ@example.com",
      want: "ann@example.com",
    },
    {
      name: "a ligature",
      input: "ﬁona@example.com",
      want: "fiona@example.com",
    },
    {
      name: "composed and decomposed accents",
      input: "Jose\u0301@x",
      want: "josé@x",
    },
    { name: "inner spaces kept", input: "Ann  Example", want: "ann  example" },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () => expect(normalisePrincipal(c.input)).toBe(c.want),
    );
  }
});
