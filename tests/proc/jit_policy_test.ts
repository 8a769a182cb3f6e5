// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  jitPolicy,
  NORMAL_JIT_AFTER_BYTES,
  NORMAL_JIT_AFTER_STEPS,
} from "../../src/proc/jit_policy.ts";
import { pollUntil } from "../_helpers/poll.ts";
import { nodeSpawner } from "../../src/exec/spawner.ts";

/** A fake bun whose policy calls are kept. */
function fakeBun() {
  const calls: number[] = [];
  return {
    calls,
    runtime: {
      Bun: { unsafe: { setJITPolicy: (s: number) => calls.push(s) } },
    },
  };
}

const LONG_MS = 60_000;

Deno.test("jitPolicy() gives bun its normal JIT policy back once a command proves long, once", async (t) => {
  await t.step("after the delay", async () => {
    const { calls, runtime } = fakeBun();
    const started = performance.now();
    jitPolicy(runtime, 20);
    expect(calls).toEqual([]);
    await pollUntil("setJITPolicy", () => calls.length > 0);
    expect(calls).toEqual([1]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  });
  await t.step("after a few steps", () => {
    const { calls, runtime } = fakeBun();
    const policy = jitPolicy(runtime, LONG_MS);
    for (let i = 1; i < NORMAL_JIT_AFTER_STEPS; i++) policy.step();
    expect(calls).toEqual([]);
    policy.step();
    policy.step();
    expect(calls).toEqual([1]);
  });
  await t.step("once its steps printed a little", () => {
    const { calls, runtime } = fakeBun();
    const policy = jitPolicy(runtime, LONG_MS);
    policy.read(NORMAL_JIT_AFTER_BYTES - 1);
    expect(calls).toEqual([]);
    policy.read(1);
    policy.read(1_000_000);
    expect(calls).toEqual([1]);
  });
  await t.step("without Bun.unsafe.setJITPolicy (Deno, Node): nothing", () => {
    for (const runtime of [{}, { Bun: {} }, undefined]) {
      const policy = jitPolicy(runtime, 0);
      policy.step();
      policy.read(NORMAL_JIT_AFTER_BYTES);
    }
  });
});

Deno.test("nodeSpawner() tells the JIT policy of each step and of what it printed", async () => {
  const steps: number[] = [];
  let bytes = 0;
  const spawner = nodeSpawner({
    jit: { step: () => steps.push(1), read: (n) => bytes += n },
  });
  for (let i = 0; i < 2; i++) {
    const child = await spawner.spawn({ argv: ["sh", "-c", "printf 12345"] });
    for await (const _ of child.stdout()) { /* read it all */ }
    for await (const _ of child.stderr()) { /* read it all */ }
    expect(await child.waitExitCode()).toBe(0);
  }
  expect({ steps: steps.length, bytes }).toEqual({ steps: 2, bytes: 10 });
});
