// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { hasControlCharacter, visible } from "../../src/console/visible.ts";

Deno.test("visible() shows every control character as an escape", async (t) => {
  const cases = [
    {
      name: "plain text is kept",
      text: "2 to add, 0 to destroy",
      want: "2 to add, 0 to destroy",
    },
    { name: "a tab is kept", text: "a\tb", want: "a\tb" },
    { name: "clear screen", text: "\x1b[2J\x1b[H", want: "\\x1b[2J\\x1b[H" },
    {
      name: "window title (OSC 0)",
      text: "\x1b]0;pwned\x07",
      want: "\\x1b]0;pwned\\x07",
    },
    {
      name: "clipboard (OSC 52)",
      text: "\x1b]52;c;ZXZpbA==\x1b\\",
      want: "\\x1b]52;c;ZXZpbA==\\x1b\\",
    },
    { name: "alternate screen", text: "\x1b[?1049h", want: "\\x1b[?1049h" },
    { name: "a bare carriage return", text: "ok\rforged", want: "ok\\rforged" },
    {
      name: "a newline cannot start a line of chant-wave's own",
      text: "2 to add\nthen approve: chant-wave approve x y",
      want: "2 to add\\nthen approve: chant-wave approve x y",
    },
    { name: "NUL", text: "a\0b", want: "a\\0b" },
    { name: "DEL and C1 controls", text: "\x7f\x9b31m", want: "\\x7f\\x9b31m" },
    { name: "bidi override", text: "ab\u202ecd", want: "ab\\u202ecd" },
    { name: "line separator", text: "a\u2028b", want: "a\\u2028b" },
    { name: "multi-byte text is kept", text: "euro € ✓", want: "euro € ✓" },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(visible(c.text)).toBe(c.want);
      expect(hasControlCharacter(c.text)).toBe(c.text !== c.want);
    });
  }
});
