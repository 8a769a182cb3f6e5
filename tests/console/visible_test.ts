// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  hasControlCharacter,
  maskCredentials,
  maskingReplacer,
  visible,
} from "../../src/console/visible.ts";

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

Deno.test("maskCredentials() hides the user information and every query value of every URL", async (t) => {
  const cases: [string, string, string][] = [
    [
      "user and password",
      "https://ann:tok3n@git.example/x.git",
      "https://***@git.example/x.git",
    ],
    [
      "a token in git's message",
      "fatal: unable to access 'https://x-access-token:ghs_abc@github.com/o/r/'",
      "fatal: unable to access 'https://***@github.com/o/r/'",
    ],
    [
      "two URLs on one line",
      "ssh://git@host:22/r and http://u:p@h/",
      "ssh://***@host:22/r and http://***@h/",
    ],
    ["no URL", "no url, ann@example.com", "no url, ann@example.com"],
    [
      "an @ in the path is not user information",
      "https://host/path@not-user",
      "https://host/path@not-user",
    ],
    [
      "an @ in the password: up to the last @",
      "https://ann:p@ss@host/x",
      "https://***@host/x",
    ],
    [
      "a private token in the query",
      "https://gitlab.example/api/v4/projects/1?private_token=glpat-abc",
      "https://gitlab.example/api/v4/projects/1?private_token=***",
    ],
    [
      "user information and every query value",
      "https://u:p@host/path?private_token=abc&x=1",
      "https://***@host/path?private_token=***&x=***",
    ],
    [
      "git's quoted URL with a slash after the query",
      "unable to access 'http://127.0.0.1:9/x.git?private_token=SECRET/': refused",
      "unable to access 'http://127.0.0.1:9/x.git?private_token=***': refused",
    ],
    [
      "a bare query parameter is masked whole, an empty value stays",
      "https://h/hook?s3cr3t&a=&b=2",
      "https://h/hook?***&a=&b=***",
    ],
    [
      "a fragment's values, not a bare anchor",
      "https://h/cb#access_token=abc&state=x and https://h/f#L10",
      "https://h/cb#access_token=***&state=*** and https://h/f#L10",
    ],
    [
      "a URL inside JSON ends at its quote",
      '{"url":"https://h/x?t=abc","next":"https://h/y"}',
      '{"url":"https://h/x?t=***","next":"https://h/y"}',
    ],
    [
      "a URL inside an escaped JSON string ends at the backslash",
      '"see https://h/x?t=abc\\nnext"',
      '"see https://h/x?t=***\\nnext"',
    ],
    [
      "a URL glued to a word is still found",
      "GIT_URL_https://u:tok@h/x and id1git+ssh://u@h/",
      "GIT_URL_https://***@h/x and id1git+ssh://***@h/",
    ],
    [
      "the scheme's case does not matter",
      "HTTPS://U:P@H/?A=B",
      "HTTPS://***@H/?A=***",
    ],
    [
      "the sentence's punctuation after the URL stays",
      "(see https://h/x?t=abc). Then https://h/y?t=abc: done, https://h/z?abc.",
      "(see https://h/x?t=***). Then https://h/y?t=***: done, https://h/z?***.",
    ],
    [
      "masked text stays as it is",
      "https://***@host/path?private_token=***&x=***",
      "https://***@host/path?private_token=***&x=***",
    ],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => expect(maskCredentials(text)).toBe(want));
  }
});

Deno.test("maskingReplacer() masks free text and links, never what identifies", () => {
  const url = "https://u:p@h/x?private_token=abc";
  const masked = "https://***@h/x?private_token=***";
  const record = {
    id: url,
    target: url,
    planDigest: url,
    by: url,
    url,
    via: url,
    note: `see ${url}`,
    description: url,
    reason: url,
    summary: url,
    policyReason: url,
    locator: { apiUrl: url, jobName: url },
    members: [{ target: url, summary: url }],
  };
  expect(JSON.parse(JSON.stringify(record, maskingReplacer))).toEqual({
    id: url,
    target: url,
    planDigest: url,
    by: url,
    url: masked,
    via: masked,
    note: `see ${masked}`,
    description: masked,
    reason: masked,
    summary: masked,
    policyReason: masked,
    locator: { apiUrl: masked, jobName: url },
    members: [{ target: url, summary: masked }],
  });
});

Deno.test("maskCredentials() stays fast on hostile text", () => {
  const hostile = [
    "a.".repeat(32_768) + "://x",
    ("a".repeat(40) + "://").repeat(1_500),
    "https://h/?" + "a=b&".repeat(16_000),
    "x://".repeat(16_000),
  ];
  const started = performance.now();
  for (const text of hostile) maskCredentials(text);
  // Quadratic matching would take minutes; linear takes well under a second.
  expect(performance.now() - started).toBeLessThan(10_000);
});
