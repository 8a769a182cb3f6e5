// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { maskCredentials } from "../../src/console/mask_credentials.ts";

Deno.test("maskCredentials() hides the user information of every URL", async (t) => {
  const cases = [
    ["https://ann:tok3n@git.example/x.git", "https://***@git.example/x.git"],
    [
      "fatal: unable to access 'https://x-access-token:ghs_abc@github.com/o/r/'",
      "fatal: unable to access 'https://***@github.com/o/r/'",
    ],
    [
      "ssh://git@host:22/r and http://u:p@h/",
      "ssh://***@host:22/r and http://***@h/",
    ],
    ["no url, ann@example.com", "no url, ann@example.com"],
    ["https://host/path@not-user", "https://host/path@not-user"],
  ];
  for (const [text, want] of cases) {
    await t.step(text, () => expect(maskCredentials(text)).toBe(want));
  }
});
