/**
 * What a synchronous writer does when a non-blocking descriptor is full
 * (`EAGAIN`): wait for room rather than retry at once. Where the descriptor is
 * a pipe or a terminal on Linux, it is opened again through `/proc/self/fd`,
 * which gives a file description of its own, blocking, so the kernel waits;
 * elsewhere (a socket, no `/proc`) the writer sleeps between tries, a little
 * longer each time. It writes nothing itself.
 * @module
 */

import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { isatty } from "node:tty";

/** The shortest and longest sleep between two tries, in milliseconds. */
const FIRST_PAUSE_MS = 0.05;
const LAST_PAUSE_MS = 10;

/**
 * Opens a blocking descriptor of the same pipe or terminal as `fd`, on Linux,
 * so that writes to it wait in the kernel for the reader. The caller owns it.
 * Opening the write end of a pipe whose reader has gone would wait for a new
 * reader; a descriptor that just refused a write with `EAGAIN` still had one.
 * @param fd A descriptor that refused a write with `EAGAIN`.
 * @returns The new descriptor, or `undefined` when there is none to be had (a
 * socket, a file, no `/proc`).
 */
export function reopenBlocking(fd: number): number | undefined {
  try {
    if (!fstatSync(fd).isFIFO() && !isatty(fd)) return undefined;
    const reopened = openSync(
      `/proc/self/fd/${fd}`,
      constants.O_WRONLY | constants.O_NOCTTY,
    );
    const [was, is] = [fstatSync(fd), fstatSync(reopened)];
    if (was.dev !== is.dev || was.ino !== is.ino) {
      closeSync(reopened);
      return undefined;
    }
    return reopened;
  } catch {
    return undefined;
  }
}

/** Sleeps between the tries of a write that found its descriptor full. */
export interface Backoff {
  /** Sleeps (blocking the thread), longer after each call, up to 10 ms. */
  pause(): void;
  /** Starts again from the shortest sleep (after a write got through). */
  reset(): void;
}

/**
 * Makes a backoff whose sleeps go from 0.05 ms to 10 ms, doubling.
 * @returns The backoff.
 */
export function backoff(): Backoff {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let pauseMs = FIRST_PAUSE_MS;
  return {
    pause(): void {
      Atomics.wait(cell, 0, 0, pauseMs);
      pauseMs = Math.min(pauseMs * 2, LAST_PAUSE_MS);
    },
    reset(): void {
      pauseMs = FIRST_PAUSE_MS;
    },
  };
}
