// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { REMOTE_NAME } from "../../src/ledger/git/git_ledger.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { LEDGER_REMOTE_PATTERN } from "../../src/spec/_schema_parts.ts";
import { lines, problemsOf } from "./_helpers.ts";

const specWith = (ledger: string) =>
  lines(
    "{",
    '  "name": "demo",',
    '  "plan": ["plan", "{target}", "{plan}"],',
    '  "apply": ["apply", "{target}", "{plan}"],',
    `  "ledger": ${JSON.stringify(ledger)},`,
    '  "waves": [{ "name": "dev", "runs": ["a"] }]',
    "}",
  );

Deno.test("the spec's ledger takes what --ledger takes", async (t) => {
  for (
    const ledger of ["git", "git:upstream", ".chant/ledger", "/srv/ledger"]
  ) {
    await t.step(ledger, () => {
      expect(parseSpec(specWith(ledger), "w.jsonc").ledger).toBe(ledger);
    });
  }
  await t.step("absent: no ledger", () => {
    const text = specWith("git").replace(/^ {2}"ledger".*\n/m, "");
    expect(parseSpec(text, "w.jsonc").ledger).toBeUndefined();
  });
});

Deno.test("the spec's ledger refuses what is not one, located", () => {
  const cases: [string, string][] = [
    ["", "w.jsonc:5:13: ledger: the ledger must not be empty"],
    [
      "git:",
      'w.jsonc:5:13: ledger: name the remote after "git:", e.g. "git:origin"',
    ],
    [
      "git:https://ann:pw@evil.example/x.git",
      'w.jsonc:5:13: ledger: ledger "git:https://***@evil.example/x.git": not a valid remote name; name a remote ("git:origin"), not a URL',
    ],
    [
      "dir\u001b[2J",
      'w.jsonc:5:13: ledger: ledger "dir\\u001b[2J" holds a control character',
    ],
  ];
  for (const [ledger, problem] of cases) {
    expect(problemsOf(specWith(ledger))).toEqual([problem]);
  }
});

Deno.test("LEDGER_REMOTE_PATTERN is the git ledger's own remote pattern", () => {
  expect(LEDGER_REMOTE_PATTERN.source).toBe(REMOTE_NAME.source);
  expect(LEDGER_REMOTE_PATTERN.flags).toBe(REMOTE_NAME.flags);
});
