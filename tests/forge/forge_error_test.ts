// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { maskSecrets } from "../../src/forge/forge_error.ts";

Deno.test("maskSecrets() hides tokens and URL credentials on one line", async (t) => {
  const cases: [string, string, string[], string][] = [
    [
      "the token",
      "rejected glpat-123 for you",
      ["glpat-123"],
      "rejected *** for you",
    ],
    [
      "URL user-info",
      "fetch https://ci:x@h.example/api failed",
      [],
      "fetch https://***@h.example/api failed",
    ],
    [
      "both",
      "GET https://oauth2:glpat-1@h/x: glpat-1",
      ["glpat-1"],
      "GET https://***@h/x: ***",
    ],
    ["line breaks and ESC", "a\r\nb\x1b[2Jc\n", [], "a b [2Jc"],
    ["an empty secret is ignored", "abc", [""], "abc"],
  ];
  for (const [name, text, secrets, expected] of cases) {
    await t.step(name, () => expect(maskSecrets(text, secrets)).toBe(expected));
  }
});
