// End to end through the binary: the limits of SPEC.md §14. A hostile spec is a
// located, one-line spec error (exit 2), fast, with nothing echoed whole, and
// `check` refuses exactly what `run` would; credentials in URLs never print; a
// plan file, a plans file and a ledger record are read up to their bound and
// refused one byte past it.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import {
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

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
      name: "a target written as a path alias",
      text: base(`[{ "name": "dev", "runs": ["dev", "./prod-eu"] }]`),
      error:
        /^error: waves\.json:1:\d+: wave 1 "dev" runs\[1\]: target "\.\/prod-eu" is not in plain form: no empty, "\." or "\.\." path segments$/,
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

/**
 * Writes `text` padded with spaces to exactly `bytes` bytes (JSON allows the
 * white space), ending in a newline.
 */
function padded(text: string, bytes: number): string {
  const body = text.trimEnd();
  return body + " ".repeat(bytes - new TextEncoder().encode(body).length - 1) +
    "\n";
}

/**
 * A plan (or planWave) command that writes its JSON padded with spaces to the
 * size in `ctl/size`: `pad.sh <file>`.
 */
const PAD = (json: string) =>
  `#!/bin/sh
json='${json}'
size=$(cat ctl/size)
{ printf '%s' "$json"; head -c $((size - \${#json})) /dev/zero | tr '\\0' ' '; } > "$1"
`;
const DIGEST = `sha256:${"0".repeat(64)}`;

Deno.test("a plan file of 1 MiB is read, and of 1 MiB + 1 refused", async (t) => {
  await using r = await rollout({
    name: "tf",
    plan: ["sh", "pad.sh", "{plan}"],
    apply: ["true"],
    heartbeat: "0",
    waves: [{ name: "dev", gate: "never", runs: ["a"] }],
  }, { files: { "pad.sh": PAD(`{"planDigest":"${DIGEST}"}`) } });
  await Deno.mkdir(`${r.path}/ctl`);
  await t.step("exactly 1 MiB: planned and applied", async () => {
    await Deno.writeTextFile(`${r.path}/ctl/size`, String(1024 * 1024));
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('applied 1 run of wave 1 "dev"');
  });
  await t.step(
    "1 MiB + 1: the run fails to plan, named with its file",
    async () => {
      await Deno.writeTextFile(`${r.path}/ctl/size`, String(1024 * 1024 + 1));
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(
        /^failed: plan file of "a" at "\.chant\/waves\/tf\/wave-1\/a-[0-9a-f]{12}\.plan\.json" is larger than 1 MiB$/m,
      );
      expect(errorLines(out.stderr)).toEqual([
        'error: wave 1 "dev" is not decided: 1 run failed to plan',
      ]);
    },
  );
});

Deno.test("a plans file of 64 MiB is read, and of 64 MiB + 1 refused", async (t) => {
  await using r = await rollout({
    name: "tf",
    planWave: ["sh", "pad.sh", "{plans}"],
    apply: ["true"],
    heartbeat: "0",
    waves: [{ name: "dev", gate: "never", runs: ["a"] }],
  }, {
    files: {
      "pad.sh": PAD(`{"runs":[{"target":"a","planDigest":"${DIGEST}"}]}`),
    },
  });
  await Deno.mkdir(`${r.path}/ctl`);
  await t.step("exactly 64 MiB: planned and applied", async () => {
    await Deno.writeTextFile(`${r.path}/ctl/size`, String(64 * 1024 * 1024));
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('applied 1 run of wave 1 "dev"');
  });
  await t.step(
    "64 MiB + 1: the wave fails to plan, naming the file",
    async () => {
      await Deno.writeTextFile(
        `${r.path}/ctl/size`,
        String(64 * 1024 * 1024 + 1),
      );
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        'failed: the plans file ".chant/waves/tf/wave-1/wave.plans.json" of wave 1 is larger than 64 MiB\n',
      );
      expect(errorLines(out.stderr)).toEqual([
        'error: wave 1 "dev" is not decided: 1 run failed to plan',
      ]);
    },
  );
});

Deno.test("a ledger record of 64 KiB counts, and of 64 KiB + 1 does not and is named", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["a"] }]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(waiting.code).toBe(3);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  const gate = `${r.path}/.chant/ledger/gates/tf/tf-wave-1`;
  const [name] = [...Deno.readDirSync(gate)].map((entry) => entry.name)
    .filter((file) => file.includes("-approval-"));
  const record = `${gate}/${name}`;
  const text = await Deno.readTextFile(record);
  await t.step("exactly 64 KiB: the approval counts", async () => {
    await Deno.writeTextFile(record, padded(text, 64 * 1024));
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/^gate tf-wave-1: approved by ann for /m);
    expect(out.stderr).not.toContain("warning:");
  });
  await t.step(
    "64 KiB + 1: the approval does not count, and the file is named",
    async () => {
      await Deno.writeTextFile(record, padded(text, 64 * 1024 + 1));
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `warning: ledger: ${record}: is larger than 64 KiB; it does not count\n`,
      );
      expect(out.stderr).toMatch(/^gate tf-wave-1: waiting: /m);
    },
  );
});
