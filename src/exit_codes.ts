/**
 * The process exit codes of chant-wave (SPEC.md §2.1), as named constants.
 * Only `cli.ts` passes them to the runtime; everything else returns or throws them.
 * @module
 */

/** Done: applied, decided and free to apply, or nothing to do. */
export const OK = 0;
/** A run failed (plan or apply exited non-zero, timed out, bad plan file) or an internal error. */
export const RUN_FAILED = 1;
/** Invalid input: bad flags, a bad spec, a missing file or commit, an unknown wave, share or group. */
export const INVALID_INPUT = 2;
/**
 * Waiting, and nothing in the wave ran: for an approval that does not stand,
 * for the wave before to apply this commit (the order, §4.11), or on a hold (§11).
 */
export const WAITING = 3;
/** A share or group job refused runs whose plan moved since the decision. */
export const PLAN_MOVED = 4;
/** `drift` only: at least one run that applied has a non-empty plan now (SPEC.md §19). */
export const DRIFT = 5;
/** Interrupted by SIGINT. */
export const INTERRUPTED = 130;
/** Stopped by SIGTERM. */
export const TERMINATED = 143;

/** Every exit code chant-wave uses. */
export type ExitCode =
  | typeof OK
  | typeof RUN_FAILED
  | typeof INVALID_INPUT
  | typeof WAITING
  | typeof PLAN_MOVED
  | typeof DRIFT
  | typeof INTERRUPTED
  | typeof TERMINATED;
