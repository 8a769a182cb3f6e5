// End to end through the binary: the limits of SPEC.md §14. A hostile spec is a
// located, one-line spec error (exit 2), fast, with nothing echoed whole, and
// `check` refuses exactly what `run` would; credentials in URLs never print.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import { errorLines, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

/** Generous: a hostile spec must fail long before this, never hang. */
const GUARD_MS = 60_000;

const base = (waves: unknown, extra = "") =>
  `{ "name": "tf", "plan": ["p", "{plan}"], "apply": ["a"],${extra} "waves": ${waves} }`;

Deno.test("check and run refuse a hostile spec the same way, with one located line", async (t) => {
  const cases = [
    {
      name: "nested 15,000 deep",
      text: base(
        `[{ "name": "dev", "runs": ["a"], "x": ${"[".repeat(15_000)}${
          "]".repeat(15_000)
        } }]`,
      ),
      error: /^error: waves\.json:1:\d+: the spec nests deeper than 64 levels$/,
    },
    {
      name: "a 1 MB unknown key",
      text: base(
        `[{ "name": "dev", "runs": ["a"] }]`,
        ` "${"k".repeat(1_000_000)}": 1,`,
      ),
      error: /^error: waves\.json:1:\d+: unknown field "k{59}…"$/,
    },
    {
      name: "over 1 MiB",
      text: base(`[{ "name": "dev", "runs": ["a"] }]`) + " ".repeat(1_100_000),
      error: /^error: cannot read spec "waves\.json": is larger than 1 MiB$/,
    },
    {
      name: "a 300-character name",
      text: base(`[{ "name": "${"d".repeat(300)}", "runs": ["a"] }]`),
      error:
        /^error: waves\.json:1:\d+: wave 1 "d{59}…" name: name "d{59}…" is too long: at most 64 characters$/,
    },
    {
      name: "a NUL in a target",
      text: base(`[{ "name": "dev", "runs": ["a\\u0000b"] }]`),
      error:
        /^error: waves\.json:1:\d+: wave 1 "dev" runs\[0\]: target "a\\u0000b" holds a control character$/,
    },
    {
      name: "a 257-character target",
      text: base(`[{ "name": "dev", "runs": ["${"t".repeat(257)}"] }]`),
      error:
        /^error: waves\.json:1:\d+: wave 1 "dev" runs\[0\]: target "t{59}…" is too long: at most 256 characters$/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using dir = await tempDir({ "waves.json": c.text });
      for (const args of [["check"], ["run", "--wave", "1"]]) {
        const out = await runBinary([...args, ...SPEC], {
          cwd: dir.path,
          signal: AbortSignal.timeout(GUARD_MS),
        });
        expect(out.code).toBe(2);
        expect(out.stderr).not.toContain("internal error");
        expect(out.stderr.length).toBeLessThan(2_000);
        expect(errorLines(out.stderr).length).toBe(1);
        expect(errorLines(out.stderr)[0]).toMatch(c.error);
      }
    });
  }
});

Deno.test("a credential in a ledger URL is never printed", async () => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["a"] }]),
  );
  for (
    const args of [
      [
        "run",
        ...SPEC,
        "--wave",
        "1",
        "--ledger",
        "git:https://ann:s3cret@git.example/x.git",
      ],
      [
        "approve",
        "tf",
        "tf-wave-1",
        "--ledger",
        "git:https://ann:s3cret@git.example/x.git",
      ],
    ]
  ) {
    const out = await r.run(args);
    expect(out.code).toBe(2);
    expect(out.stderr + out.stdout).not.toContain("s3cret");
    expect(errorLines(out.stderr)).toEqual([
      'error: ledger "git:https://***@git.example/x.git": not a valid remote name; name a remote ("git:origin"), not a URL',
    ]);
  }
});
