// End to end: chant-wave colours its own words only on a terminal (under a
// pseudo-terminal made by util-linux `script`), never with NO_COLOR, TERM=dumb or
// when stderr is a pipe, and untrusted text never carries a raw escape.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { BINARY, runBinary, tempDir } from "../_helpers/binary.ts";
import { plannedDigest, rollout, specOf } from "../_helpers/rollout.ts";

const SPEC = JSON.stringify({
  name: "demo",
  plan: ["p", "{plan}"],
  apply: ["a", "{plan}"],
  waves: [{ name: "dev", gate: "never", runs: ["x"] }],
});
const ESC = "\x1b";

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs the binary on a pseudo-terminal (`script -qec`), under `env -i` with
 * `PATH`, `TERM=xterm` and `env`; stdout and stderr both reach the terminal.
 */
async function runInTerminal(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const vars = Object.entries({ TERM: "xterm", ...env })
    .map(([name, value]) => shellQuote(`${name}=${value}`));
  const command = [
    "exec env -i PATH=/usr/bin:/bin",
    ...vars,
    shellQuote(BINARY),
    ...args.map(shellQuote),
  ].join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd,
    env: { PATH: "/usr/bin:/bin", SHELL: "/bin/sh" },
    clearEnv: true,
    stdin: "null",
  }).output();
  const output = new TextDecoder().decode(out.stdout).replaceAll("\r\n", "\n");
  return { code: out.code, output };
}

/** ESC bytes that do not open or close one of chant-wave's styles. */
function strayEscapes(text: string): number {
  // deno-lint-ignore no-control-regex -- the codes are the point
  return text.replace(/\x1b\[[0-9;]+m/g, "").split(ESC).length - 1;
}

Deno.test("on a terminal, error: is red and check's ok: green", async (t) => {
  await using dir = await tempDir({ "waves.json": SPEC });
  await t.step("check's ok line", async () => {
    expect(await runInTerminal(["check", "--spec", "waves.json"], dir.path))
      .toEqual({
        code: 0,
        output: `${ESC}[32mok:${ESC}[0m waves.json: 1 waves, 1 runs\n`,
      });
  });
  await t.step("an error's headline", async () => {
    expect(await runInTerminal(["check", "--spec", "nope.json"], dir.path))
      .toEqual({
        code: 2,
        output:
          `${ESC}[1;31merror:${ESC}[0m cannot read spec "nope.json": no such file\n`,
      });
  });
});

Deno.test("on a terminal, pipeline's warning: is yellow", async () => {
  await using dir = await tempDir({ "waves.json": SPEC });
  const out = await runInTerminal(
    ["pipeline", "github", "--spec", "waves.json"],
    dir.path,
  );
  expect(out.code).toBe(0);
  expect(out.output).toMatch(
    new RegExp(
      `^${ESC}\\[33mwarning:${ESC}\\[0m "pipeline\\.install" is not set`,
    ),
  );
});

Deno.test("no colour with NO_COLOR, TERM=dumb, or when stderr is not a terminal", async (t) => {
  await using dir = await tempDir({ "waves.json": SPEC });
  const quiet: Record<string, string>[] = [{ NO_COLOR: "1" }, { TERM: "dumb" }];
  for (const env of quiet) {
    await t.step(JSON.stringify(env), async () => {
      const ok = await runInTerminal(
        ["check", "--spec", "waves.json"],
        dir.path,
        env,
      );
      expect(ok).toEqual({
        code: 0,
        output: "ok: waves.json: 1 waves, 1 runs\n",
      });
      const bad = await runInTerminal(
        ["check", "--spec", "nope.json"],
        dir.path,
        env,
      );
      expect(bad.output).toBe(
        'error: cannot read spec "nope.json": no such file\n',
      );
    });
  }
  await t.step("a pipe", async () => {
    const ok = await runBinary(["check", "--spec", "waves.json"], {
      cwd: dir.path,
    });
    expect(ok.stderr).toBe("ok: waves.json: 1 waves, 1 runs\n");
    const bad = await runBinary(["check", "--spec", "nope.json"], {
      cwd: dir.path,
    });
    expect(bad.stderr).toBe(
      'error: cannot read spec "nope.json": no such file\n',
    );
    expect(bad.stderr).not.toContain(ESC);
  });
  await t.step("a pipe, even with FORCE_COLOR", async () => {
    const out = await runBinary(["check", "--spec", "nope.json"], {
      cwd: dir.path,
      env: { FORCE_COLOR: "1" },
    });
    expect(out.stderr).toBe(
      'error: cannot read spec "nope.json": no such file\n',
    );
  });
});

Deno.test("on a terminal, an untrusted name is escaped, never raw", async (t) => {
  const name = `w${ESC}[2J${ESC}]0;title\x07.json`;
  await using dir = await tempDir({ [name]: SPEC });
  await t.step("in the ok line", async () => {
    const out = await runInTerminal(["check", "--spec", name], dir.path);
    expect(out.code).toBe(0);
    expect(out.output).toBe(
      `${ESC}[32mok:${ESC}[0m w\\x1b[2J\\x1b]0;title\\x07.json: 1 waves, 1 runs\n`,
    );
    expect(strayEscapes(out.output)).toBe(0);
  });
  await t.step("in an error", async () => {
    const out = await runInTerminal(["check", "--spec", `${name}x`], dir.path);
    expect(out.code).toBe(2);
    expect(out.output).toContain("\\x1b[2J");
    expect(strayEscapes(out.output)).toBe(0);
  });
});

Deno.test("on a terminal, run marks destructive plans, waiting and the approve line", async (t) => {
  const spec = specOf([{ name: "prod", gate: "always", runs: ["db"] }]);
  await using r = await rollout(spec);
  await r.control(
    "db",
    "plan-raw",
    JSON.stringify({
      planDigest: `sha256:${"d".repeat(64)}`,
      summary: "1 to destroy",
      destructive: true,
    }),
  );
  const args = ["run", "--spec", "waves.json", "--wave", "1"];
  await t.step("in colour", async () => {
    const out = await runInTerminal(args, r.path);
    expect(out.code).toBe(3);
    expect(out.output).toContain(
      `  db: 1 to destroy (${ESC}[1;31mdestructive${ESC}[0m)\n`,
    );
    expect(out.output).toContain(
      `gate tf-wave-1: ${ESC}[33mwaiting:${ESC}[0m `,
    );
    expect(out.output).toMatch(
      new RegExp(`\n${ESC}\\[1;36mthen approve:${ESC}\\[0m chant-wave approve`),
    );
    expect(strayEscapes(out.output)).toBe(0);
  });
  await t.step("not with NO_COLOR", async () => {
    const out = await runInTerminal(args, r.path, { NO_COLOR: "1" });
    expect(out.code).toBe(3);
    expect(out.output).toContain("  db: 1 to destroy (destructive)\n");
    expect(out.output).toContain("gate tf-wave-1: waiting: ");
    expect(out.output).not.toContain(ESC);
  });
  await t.step("approved, in green", async () => {
    const quiet = await runInTerminal(args, r.path, { NO_COLOR: "1" });
    const approve = await r.run([
      "approve",
      "tf",
      "tf-wave-1",
      "--plan",
      plannedDigest(quiet.output),
      "--by",
      "ann",
    ]);
    expect(approve.code).toBe(0);
    const out = await runInTerminal(args, r.path);
    expect(out.code).toBe(0);
    expect(out.output).toContain(
      `gate tf-wave-1: ${ESC}[32mapproved${ESC}[0m by ann for sha256:`,
    );
    expect(strayEscapes(out.output)).toBe(0);
  });
});
