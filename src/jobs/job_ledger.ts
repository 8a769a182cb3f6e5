/**
 * The ledger a spec's CI jobs use (SPEC.md §5.1, §6): the spec's `ledger`, else
 * the git ledger every runner of a pipeline shares; and a job's command line
 * with it, as the pipelines run it and `jobs` prints it, so a printed command
 * works as printed. Pure.
 * @module
 */

import type { Spec } from "../spec/types.ts";

/**
 * The `--ledger` argument of a spec's CI jobs.
 * @param spec The spec.
 * @returns Its `ledger`, else `git`.
 * @example
 * ```ts
 * pipelineLedger({ ledger: undefined }); // "git"
 * ```
 */
export function pipelineLedger(spec: Pick<Spec, "ledger">): string {
  return spec.ledger ?? "git";
}

/**
 * A job's command with the ledger its pipeline passes.
 * @param job The job (a wave's, or a forge job).
 * @param spec The spec.
 * @returns `[...job.command, "--ledger", <ledger>]`.
 * @example
 * ```ts
 * ciCommand({ command: ["chant-wave", "run"] }, {}); // [..., "--ledger", "git"]
 * ```
 */
export function ciCommand(
  job: { command: readonly string[] },
  spec: Pick<Spec, "ledger">,
): string[] {
  return [...job.command, "--ledger", pipelineLedger(spec)];
}
