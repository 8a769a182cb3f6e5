/**
 * runStep() against real child processes: the `sh` scripts of
 * tests/fixtures/exec/, the real spawner and the real clock.
 */
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { memoryWriter, type Writer } from "../../src/console/writer.ts";
import { runStep, type RunStepOptions } from "../../src/exec/run_step.ts";
import { manualClock } from "../_helpers/manual_clock.ts";
import { pollUntil } from "../_helpers/poll.ts";

const fixture = (name: string) =>
  new URL(`../fixtures/exec/${name}`, import.meta.url).pathname;

function run(options: Partial<RunStepOptions> & { argv: string[] }) {
  const writer = memoryWriter();
  const result = runStep({
    phase: "plan",
    target: "prod-eu",
    heartbeatMs: 0,
    writer,
    ...options,
  });
  return { writer, result };
}

Deno.test("runStep() streams interleaved stdout and stderr in arrival order", async () => {
  const dir = await Deno.makeTempDir();
  const { writer, result } = run({
    argv: ["sh", fixture("interleaved.sh"), `${dir}/seen`],
  });
  for (let n = 1; n <= 3; n++) {
    await pollUntil(`line ${n}`, () => writer.lines().length === n);
    await Deno.writeTextFile(`${dir}/seen.${n}`, "");
  }
  const outcome = await result;
  await Deno.remove(dir, { recursive: true });
  expect(writer.lines()).toEqual([
    "[plan] prod-eu | out 1",
    "[plan] prod-eu | err 1",
    "[plan] prod-eu | out 2",
    "[plan] prod-eu | err 2 without newline",
  ]);
  expect(outcome.ok).toBe(true);
  expect(outcome.tail).toEqual([
    "out 1",
    "err 1",
    "out 2",
    "err 2 without newline",
  ]);
});

Deno.test("runStep() runs in the given directory with the given environment", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const { writer, result } = run({
      argv: ["sh", fixture("env_and_cwd.sh"), "a b", "{target}"],
      cwd: dir,
      env: {
        PATH: "/usr/bin:/bin",
        CHANT_WAVE_TARGET: "prod-eu",
        CHANT_WAVE_PHASE: "plan",
        CHANT_WAVE_K: "2",
      },
    });
    expect((await result).ok).toBe(true);
    expect(writer.lines()).toEqual([
      `[plan] prod-eu | cwd=${dir}`,
      "[plan] prod-eu | target=prod-eu phase=plan k=2",
      "[plan] prod-eu | args=a b {target}",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runStep() prints heartbeats while a real step is quiet", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const clock = manualClock(1_000_000);
    const { writer, result } = run({
      argv: ["sh", fixture("slow_writer.sh"), `${dir}/go`],
      phase: "apply",
      heartbeatMs: 1_000,
      clock,
    });
    await pollUntil("the first line", () => writer.lines().length === 1);
    await clock.tick(1_000);
    await clock.tick(1_000);
    await Deno.writeTextFile(`${dir}/go`, "");
    expect((await result).ok).toBe(true);
    expect(writer.lines()).toEqual([
      "[apply] prod-eu | start",
      "[apply] prod-eu: still running after 1s",
      "[apply] prod-eu: still running after 2s",
      "[apply] prod-eu | end",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runStep() delivers every line of a flood of output", async () => {
  let count = 0;
  let bytes = 0;
  let last = "";
  const writer: Writer = {
    write(text) {
      bytes += text.length;
      let at = text.indexOf("\n");
      while (at !== -1) {
        count++;
        at = text.indexOf("\n", at + 1);
      }
      last = text;
    },
  };
  const outcome = await runStep({
    argv: ["sh", fixture("flood.sh"), "200000", "50000"],
    phase: "plan",
    target: "t",
    heartbeatMs: 0,
    writer,
  });
  expect(outcome.ok).toBe(true);
  expect(count).toBe(250_000);
  expect(bytes).toBeGreaterThan(250_000 * 14);
  expect(last.length).toBeGreaterThan(0);
  expect(outcome.tail.length).toBe(20);
  expect(outcome.tail).toContain("err 50000");
});

Deno.test("runStep() replaces invalid UTF-8 and keeps going", async () => {
  const { writer, result } = run({ argv: ["sh", fixture("binary.sh")] });
  expect((await result).ok).toBe(true);
  expect(writer.lines()).toEqual([
    "[plan] prod-eu | bad \uFFFD\uFFFD bytes",
    "[plan] prod-eu | nul \\0 byte",
    "[plan] prod-eu | euro €",
    "[plan] prod-eu | cut \uFFFD",
  ]);
});

Deno.test("runStep() stops a step at its timeout with TERM, then KILL", async () => {
  const clock = manualClock(1_000_000);
  const { writer, result } = run({
    argv: ["sh", fixture("trap_term.sh")],
    target: "slow",
    timeoutMs: 5_000,
    killGraceMs: 5_000,
    clock,
  });
  // Time moves only once the trap is set, so TERM never races it.
  await pollUntil(
    "the step to be ready",
    () => writer.lines().includes("[plan] slow | ready"),
  );
  await clock.tick(5_000);
  await pollUntil(
    "the trap to run",
    () => writer.lines().includes("[plan] slow | got TERM"),
  );
  await clock.tick(5_000);
  const outcome = await result;
  expect(outcome).toMatchObject({
    exitCode: 137,
    ok: false,
    timedOut: true,
    failure: 'plan of "slow" timed out after 5s',
  });
  // The shell may also report its sleep's death ("Terminated") before the trap runs.
  expect(writer.lines()[0]).toBe("[plan] slow | ready");
});

Deno.test("runStep() fails, naming the command, when it cannot start", async (t) => {
  await t.step("a missing command", async () => {
    const { writer, result } = run({ argv: ["nosuchcmd-chant-wave", "plan"] });
    const outcome = await result;
    expect(outcome).toMatchObject({
      exitCode: 127,
      ok: false,
      failure:
        'plan of "prod-eu" could not start "nosuchcmd-chant-wave": not found',
    });
    expect(writer.text()).toBe("");
  });
  await t.step("a file that is not executable", async () => {
    const path = fixture("not_executable.sh");
    const outcome = await run({ argv: [path], phase: "apply" }).result;
    expect(outcome).toMatchObject({
      exitCode: 126,
      ok: false,
      failure:
        `apply of "prod-eu" could not start "${path}": permission denied`,
    });
  });
});

Deno.test("runStep() reports a real non-zero exit or death by signal", async (t) => {
  const cases = [
    { name: "exit 3", args: ["3"], exitCode: 3 },
    { name: "killed", args: ["0", "KILL"], exitCode: 137 },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const outcome = await run({
        argv: ["sh", fixture("exit_with.sh"), ...c.args],
      }).result;
      expect(outcome.failure).toBe(`plan of "prod-eu" exited ${c.exitCode}`);
      expect(outcome.exitCode).toBe(c.exitCode);
      expect(outcome.tail[0]).toBe("line 11");
      expect(outcome.tail.at(-1)).toBe("line 30");
    });
  }
});

Deno.test("runStep() keeps lines of parallel steps whole", async () => {
  const writer = memoryWriter();
  const steps = ["a", "b", "c"].map((target) =>
    runStep({
      argv: ["sh", fixture("flood.sh"), "20000"],
      phase: "apply",
      target,
      heartbeatMs: 0,
      writer,
    })
  );
  for (const outcome of await Promise.all(steps)) expect(outcome.ok).toBe(true);
  const lines = writer.lines();
  expect(lines.length).toBe(60_000);
  for (const line of lines) {
    expect(line).toMatch(/^\[apply\] [abc] \| line \d+$/);
  }
  for (const target of ["a", "b", "c"]) {
    const mine = lines.filter((l) => l.startsWith(`[apply] ${target} |`));
    expect(mine.length).toBe(20_000);
    expect(mine[19_999]).toBe(`[apply] ${target} | line 20000`);
  }
});
