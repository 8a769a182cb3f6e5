/**
 * What every stage of one wave of a job works with (SPEC.md §4, §11): the job's
 * input, the wave, its base, where it plans, its hooks and their report, and
 * the judge of its gate (the rules read at the job's bases and the forge
 * confirmations the job may ask, §12, §13.1, made the one way the deciding,
 * share and waiting stages need it; nothing is read or asked until the gate is
 * first judged). Opening it writes the hooks report first and gives the job's
 * commands its path in `CHANT_WAVE_HOOKS`, so every plan, apply and hook
 * command finds it.
 * @module
 */

import type { BaseRead } from "../base/read_base.ts";
import {
  type HoldTarget,
  HOOK_POINTS,
  type Hooks,
  type Wave,
} from "../spec/types.ts";
import { toolContext } from "../tool/tool_context.ts";
import { type HookRunner, hookRunner } from "./hook_stage.ts";
import { gateName } from "../gate/gate_messages.ts";
import {
  type GateJudge,
  gateRules,
  jobRulesContext,
} from "../base/gate_rules.ts";
import {
  hookFiles,
  type HooksReporter,
  openHooksReport,
} from "./hooks_file.ts";
import type { RunIo } from "./run_io.ts";
import type { HoldShapeOf } from "./read_hold.ts";
import { readTreeFile } from "../git/tree_file.ts";
import { GitError } from "../git/git.ts";
import { InputError } from "../errors.ts";
import type { Spec } from "../spec/types.ts";
import type { PlanContext } from "./run_outcomes.ts";
import {
  type ForgeConfirmations,
  forgeConfirmations,
} from "../review/forge_confirmer.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
import type { ApprovalRules } from "../gate/approval_at_base.ts";
import type { RunJobInput } from "./select_job.ts";

/** One wave of a job, as its stages see it. */
export interface WaveJob {
  input: RunJobInput;
  wave: Wave;
  base: BaseRead;
  /** The job's edges; the environment holds `CHANT_WAVE_HOOKS`. */
  io: RunIo;
  /** Where the job plans and applies, and how. */
  context: Omit<PlanContext, "discover">;
  hooks: HookRunner;
  report: HooksReporter;
}

/**
 * Opens one wave of a job: names its files, writes the hooks report, sets
 * `CHANT_WAVE_HOOKS`, and reads what the policy at base says about the tool's
 * plans (logged).
 * @param input The job.
 * @param where The plan root (`.chant` or a dry run's directory) and the job's tag.
 * @param base The job's base.
 * @param hooks The wave's hooks (with the holds at base).
 * @param io The edges.
 * @returns The wave job.
 * @throws {InputError} Exit 2 when `.chant/waves` is reached through a link.
 */
export async function openWaveJob(
  input: RunJobInput,
  where: { root: string; jobTag: string },
  base: BaseRead,
  hooks: Hooks,
  io: RunIo,
): Promise<WaveJob> {
  const { spec, selection: { wave }, settings } = input;
  const files = await hookFiles(
    where.root,
    spec.name,
    wave.k,
    where.jobTag,
    io.cwd,
  );
  const report = await openHooksReport(files.report, wave, io.cwd);
  // Just before the job's first command of the change (a hook, a plan or a
  // tool step): records that reach the ledger from now on do not loosen
  // anything for this job (SPEC.md §4.12).
  const asOf = await io.ledger.mark({ names: gateNames(spec.name, hooks) });
  const jobIo = {
    ...io,
    env: { ...io.env, CHANT_WAVE_HOOKS: files.report },
    asOf,
  };
  const runner = hookRunner(
    {
      spec,
      wave,
      settings,
      files,
      report,
      io: jobIo,
      ...(input.ledgerArg === undefined ? {} : { ledgerArg: input.ledgerArg }),
      judgeOf: holdJudges(input, base, jobIo),
      shapeOf: holdShapes(input, base, jobIo),
    },
    hooks,
  );
  const tool = toolContext(spec, base.bases, wave, io);
  return {
    input,
    wave,
    base,
    io: jobIo,
    context: {
      root: where.root,
      jobTag: where.jobTag,
      settings,
      ...(tool ? { tool } : {}),
    },
    hooks: runner,
    report,
  };
}

/** The spec names whose gates a wave reads: its own, and its holds' targets. */
function gateNames(name: string, hooks: Hooks): string[] {
  const names = [name];
  for (const point of HOOK_POINTS) {
    for (const hook of hooks[point]) {
      if ("after" in hook) names.push(hook.after.name);
    }
  }
  return names;
}

/**
 * The judge of a hold's gate (`read_hold.ts`): of a gate of this rollout, its
 * wave's rules at the job's bases; of another rollout's gate, this wave's own
 * rules when they trust no unsigned record (`sealed`, `forge`), else none (the
 * ledger's rules). Made once per gate, read when first asked.
 */
function holdJudges(
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): (target: HoldTarget) => GateJudge | undefined {
  const { spec, selection: { wave }, dryRun } = input;
  const made = new Map<string, GateJudge>();
  const judgeOf = (held: Wave) => {
    const gate = gateName(spec, held.k);
    const known = made.get(gate);
    if (known) return known;
    const { judge } = jobGateJudge({
      name: spec.name,
      gate,
      wave: held,
      bases: base.bases,
      targets: held.runs.map((run) => run.target),
      base,
      ask: !dryRun,
    }, io);
    made.set(gate, judge);
    return judge;
  };
  return (target) => {
    if (target.name === spec.name) {
      const held = spec.waves.find((w) => gateName(spec, w.k) === target.gate);
      if (held) return judgeOf(held);
    }
    const own = judgeOf(wave);
    return own.rules.mode === "ledger" ? undefined : own;
  };
}

/**
 * The shape of a hold's wave (`read_hold.ts`): of a gate of this rollout, the
 * job's own spec's wave; of another rollout's, its wave in the spec the
 * newest pending fact names at its head, when this checkout has it and it
 * parses (the shares and groups its jobs ran as); else unknown.
 */
function holdShapes(
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): HoldShapeOf {
  const waveOf = (spec: Spec, gate: string) =>
    spec.waves.find((w) => gateName(spec, w.k) === gate);
  return async (target, pending) => {
    const { spec } = input;
    if (target.name === spec.name) return waveOf(spec, target.gate);
    if (pending?.head === undefined || pending.spec === undefined) {
      return undefined;
    }
    try {
      const file = await readTreeFile(
        io.git,
        base.top,
        pending.head,
        pending.spec,
      );
      if (file.status !== "file") return undefined;
      const there = input.parseSpec(file.text, pending.spec);
      return there.name === target.name
        ? waveOf(there, target.gate)
        : undefined;
    } catch (error) {
      // Not in this checkout, or no spec that parses: unknown.
      if (error instanceof GitError || error instanceof InputError) {
        return undefined;
      }
      throw error;
    }
  };
}

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
  /** The job logged the wave's policy line for these bases and targets. */
  policySaid?: boolean;
  /** The approver rules the rules over the plan's changes decided (§18). */
  rules?: ApprovalRules;
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
    {
      ...jobRulesContext(input.base, io.env),
      ...(input.policySaid ? { policySaid: true } : {}),
      ...(input.rules ? { rules: input.rules } : {}),
    },
    io,
    forge.confirmer,
  );
  return { judge, forge };
}
