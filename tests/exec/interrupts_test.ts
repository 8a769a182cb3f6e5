// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  installSignalHandlers,
  Interrupts,
  type InterruptSignal,
  type SignalSource,
} from "../../src/exec/interrupts.ts";
import type { StopSignal } from "../../src/exec/spawner.ts";
import { manualClock } from "../_helpers/manual_clock.ts";
import { isRunning, processGone } from "../_helpers/poll.ts";

/** A tracked step that records signals and finishes when told to. */
function fakeStep(endsOn: StopSignal | "never" = "SIGKILL") {
  let finish: () => void = () => {};
  const signals: StopSignal[] = [];
  const step = {
    signals,
    finished: new Promise<void>((resolve) => finish = resolve),
    kill(signal: StopSignal) {
      signals.push(signal);
      if (signal === endsOn) finish();
    },
    finish: () => finish(),
  };
  return step;
}

Deno.test("Interrupts.interrupt() stops every step with TERM, then KILL after the grace", async () => {
  const clock = manualClock();
  const interrupts = new Interrupts({ clock, graceMs: 2_000 });
  const polite = fakeStep("SIGTERM");
  const stubborn = fakeStep("SIGKILL");
  interrupts.track(polite);
  interrupts.track(stubborn);
  let code: number | undefined;
  void interrupts.interrupt("SIGINT").then((c) => code = c);
  expect(interrupts.signal.aborted).toBe(true);
  expect(interrupts.signal.reason).toBe("SIGINT");
  expect(interrupts.exitCode).toBe(130);
  await clock.tick(1_999);
  expect(stubborn.signals).toEqual(["SIGTERM"]);
  expect(code).toBeUndefined();
  await clock.tick(1);
  expect(stubborn.signals).toEqual(["SIGTERM", "SIGKILL"]);
  // The polite one ended on TERM; its group is still swept with KILL.
  expect(polite.signals).toEqual(["SIGTERM", "SIGKILL"]);
  await clock.tick(0);
  expect(code).toBe(130);
});

Deno.test("Interrupts.interrupt() resolves 143 for SIGTERM, and at once with no steps", async () => {
  const interrupts = new Interrupts({ clock: manualClock() });
  expect(interrupts.exitCode).toBeUndefined();
  expect(await interrupts.interrupt("SIGTERM")).toBe(143);
});

Deno.test("Interrupts.interrupt() a second time sends KILL at once", async () => {
  const clock = manualClock();
  const interrupts = new Interrupts({ clock, graceMs: 60_000 });
  const step = fakeStep("SIGKILL");
  interrupts.track(step);
  const first = interrupts.interrupt("SIGTERM");
  const second = interrupts.interrupt("SIGINT");
  expect(step.signals).toEqual(["SIGTERM", "SIGKILL"]);
  await clock.tick(0);
  expect(await first).toBe(143);
  expect(await second).toBe(143);
});

Deno.test("Interrupts.track() stops a step that starts after the interrupt", async () => {
  const clock = manualClock();
  const interrupts = new Interrupts({ clock, graceMs: 10 });
  await interrupts.interrupt("SIGINT");
  const late = fakeStep("SIGTERM");
  const untrack = interrupts.track(late);
  expect(late.signals).toEqual(["SIGTERM"]);
  untrack();
  expect(interrupts.running).toBe(0);
});

Deno.test("installSignalHandlers() reports the exit code once the steps stopped", async () => {
  const listeners = new Map<InterruptSignal, () => void>();
  const source: SignalSource = {
    on: (signal, listener) => listeners.set(signal, listener),
    off: (signal) => listeners.delete(signal),
  };
  const clock = manualClock();
  const interrupts = new Interrupts({ clock, graceMs: 100 });
  const step = fakeStep("never");
  interrupts.track(step);
  const codes: number[] = [];
  const uninstall = installSignalHandlers(
    interrupts,
    (code) => codes.push(code),
    source,
  );
  expect([...listeners.keys()]).toEqual(["SIGINT", "SIGTERM"]);
  listeners.get("SIGTERM")!();
  listeners.get("SIGINT")!(); // escalates; the first signal decides the code
  await clock.tick(0);
  expect(codes).toEqual([]);
  step.finish();
  await clock.tick(0);
  expect(codes).toEqual([143]);
  uninstall();
  expect(listeners.size).toBe(0);
});

Deno.test("installSignalHandlers() stops the child and grandchild, then exits 130/143", async (t) => {
  const cases = [
    { signal: "SIGTERM", code: 143 },
    { signal: "SIGINT", code: 130 },
  ] as const;
  for (const c of cases) {
    await t.step(c.signal, async () => {
      const dir = await Deno.makeTempDir();
      try {
        const main = new URL(
          "../fixtures/exec/interrupt_main.ts",
          import.meta.url,
        );
        const process = new Deno.Command(Deno.execPath(), {
          args: ["run", "--allow-all", main.pathname, `${dir}/pid`],
          stdout: "null",
          stderr: "piped",
        }).spawn();
        const stderr = process.stderr.pipeThrough(new TextDecoderStream());
        const reader = stderr.getReader();
        let seen = "";
        while (!seen.includes("[plan] tree | ready\n")) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the fixture ended early: ${seen}`);
          seen += value;
        }
        const child = Number(await Deno.readTextFile(`${dir}/pid.child`));
        const grandchild = Number(
          await Deno.readTextFile(`${dir}/pid.grandchild`),
        );
        expect(isRunning(child)).toBe(true);
        expect(isRunning(grandchild)).toBe(true);
        process.kill(c.signal);
        while (true) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += value;
        }
        const status = await process.status;
        expect(status.code).toBe(c.code);
        expect(seen).toContain(`interrupted: exit ${c.code}\n`);
        await processGone(child);
        await processGone(grandchild);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});
