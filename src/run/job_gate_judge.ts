/**
 * The judge of a wave's gate in a job: the rules read at the job's bases and
 * the forge confirmations that job may ask (SPEC.md §12, §13.1), made the one
 * way the deciding, share and waiting stages all need it. Nothing is read or
 * asked until the gate is first judged.
 * @module
 */

import {
  type GateJudge,
  gateRules,
  jobRulesContext,
} from "../base/gate_rules.ts";
import {
  type ForgeConfirmations,
  forgeConfirmations,
} from "../review/forge_confirmer.ts";
import type { Wave } from "../spec/types.ts";
import type { RunIo } from "./run_io.ts";
import type { PolicyBase } from "../gate/base_spec.ts";

/** What {@linkcode jobGateJudge} needs of the job. */
export interface JobGateInput {
  /** The spec's `name`. */
  name: string;
  /** The wave's gate. */
  gate: string;
  /** The wave. */
  wave: Wave;
  /** The bases the rules are read at (the job's own first). */
  bases: readonly PolicyBase[];
  /** Every target the wave holds in this job. */
  targets: readonly string[];
  /** The job's top level, HEAD and read-ahead. */
  base: Parameters<typeof jobRulesContext>[0];
  /** Whether the forge may be asked (`false` in a dry run). */
  ask: boolean;
}

/**
 * Makes the gate's judge and the forge's confirmations for one job.
 * @param input The gate, the wave, its bases and targets, and whether to ask.
 * @param io The edges.
 * @returns The judge, and the forge's review asker and confirmer.
 */
export function jobGateJudge(
  input: JobGateInput,
  io: RunIo,
): { judge: GateJudge; forge: ForgeConfirmations } {
  const forge = forgeConfirmations({
    name: input.name,
    gate: input.gate,
    wave: input.wave,
    commit: input.base.head,
    ask: input.ask,
  }, io);
  const judge = gateRules(
    input.bases,
    input.wave,
    input.targets,
    jobRulesContext(input.base, io.env),
    io,
    forge.confirmer,
  );
  return { judge, forge };
}
