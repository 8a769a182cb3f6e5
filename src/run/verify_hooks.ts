/**
 * A share or group job runs the hooks recorded in the decision (SPEC.md §11),
 * but the record travelled as a CI artifact, so it checks them first: the
 * recorded commands must be exactly the working copy's, so an artifact can
 * neither bring a command from outside the repository nor drop one; and every
 * hold the job derives itself (the working copy's, and those of the base waves
 * that govern the wave at the record's base and the job's own) must be in it,
 * since holds are policy. A record holding more holds is only stricter. Any
 * mismatch is exit 2.
 * @module
 */

import { InputError } from "../errors.ts";
import { recordedHooksProblem } from "../hooks/check_recorded_hooks.ts";
import { holdsAtBase, withHolds } from "../hooks/wave_holds.ts";
import { parseHooks } from "../spec/parse_hooks.ts";
import type { Hooks, Wave } from "../spec/types.ts";
import type { Decision } from "../gate/decision.ts";
import type { PolicyBase } from "../gate/base_spec.ts";

/**
 * Checks a decision record's hooks and returns them.
 * @param input The record (already checked by `verifyDecision`), its path, the
 *   wave, and the bases the job reads the rules at (its own and the record's).
 * @returns The hooks the job runs: the record's.
 * @throws {InputError} Exit 2 when the record's hooks fall short.
 */
export function verifyHooks(input: {
  decision: Decision;
  path: string;
  wave: Wave;
  bases: readonly PolicyBase[];
}): Hooks {
  const { decision, path, wave, bases } = input;
  const recorded = decision.hooks ?? parseHooks();
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const expected = withHolds(wave.hooks, holdsAtBase(bases, ref)).hooks;
  const problem = recordedHooksProblem(recorded, expected);
  if (problem === undefined) return recorded;
  const shas = bases.map((b) => b.sha.slice(0, 12)).join(" and ");
  throw new InputError(
    `the decision record ${path} does not match the spec's hooks and the holds at ${shas}; run the deciding job again`,
    [problem],
  );
}
