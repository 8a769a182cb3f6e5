/**
 * The JIT policy of the shipped binary. It is built with bun's
 * `--compile-jit-policy` (`scripts/compile.ts`), which starts JavaScriptCore
 * many times more reluctant to compile: a short command (a decide, an approve,
 * `check`, `--version`) runs its run-once code in the interpreter instead of
 * paying the compilers for code that never runs again. A command still running
 * a moment later gets the normal policy back, so the hot code of a long one (a
 * wave of many runs, a step printing a million lines) is compiled as usual.
 * Where `Bun.unsafe.setJITPolicy` is missing (Deno, Node) nothing happens.
 * @module
 */

import { setTimeout } from "node:timers";

/** How long a command runs before the normal JIT policy returns, in milliseconds. */
export const NORMAL_JIT_AFTER_MS = 200;

/** The part of bun's API used here. */
interface BunUnsafe {
  Bun?: { unsafe?: { setJITPolicy?: (scale: number) => void } };
}

/**
 * Gives the runtime its normal JIT policy back after `ms`, without keeping the
 * process alive for it; does nothing where the runtime has no JIT policy.
 * @param ms The delay.
 * @param runtime Where `Bun` is looked up (tests pass a fake).
 * @returns Whether a policy will be set.
 */
export function normalJitLater(
  ms: number = NORMAL_JIT_AFTER_MS,
  runtime: BunUnsafe = globalThis as BunUnsafe,
): boolean {
  const unsafe = runtime.Bun?.unsafe;
  if (typeof unsafe?.setJITPolicy !== "function") return false;
  setTimeout(() => unsafe.setJITPolicy?.(1), ms).unref();
  return true;
}
