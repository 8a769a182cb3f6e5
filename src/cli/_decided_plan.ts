/**
 * What `approve --decided` and `approve --via` read (SPEC.md §13.1): the digest
 * of the wave's decision record in the working directory, as the manual
 * approve job of a GitLab pipeline finds it beside the job that waited, and
 * the URL of the forge action that approves. The CLI edge of the click path.
 * @module
 */

import { hasControlCharacter } from "../console/visible.ts";
import { InputError } from "../errors.ts";
import { readDecision } from "../run/read_decision.ts";
import { findWave, type GateTarget } from "./_gate_target.ts";

/** The digest the decision waits for, or why nothing waits. */
export type DecidedPlan =
  | { digest: string }
  /** Nothing waits: why, and the digest the decision holds all the same. */
  | { nothing: string; decided: string };

/**
 * The digest of the waiting decision of the wave `--spec F --wave K` names.
 * @param target The gate, named with `--spec` and `--wave`.
 * @param wave The `--wave` flag.
 * @param file The `--spec` flag.
 * @param cwd The working directory.
 * @returns The digest when the decision waits; otherwise why nothing waits
 *   (`wave 2 "prod" does not wait: its decision is approved`).
 * @throws {InputError} Without `--spec F --wave K`, or when the decision
 *   record is missing, malformed or another wave's.
 */
export async function decidedPlan(
  target: GateTarget,
  wave: string | undefined,
  file: string | undefined,
  cwd: string,
): Promise<DecidedPlan> {
  if (target.spec === undefined || wave === undefined || file === undefined) {
    throw new InputError('"--decided" needs --spec F --wave K');
  }
  const found = findWave(target.spec, wave, file);
  const { decision, path } = await readDecision(target.spec.name, found, cwd);
  if (decision.gate !== target.gate) {
    throw new InputError(
      `the decision "${path}" is for gate "${decision.gate}", not "${target.gate}"`,
    );
  }
  if (decision.status !== "waiting") {
    return {
      nothing:
        `wave ${found.k} "${found.name}" does not wait: its decision (${path}) is ${decision.status}; nothing to approve`,
      decided: decision.digest,
    };
  }
  return { digest: decision.digest };
}

/** The longest `--via` URL, in characters. */
const MAX_VIA = 2048;

/**
 * Checks `--via`: an http(s) URL of at most 2048 characters without control
 * characters or white space.
 * @param via The flag's value.
 * @returns It, unchanged.
 * @throws {InputError} When it is not such a URL.
 * @example
 * ```ts
 * viaUrl("https://github.com/o/r/actions/runs/7"); // the same
 * ```
 */
export function viaUrl(via: string): string {
  if (
    via.length > MAX_VIA || hasControlCharacter(via) || /\s/.test(via) ||
    !/^https?:\/\/[^/]+\/./.test(via)
  ) {
    throw new InputError(
      `"--via" must be the http(s) URL of the run or job that approves, of at most ${MAX_VIA} characters`,
    );
  }
  return via;
}
