// End to end: `chant-wave help`, `help <command>` (the same as `--help`, with an
// EXAMPLES block), `help <topic>`, and did-you-mean for a word that is neither.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";

const COMMANDS = [
  "run",
  "approve",
  "resume",
  "revoke",
  "status",
  "check",
  "jobs",
  "pipeline",
  "plan-file",
  "schema",
  "ledger",
  "completion",
  "help",
];
const TOPICS = ["exit-codes", "spec", "base", "approvals", "environment"];

Deno.test("help lists every command and topic, exit 0", async () => {
  await using dir = await tempDir();
  const help = await runBinary(["help"], { cwd: dir.path });
  expect(help.code).toBe(0);
  expect(help.stderr).toBe("");
  for (const word of [...COMMANDS, ...TOPICS]) {
    expect(help.stdout).toMatch(new RegExp(`^  ${word} +\\S`, "m"));
  }
  expect((await runBinary(["--help"], { cwd: dir.path })).stdout).toBe(
    help.stdout,
  );
});

Deno.test("help COMMAND is COMMAND --help, with 2 to 4 examples", async (t) => {
  await using dir = await tempDir();
  for (const name of COMMANDS) {
    await t.step(name, async () => {
      const help = await runBinary(["help", name], { cwd: dir.path });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: chant-wave ${name}`));
      expect(help.stdout).toMatch(
        /\nmore: docs\/[a-z-]+\.md(#[a-z0-9_-]+)?\n\nEXAMPLES\n/,
      );
      const examples = help.stdout.split("\nEXAMPLES\n")[1].trimEnd()
        .split("\n");
      expect(examples.length).toBeGreaterThanOrEqual(2);
      expect(examples.length).toBeLessThanOrEqual(4);
      for (const line of examples) {
        expect(line).toMatch(new RegExp(`^  chant-wave ${name}( |$)`));
      }
      const own = await runBinary([name, "--help"], { cwd: dir.path });
      expect(own).toEqual(help);
    });
  }
});

Deno.test("help TOPIC prints the topic", async (t) => {
  await using dir = await tempDir();
  for (const topic of TOPICS) {
    await t.step(topic, async () => {
      const out = await runBinary(["help", topic], { cwd: dir.path });
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(new RegExp(`^${topic}: \\S`));
      expect(out.stdout).toMatch(/\nmore: docs\/[a-z-]+\.md(#[a-z0-9_-]+)?\n$/);
      expect(out.stdout).not.toContain("SPEC.md");
    });
  }
  await t.step("exit-codes says what to do after 3 and 4", async () => {
    const out = await runBinary(["help", "exit-codes"], { cwd: dir.path });
    expect(out.stdout).toContain(
      "  3    waiting, and nothing in the wave ran: for an approval that does not\n" +
        '       stand (run the "then approve:" command the job printed), for the wave\n' +
        "       before to apply this commit (the order: run it first, or pass\n" +
        '       --out-of-order "<reason>"), or on a hold (approve, or apply, the gate it\n' +
        "       names); then run the job again\n",
    );
    expect(out.stdout).toContain("run the deciding job again");
  });
  await t.step("spec explains onFailure and pendingTtl", async () => {
    const out = await runBinary(["help", "spec"], { cwd: dir.path });
    expect(out.stdout).toMatch(/^ {2}onFailure {3}"continue": after a failed/m);
    expect(out.stdout).toMatch(
      /^ {14}Default: stop when a run the job applies has a destructive$/m,
    );
    expect(out.stdout).toMatch(/^ {2}pendingTtl {2}how long/m);
  });
});

Deno.test("help refuses a word that is no command or topic", async (t) => {
  await using dir = await tempDir();
  const cases = [
    {
      args: ["help", "exit-code"],
      stderr:
        'error: unknown command or topic "exit-code"; did you mean "exit-codes"?\n',
    },
    {
      args: ["help", "aprove"],
      stderr:
        'error: unknown command or topic "aprove"; did you mean "approve"?\n',
    },
    {
      args: ["help", "zzzzzz"],
      stderr:
        'error: unknown command or topic "zzzzzz"; see "chant-wave help"\n',
    },
    {
      args: ["help", "run", "check"],
      stderr: 'error: "help" takes one command or topic; got "run check"\n',
    },
    {
      args: ["frobnicate"],
      stderr: 'error: unknown command "frobnicate"; see "chant-wave help"\n',
    },
    {
      args: ["check", "--zzzzzz"],
      stderr:
        'error: unknown flag "--zzzzzz" for "check"; see "chant-wave help check"\n',
    },
  ];
  for (const c of cases) {
    await t.step(c.args.join(" "), async () => {
      expect(await runBinary(c.args, { cwd: dir.path })).toEqual({
        code: 2,
        stdout: "",
        stderr: c.stderr,
      });
    });
  }
});
