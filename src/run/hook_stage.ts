/**
 * The hook stage (SPEC.md §11): runs a wave job's hooks at one point, in order.
 * A command hook runs through the step console with phase `hook`; a hold reads
 * the other rollout's gate. Every outcome goes into the hooks report
 * (`CHANT_WAVE_HOOKS`). A failed hook stops the job with exit 1 (at
 * `after-apply`, once every after-apply hook ran), a held one with exit 3; the
 * stage logs why, with the failed hook's last lines or the command that approves
 * what the hold waits for. A hold found late (at base, through a target only the
 * plans named) is checked at the next point. A wave's hooks are its own (or the
 * spec's) plus every hold of the base waves that govern it, since holds are
 * policy and a change cannot remove one.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { RUN_FAILED, WAITING } from "../exit_codes.ts";
import type { StepResult } from "../exec/run_step.ts";
import { holdsAtBase, isHold, withHolds } from "../hooks/wave_holds.ts";
import {
  type CommandHook,
  type HoldHook,
  type HoldTarget,
  type Hook,
  HOOK_POINTS,
  type HookPoint,
  type Hooks,
  type Run,
  type Spec,
  type Wave,
} from "../spec/types.ts";
import type { DecisionMember } from "../gate/decision.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import type { JobResult } from "../jobs/job_result.ts";
import {
  type HookFiles,
  type HooksReporter,
  writeHookPlans,
  writeHookRuns,
} from "./hooks_file.ts";
import { type HoldShapeOf, readHold } from "./read_hold.ts";
import { shellWord } from "../shell_words.ts";
import { type RunIo, type StepSettings, throwIfInterrupted } from "./run_io.ts";
import { runUserStep } from "../exec/run_user_step.ts";
import type { BaseSpec } from "../gate/base_spec.ts";

/** What a wave job's hooks run with. */
export interface HookSetting {
  spec: Pick<Spec, "op">;
  wave: Wave;
  settings: StepSettings;
  files: HookFiles;
  report: HooksReporter;
  /** The job's edges (its environment holds `CHANT_WAVE_HOOKS`). */
  io: RunIo;
  /** The `--ledger` argument a printed approve command needs, when not the default. */
  ledgerArg?: string;
  /** The judge of a hold's gate's approvals, when the job has one (`read_hold.ts`). */
  judgeOf?: (target: HoldTarget) => GateJudge | undefined;
  /** The shape of a hold's wave, for `applied` (`read_hold.ts`). */
  shapeOf?: HoldShapeOf;
}

/** Why hooks stopped the job: a hook failed (exit 1) or a hold is held (exit 3). */
export interface HookStop {
  exitCode: typeof RUN_FAILED | typeof WAITING;
}

/** The job's runs and, from after-plan on, its plans, for `{runs}` and `{plans}`. */
export interface HookJob {
  runs: readonly Run[];
  members?: readonly DecisionMember[];
  /** Check the holds only, and say which commands would run (a dry run's before-apply). */
  holdsOnly?: boolean;
}

/** Runs a wave job's hooks, point by point. */
export interface HookRunner {
  /** The hooks it runs. */
  hooks(): Hooks;
  /** Replaces the hooks (more holds found at base after planning). */
  setHooks(hooks: Hooks): void;
  /** Starts a pass of the job (each plan of a replan runs its hooks again). */
  startPass(): Promise<void>;
  /**
   * Runs the hooks at `point`.
   * @returns `undefined` when all are ok, else why the job stops.
   */
  run(point: HookPoint, job: HookJob): Promise<HookStop | undefined>;
}

/** What a failed hook at each point means for the wave. */
const CONSEQUENCE: Record<HookPoint, string> = {
  "before-plan": "; nothing planned",
  "after-plan": "; nothing applied",
  "before-apply": "; nothing applied",
  "after-apply": "",
};

/**
 * Makes the hook runner of a wave job.
 * @param setting The spec, wave, settings, files, report and edges.
 * @param hooks The wave's hooks (with the holds at base).
 * @returns The runner.
 */
export function hookRunner(setting: HookSetting, hooks: Hooks): HookRunner {
  let current = hooks;
  let checked = new Set<Hook>();
  return {
    hooks: () => current,
    setHooks(next) {
      current = next;
    },
    async startPass() {
      checked = new Set();
      await setting.report.startPass();
    },
    async run(point, job) {
      const earlier = HOOK_POINTS.slice(0, HOOK_POINTS.indexOf(point));
      const late = earlier.flatMap((p) =>
        current[p].filter((hook) => isHold(hook) && !checked.has(hook))
          .map((hook) => ({ point: p, hook }))
      );
      const list = [
        ...late,
        ...current[point].map((hook) => ({ point, hook })),
      ];
      if (list.length === 0) return undefined;
      await writeHookFiles(setting, point, job);
      let failed = false;
      for (const item of list) {
        checked.add(item.hook);
        if (job.holdsOnly && !isHold(item.hook)) {
          lineLog(setting.io.stderr)(
            `dry run: would run ${item.point} hook "${item.hook.name}"`,
          );
          continue;
        }
        const stop = isHold(item.hook)
          ? await runHold(setting, item.point, item.hook)
          : await runCommand(setting, item.point, item.hook);
        if (stop?.exitCode === WAITING) return stop;
        if (stop && point !== "after-apply") return stop;
        failed ||= stop !== undefined;
      }
      return failed ? { exitCode: RUN_FAILED } : undefined;
    },
  };
}

/**
 * Runs the after-apply hooks once a job's applies are done (SPEC.md §11): a
 * failed one fails the job (the hook stage says which and why).
 * @param hooks The job's hook runner.
 * @param result The job's result after its last pass.
 * @param members The last pass's plans, for `{runs}` and `{plans}`.
 * @returns The result, with exit 1 when an after-apply hook failed.
 */
export async function afterApply(
  hooks: HookRunner,
  result: JobResult,
  members: readonly DecisionMember[],
): Promise<JobResult> {
  const stop = await hooks.run("after-apply", {
    runs: members.map(({ target, op }) => ({ target, op })),
    members,
  });
  return stop ? { ...result, exitCode: RUN_FAILED } : result;
}

/** Writes `{runs}`, and from after-plan on `{plans}`, for the hook commands. */
async function writeHookFiles(
  setting: HookSetting,
  point: HookPoint,
  job: HookJob,
): Promise<void> {
  const { files, io } = setting;
  await writeHookRuns(files.runs, job.runs, io.cwd);
  if (point !== "before-plan" && job.members) {
    await writeHookPlans(files.plans, job.members, io.cwd);
  }
}

/** Runs a command hook; logs its outcome; a failure says what it means. */
async function runCommand(
  setting: HookSetting,
  point: HookPoint,
  hook: CommandHook,
): Promise<HookStop | undefined> {
  const { spec, wave, files, io } = setting;
  const step: StepResult = await runUserStep(
    {
      template: hook.run,
      phase: "hook",
      wave,
      label: hook.name,
      values: {
        op: spec.op,
        runs: files.runs,
        ...(point === "before-plan" ? {} : { plans: files.plans }),
      },
    },
    setting.settings,
    io,
  );
  throwIfInterrupted(io);
  const outcome = step.ok ? "ok" : "failed";
  await setting.report.add({ point, name: hook.name, outcome });
  const log = lineLog(io.stderr);
  if (step.ok) {
    log(`hook ${point} "${hook.name}": ok`);
    return undefined;
  }
  const failure = step.failure ?? `hook of "${hook.name}" failed`;
  log(
    `error: wave ${wave.k} "${wave.name}": ${point} hook "${hook.name}" failed: ${failure}${
      CONSEQUENCE[point]
    }`,
  );
  if (step.tail.length) {
    log("  last lines:");
    for (const line of step.tail) log(`  | ${line}`);
  }
  return { exitCode: RUN_FAILED };
}

/** Checks a hold; logs it; a held one says what approves it. */
async function runHold(
  setting: HookSetting,
  point: HookPoint,
  hook: HoldHook,
): Promise<HookStop | undefined> {
  const { wave, io } = setting;
  const { name, gate } = hook.after;
  const read = await readHold(
    hook.after,
    io,
    setting.ledgerArg,
    setting.judgeOf?.(hook.after),
    setting.shapeOf,
  );
  await setting.report.add({ point, name: hook.name, outcome: read.outcome });
  const log = lineLog(io.stderr);
  log(
    `hold ${point} "${hook.name}" on ${name} / ${gate}: ${read.outcome}: ${read.why}`,
  );
  if (read.outcome === "ok") return undefined;
  const then = read.approve
    ? `Approve: ${read.approve}`
    : hook.after.applied
    ? `It waits until that wave applied${
      read.approvedBy === undefined ? "" : ` (approved by ${read.approvedBy})`
    }`
    : `Approve: chant-wave approve ${name} ${gate}${
      setting.ledgerArg === undefined
        ? ""
        : ` --ledger ${shellWord(setting.ledgerArg)}`
    } once that wave waits for an approval`;
  log(
    `wave ${wave.k} "${wave.name}" waits on ${name} / ${gate}; nothing in it applied. ${then}`,
  );
  return { exitCode: WAITING };
}

/**
 * Adds the holds at base to a wave's hooks and logs the ones added.
 * @param hooks The hooks so far (the wave's, or what an earlier call returned).
 * @param wave The wave (its number and name).
 * @param bases The base commits and the spec at each.
 * @param targets Every target the wave holds in this job (declared and planned).
 * @param io The log.
 * @returns The hooks with every hold at base.
 */
export function waveHooks(
  hooks: Hooks,
  wave: Pick<Wave, "k" | "name">,
  bases: readonly { sha: string; spec: BaseSpec }[],
  targets: Iterable<string>,
  io: Pick<RunIo, "stderr">,
): Hooks {
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const { hooks: all, added } = withHolds(hooks, holdsAtBase(bases, ref));
  const log = lineLog(io.stderr);
  for (const { point, hook, sha, from } of added) {
    const where = from === "top level"
      ? "its top level"
      : `wave ${from.k} "${from.name}"`;
    log(
      `hold ${point} "${hook.name}" on ${hook.after.name} / ${hook.after.gate}: ` +
        `read at ${
          sha.slice(0, 12)
        } (${where}); holds are policy, so it stands`,
    );
  }
  return all;
}
