/**
 * The JIT policy of the shipped binary. It is built with bun's
 * `--compile-jit-policy` (`scripts/compile.ts`), which starts JavaScriptCore
 * many times more reluctant to compile: a short command (a decide, an approve,
 * `check`, `--version`) runs its run-once code in the interpreter instead of
 * paying the compilers for code that never runs again, and a wave of a
 * hundred runs does the same with the code it runs once per step. The normal
 * policy returns once a command shows it is a long one: two seconds after it
 * started, after 256 steps, or as soon as its steps printed 64 KiB (a step's
 * flood of lines goes through a hot loop from its first chunk). Where `Bun.unsafe.setJITPolicy` is missing (Deno, Node)
 * nothing happens.
 * @module
 */

import { setTimeout } from "node:timers";

/** How long a command runs before the normal JIT policy returns, in milliseconds. */
export const NORMAL_JIT_AFTER_MS = 2_000;

/** How many steps a command starts before the normal JIT policy returns. */
export const NORMAL_JIT_AFTER_STEPS = 256;

/** How many bytes its steps print before the normal JIT policy returns. */
export const NORMAL_JIT_AFTER_BYTES = 64 * 1024;

/** The part of bun's API used here. */
export interface JitRuntime {
  Bun?: { unsafe?: { setJITPolicy?: (scale: number) => void } };
}

/** Tells the policy what a command does; see {@linkcode jitPolicy}. */
export interface JitPolicy {
  /** A step started. */
  step(): void;
  /** A step printed `bytes` bytes. */
  read(bytes: number): void;
}

/**
 * Gives the runtime its normal JIT policy back once the command runs for
 * {@linkcode NORMAL_JIT_AFTER_MS} (without keeping the process alive for it),
 * has started {@linkcode NORMAL_JIT_AFTER_STEPS} steps, or its steps printed
 * {@linkcode NORMAL_JIT_AFTER_BYTES} bytes, whichever comes first; does
 * nothing where the runtime has no JIT policy.
 * @param runtime Where `Bun` is looked up (tests pass a fake).
 * @param afterMs The delay.
 * @returns What the spawner tells it.
 */
export function jitPolicy(
  runtime: JitRuntime = globalThis as JitRuntime,
  afterMs: number = NORMAL_JIT_AFTER_MS,
): JitPolicy {
  const unsafe = runtime.Bun?.unsafe;
  let normal = typeof unsafe?.setJITPolicy !== "function";
  let steps = 0;
  let bytes = 0;
  const restore = () => {
    if (normal) return;
    normal = true;
    unsafe?.setJITPolicy?.(1);
  };
  if (!normal) setTimeout(restore, afterMs).unref();
  return {
    step() {
      if (!normal && ++steps >= NORMAL_JIT_AFTER_STEPS) restore();
    },
    read(count) {
      if (!normal && (bytes += count) >= NORMAL_JIT_AFTER_BYTES) restore();
    },
  };
}
