/**
 * Deterministic HTTP deps for the forge tests: a manual clock (time moves only
 * when a test ticks it, so the 30 s timeout never fires by itself), a sleep that
 * records the wait and returns at once, and fixed jitter.
 * @module
 */

import type { HttpDeps } from "../../src/forge/forge_http.ts";
import { type ManualClock, manualClock } from "../_helpers/manual_clock.ts";

/** The deps and what they observed. */
export interface TestDeps {
  /** Pass to a client or `forgeHttp`. */
  deps: HttpDeps & { clock: ManualClock };
  /** Every wait the edge asked for, in order (ms). */
  sleeps: number[];
}

/** 2025-01-01T00:00:00Z, the manual clock's start. */
export const START = Date.parse("2025-01-01T00:00:00Z");

/**
 * Makes test deps.
 * @param extra Limits to override (`maxAttempts`, `maxBytes`, …).
 * @returns The deps and the recorded sleeps.
 */
export function testDeps(extra: HttpDeps = {}): TestDeps {
  const sleeps: number[] = [];
  return {
    sleeps,
    deps: {
      random: () => 0.5,
      ...extra,
      clock: manualClock(START),
      sleep: (ms: number) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    },
  };
}
