/**
 * Interrupts (SPEC.md §2.1, §7): on SIGINT or SIGTERM, stop every running step's
 * process group (TERM, then KILL after a grace period), wait for them, and hand
 * the exit code (130 or 143) to the caller. Only `cli.ts` exits the process; this
 * module never calls `process.exit`.
 * @module
 */

import process from "node:process";
import { type Clock, realClock } from "../clock.ts";
import { INTERRUPTED, TERMINATED } from "../exit_codes.ts";
import {
  DEFAULT_KILL_GRACE_MS,
  type RunningStep,
  stopStep,
} from "./spawner.ts";

/** The signals chant-wave handles. */
export type InterruptSignal = "SIGINT" | "SIGTERM";

/** The exit code of an interrupt: 130 for SIGINT, 143 for SIGTERM. */
export type InterruptExitCode = typeof INTERRUPTED | typeof TERMINATED;

/** Options of {@linkcode Interrupts}. */
export interface InterruptsOptions {
  /** Times the grace period. @default {realClock} */
  clock?: Clock;
  /** Milliseconds between TERM and KILL. @default {5000} */
  graceMs?: number;
}

/**
 * The registry of running steps, and what happens to them on an interrupt.
 * Pass one to every `runStep` (which tracks its child here) and to `runLimited`
 * (through `signal`, so no new step starts once interrupted).
 *
 * Contract: after {@linkcode Interrupts.interrupt}, `signal` is aborted, no new
 * step starts (a step tracked later is stopped at once), every tracked step is
 * stopped with TERM then KILL after `graceMs`, and the returned promise resolves
 * with 130 (SIGINT) or 143 (SIGTERM) once they have all finished. Callers must
 * check `signal.aborted` before recording anything, so nothing half-done is
 * recorded.
 */
export class Interrupts {
  readonly #steps = new Set<RunningStep>();
  readonly #abort = new AbortController();
  readonly #clock: Clock;
  readonly #graceMs: number;
  #exitCode: InterruptExitCode | undefined;
  #stopping: Promise<InterruptExitCode> | undefined;

  /** @param options The clock and the grace period. */
  constructor(options: InterruptsOptions = {}) {
    this.#clock = options.clock ?? realClock;
    this.#graceMs = options.graceMs ?? DEFAULT_KILL_GRACE_MS;
  }

  /** Aborted once an interrupt arrived; its `reason` is the signal's name. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** 130 or 143 once interrupted, else `undefined`. */
  get exitCode(): InterruptExitCode | undefined {
    return this.#exitCode;
  }

  /** How many steps are running now. */
  get running(): number {
    return this.#steps.size;
  }

  /**
   * Tracks a running step until the returned function is called. When already
   * interrupted, the step is stopped at once.
   * @param step The step.
   * @returns A function that stops tracking it (call it when the step finished).
   */
  track(step: RunningStep): () => void {
    this.#steps.add(step);
    if (this.#abort.signal.aborted) {
      void stopStep(step, this.#clock, this.#graceMs);
    }
    return () => {
      this.#steps.delete(step);
    };
  }

  /**
   * Stops every running step: TERM to each process group, KILL after the grace
   * period, then waits for them. A second call (a second Ctrl-C) sends KILL to
   * every group at once and returns the first call's promise.
   * @param signal The signal that arrived.
   * @returns The exit code: 130 for SIGINT, 143 for SIGTERM (of the first signal).
   */
  interrupt(signal: InterruptSignal): Promise<InterruptExitCode> {
    if (this.#stopping) {
      for (const step of this.#steps) step.kill("SIGKILL");
      return this.#stopping;
    }
    this.#exitCode = signal === "SIGINT" ? INTERRUPTED : TERMINATED;
    this.#abort.abort(signal);
    const code = this.#exitCode;
    const steps = [...this.#steps];
    this.#stopping = Promise.all(
      steps.map((step) => stopStep(step, this.#clock, this.#graceMs)),
    ).then(() => code);
    return this.#stopping;
  }
}

/** The part of `node:process` the handlers use (a fake in tests). */
export interface SignalSource {
  /** Adds a listener for a signal. */
  on(signal: InterruptSignal, listener: () => void): unknown;
  /** Removes a listener added with `on`. */
  off(signal: InterruptSignal, listener: () => void): unknown;
}

/**
 * Installs SIGINT and SIGTERM handlers that call
 * {@linkcode Interrupts.interrupt} and then `onInterrupted` with 130 or 143 once
 * every step has stopped. `onInterrupted` is called once; `cli.ts` exits with
 * the code there. A second signal escalates to KILL.
 * @param interrupts The registry the steps run under.
 * @param onInterrupted Called with the exit code once the children are stopped.
 * @param source Where signals come from.
 * @default {process} for `source`
 * @returns A function that removes the handlers.
 * @example
 * ```ts
 * const interrupts = new Interrupts();
 * const uninstall = installSignalHandlers(interrupts, (code) => process.exit(code));
 * // … run steps with { interrupts } …
 * uninstall();
 * ```
 */
export function installSignalHandlers(
  interrupts: Interrupts,
  onInterrupted: (code: InterruptExitCode) => void,
  source: SignalSource = process,
): () => void {
  let reported = false;
  const handle = (signal: InterruptSignal) => {
    void interrupts.interrupt(signal).then((code) => {
      if (reported) return;
      reported = true;
      onInterrupted(code);
    });
  };
  const onInt = () => handle("SIGINT");
  const onTerm = () => handle("SIGTERM");
  source.on("SIGINT", onInt);
  source.on("SIGTERM", onTerm);
  return () => {
    source.off("SIGINT", onInt);
    source.off("SIGTERM", onTerm);
  };
}
