// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { formatStepLine } from "../../src/console/step_console.ts";
import { memoryWriter } from "../../src/console/writer.ts";
import { Interrupts } from "../../src/exec/interrupts.ts";
import { runStep, type RunStepOptions } from "../../src/exec/run_step.ts";
import { type Spawner, SpawnError } from "../../src/exec/spawner.ts";
import { manualClock } from "../_helpers/manual_clock.ts";
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
