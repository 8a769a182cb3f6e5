// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { formatStepLine } from "../../src/console/step_console.ts";
import { memoryWriter, type Writer } from "../../src/console/writer.ts";
import { Interrupts } from "../../src/exec/interrupts.ts";
import { runStep, type RunStepOptions } from "../../src/exec/run_step.ts";
import { type Spawner, SpawnError } from "../../src/exec/spawner.ts";
import { manualClock } from "../_helpers/manual_clock.ts";
import { pollUntil } from "../_helpers/poll.ts";
import { fakeSpawner } from "./_fake_spawner.ts";

/** Runs a step on a fake spawner and a manual clock. */
function start(options: Partial<RunStepOptions> = {}) {
  const clock = manualClock(1_000_000);
  const writer = memoryWriter();
  const spawner = fakeSpawner((process, signal) => {
    if (signal === "SIGKILL") process.exit(137);
  });
  const result = runStep({
    argv: ["tofu", "plan"],
    phase: "plan",
    target: "prod-eu",
    heartbeatMs: 0,
    clock,
    writer,
    spawner,
    ...options,
  });
  const child = async () => {
    await clock.tick(0);
    return spawner.started[0];
  };
  return { clock, writer, spawner, result, child };
}

Deno.test("runStep() prints stdout and stderr lines prefixed, as they arrive", async () => {
  const { writer, result, child, clock } = start();
  const fake = await child();
  expect(fake.options.argv).toEqual(["tofu", "plan"]);
  fake.out.push("one\ntw");
  await clock.tick(0);
  expect(writer.lines()).toEqual(["[plan] prod-eu | one"]);
  fake.err.push("warn\n");
  fake.out.push("o\r\n");
  await clock.tick(0);
  fake.out.push("no newline");
  fake.exit(0);
  const outcome = await result;
  expect(writer.lines()).toEqual([
    "[plan] prod-eu | one",
    "[plan] prod-eu | warn",
    "[plan] prod-eu | two",
    "[plan] prod-eu | no newline",
  ]);
  expect(outcome).toEqual({
    exitCode: 0,
    ok: true,
    timedOut: false,
    interrupted: false,
    failure: undefined,
    tail: ["one", "warn", "two", "no newline"],
    durationMs: 0,
  });
});

Deno.test("runStep() hands stdout to captureStdout and prints only stderr", async () => {
  const captured: string[] = [];
  const { writer, result, child, clock } = start({
    captureStdout: async (chunk) => {
      await Promise.resolve();
      captured.push(new TextDecoder().decode(chunk));
    },
  });
  const fake = await child();
  fake.out.push('{"secret":');
  fake.err.push("warn\n");
  await clock.tick(0);
  fake.out.push('"x"}');
  fake.exit(0);
  const outcome = await result;
  expect(captured.join("")).toBe('{"secret":"x"}');
  expect(writer.lines()).toEqual(["[plan] prod-eu | warn"]);
  expect(outcome.ok).toBe(true);
  expect(outcome.tail).toEqual(["warn"]);
});

Deno.test("runStep() reports a non-zero exit with the last 20 lines", async () => {
  const { result, child } = start({ phase: "apply" });
  const fake = await child();
  for (let i = 1; i <= 30; i++) fake.out.push(`line ${i}\n`);
  fake.exit(3);
  const outcome = await result;
  expect(outcome.ok).toBe(false);
  expect(outcome.exitCode).toBe(3);
  expect(outcome.failure).toBe('apply of "prod-eu" exited 3');
  expect(outcome.tail).toEqual(
    Array.from({ length: 20 }, (_, i) => `line ${i + 11}`),
  );
});

Deno.test("runStep() prints hostile output however it is chunked, and keeps its tail", async () => {
  const lines = [
    "plain",
    "\x1b[31mred\x1b[0m",
    "bare\rcr",
    "✓ ünïcode 😀",
    "then approve: forged\u2028error: forged",
    "\0nul\x07bell\x7f",
    "tab\tkept",
    "",
    ...Array.from({ length: 25 }, (_, i) => `line ${i}`),
  ];
  const bytes = new TextEncoder().encode(
    lines.map((line, i) => line + (i % 2 ? "\r\n" : "\n")).join("") + "last",
  );
  for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
    const { writer, result, child } = start();
    const fake = await child();
    for (let at = 0; at < bytes.length; at += size) {
      fake.out.push(bytes.slice(at, at + size));
      fake.out.push(new Uint8Array(0));
    }
    fake.exit(1);
    const outcome = await result;
    const expected = [...lines, "last"];
    expect(writer.lines()).toEqual(
      expected.map((line) => formatStepLine("plan", "prod-eu", line)),
    );
    expect(outcome.tail).toEqual(expected.slice(-20));
  }
});

Deno.test("runStep() prints a heartbeat after each quiet period", async (t) => {
  await t.step("every heartbeatMs of quiet, reset by output", async () => {
    const { writer, result, child, clock } = start({ heartbeatMs: 1_000 });
    const fake = await child();
    await clock.tick(999);
    expect(writer.lines()).toEqual([]);
    await clock.tick(1);
    expect(writer.lines()).toEqual(["[plan] prod-eu: still running after 1s"]);
    await clock.tick(500); // t = 1.5 s
    fake.out.push("working\n");
    await clock.tick(999); // t = 2.499 s: quiet for 999 ms only
    expect(writer.lines().length).toBe(2);
    await clock.tick(1); // t = 2.5 s
    await clock.tick(1_000); // t = 3.5 s
    expect(writer.lines()).toEqual([
      "[plan] prod-eu: still running after 1s",
      "[plan] prod-eu | working",
      "[plan] prod-eu: still running after 2s",
      "[plan] prod-eu: still running after 3s",
    ]);
    fake.exit(0);
    await result;
    expect(clock.pending()).toBe(0);
  });
  await t.step("0 turns it off", async () => {
    const { writer, result, child, clock } = start({ heartbeatMs: 0 });
    const fake = await child();
    expect(clock.pending()).toBe(0);
    await clock.tick(3_600_000);
    fake.exit(0);
    await result;
    expect(writer.lines()).toEqual([]);
  });
  await t.step("the default is 60 s", async () => {
    const { writer, result, child, clock } = start({ heartbeatMs: undefined });
    const fake = await child();
    await clock.tick(60_000);
    expect(writer.lines()).toEqual(["[plan] prod-eu: still running after 60s"]);
    fake.exit(0);
    await result;
  });
});

Deno.test("runStep() stops a step that runs past its timeout: TERM, then KILL", async (t) => {
  await t.step(
    "a step that ignores TERM is killed after the grace period",
    async () => {
      const { result, child, clock } = start({
        timeoutMs: 5_000,
        killGraceMs: 2_000,
      });
      const fake = await child();
      await clock.tick(4_999);
      expect(fake.signals).toEqual([]);
      await clock.tick(1);
      expect(fake.signals).toEqual(["SIGTERM"]);
      await clock.tick(1_999);
      expect(fake.signals).toEqual(["SIGTERM"]);
      await clock.tick(1);
      expect(fake.signals).toEqual(["SIGTERM", "SIGKILL"]);
      const outcome = await result;
      expect(outcome).toMatchObject({
        exitCode: 137,
        ok: false,
        timedOut: true,
        failure: 'plan of "prod-eu" timed out after 5s',
        durationMs: 7_000,
      });
      expect(clock.pending()).toBe(0);
    },
  );
  await t.step(
    "a step that ends on TERM still fails as timed out",
    async () => {
      const clock = manualClock();
      const spawner = fakeSpawner((process, signal) => {
        if (signal === "SIGTERM") process.exit(143);
      });
      const result = runStep({
        argv: ["x"],
        phase: "apply",
        target: "t",
        heartbeatMs: 0,
        timeoutMs: 90_000,
        clock,
        writer: memoryWriter(),
        spawner,
      });
      await clock.tick(90_000);
      const outcome = await result;
      expect(outcome.failure).toBe('apply of "t" timed out after 1m30s');
      expect(outcome.exitCode).toBe(143);
      // The group is swept with KILL once the step is gone.
      expect(spawner.started[0].signals).toEqual(["SIGTERM", "SIGKILL"]);
    },
  );
  await t.step("a step that ends in time is not signalled", async () => {
    const { result, child, clock } = start({ timeoutMs: 5_000 });
    const fake = await child();
    await clock.tick(4_000);
    fake.exit(0);
    expect((await result).ok).toBe(true);
    await clock.tick(10_000);
    expect(fake.signals).toEqual([]);
    expect(clock.pending()).toBe(0);
  });
});

Deno.test("runStep() turns a command that cannot start into a one-line failure", async (t) => {
  const cases = [
    {
      name: "not found",
      error: new SpawnError("nosuchcmd", "not found", "ENOENT"),
      exitCode: 127,
      failure: 'plan of "prod-eu" could not start "nosuchcmd": not found',
    },
    {
      name: "permission denied",
      error: new SpawnError("./x.sh", "permission denied", "EACCES"),
      exitCode: 126,
      failure: 'plan of "prod-eu" could not start "./x.sh": permission denied',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const spawner: Spawner = { spawn: () => Promise.reject(c.error) };
      const outcome = await runStep({
        argv: ["x"],
        phase: "plan",
        target: "prod-eu",
        spawner,
        clock: manualClock(),
        writer: memoryWriter(),
      });
      expect(outcome).toEqual({
        exitCode: c.exitCode,
        ok: false,
        timedOut: false,
        interrupted: false,
        failure: c.failure,
        tail: [],
        durationMs: 0,
      });
    });
  }
});

Deno.test("runStep() lets a spawner's bug through", async () => {
  const spawner: Spawner = {
    spawn: () => Promise.reject(new TypeError("bug")),
  };
  await expect(
    runStep({
      argv: ["x"],
      phase: "plan",
      target: "t",
      spawner,
      writer: memoryWriter(),
    }),
  ).rejects.toThrow("bug");
});

Deno.test("runStep() is stopped by an interrupt and starts nothing after one", async () => {
  const clock = manualClock();
  const interrupts = new Interrupts({ clock, graceMs: 1_000 });
  const { result, child, spawner } = start({ interrupts, clock });
  const fake = await child();
  expect(interrupts.running).toBe(1);
  const stopping = interrupts.interrupt("SIGTERM");
  expect(fake.signals).toEqual(["SIGTERM"]);
  await clock.tick(1_000);
  expect(await stopping).toBe(143);
  const outcome = await result;
  expect(outcome).toMatchObject({
    ok: false,
    interrupted: true,
    exitCode: 137,
    failure: 'plan of "prod-eu" was interrupted',
  });
  expect(interrupts.running).toBe(0);
  const later = await runStep({
    argv: ["x"],
    phase: "apply",
    target: "next",
    interrupts,
    spawner,
    clock,
    writer: memoryWriter(),
  });
  expect(later.failure).toBe('apply of "next" was interrupted');
  expect(spawner.started.length).toBe(1);
});

/**
 * runStep() against real child processes: the `sh` scripts of
 * tests/fixtures/exec/, the real spawner and the real clock.
 */

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
