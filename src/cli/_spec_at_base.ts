/**
 * The versions of a spec the base rule reads, for the commands an approver
 * runs with `--spec` (`approve`, `show`, `revoke`, `status`, `ledger`,
 * `resume`): what the working copy says (the rollout's name, a wave's gate,
 * the ledger) counts only where the spec at base says the same, since on a
 * laptop the working copy is the change's.
 * @module
 */

import { readBase } from "../base/read_base.ts";
import { InputError } from "../errors.ts";
import type { ParseSpecFn } from "../gate/base_spec.ts";
import type { Spec } from "../spec/types.ts";
import type { CliIo } from "./io.ts";
import { specParser } from "./_load_spec.ts";

/** The spec at each base version (`undefined` where it does not parse or is absent), and the base. */
export interface SpecsAtBase {
  /** The base commit. */
  sha: string;
  /** One per version the base rule reads. */
  specs: (Spec | undefined)[];
}

/**
 * Reads the spec at base as `run` does.
 * @param specFile The spec file as the user named it.
 * @param io Git, the working directory and the environment.
 * @param options `--base` and the parser, when the caller has them.
 * @returns The versions and the base.
 * @throws {InputError} When the base cannot be read.
 */
export async function specsAtBase(
  specFile: string,
  io: Pick<CliIo, "git" | "cwd" | "env">,
  options: { baseFlag?: string; parse?: ParseSpecFn; approver?: boolean } = {},
): Promise<SpecsAtBase> {
  const base = await readBase({
    git: io.git,
    cwd: io.cwd,
    specPath: specFile,
    ...(options.baseFlag === undefined ? {} : { flag: options.baseFlag }),
    env: io.env,
    parse: options.parse ?? await specParser(),
    // For an approver no ledger is read here (it is what is being chosen),
    // so no decision bounds the chain: a history that joins unrelated roots
    // (a first-parent line of the change's own merged with the real one) is
    // refused, as a job with no trusted decision refuses it, instead of its
    // versions alone being read.
    ...(options.approver
      ? { decisions: () => Promise.resolve([]), shallowChain: "read" as const }
      : {}),
  }).catch((error) => {
    if (options.approver && error instanceof InputError) {
      throw new InputError(error.message, [
        "pass NAME GATE and --ledger as the waiting job printed them",
      ]);
    }
    throw error;
  });
  return {
    sha: base.sha,
    specs: base.bases.map((b) =>
      b.spec.status === "parsed" ? b.spec.spec : undefined
    ),
  };
}
