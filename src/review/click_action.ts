/**
 * The click path as an action the forge confirms (SPEC.md §13.1): an approval
 * record that names, in `via`, the approve workflow's run (GitHub, Forgejo) or
 * the manual approve job (GitLab) counts on a `forge` gate when the forge's API
 * shows, in this job, that the run or job exists and succeeded, was started by
 * the record's approver (not a bot, nor the pipeline's own token), and asked
 * for exactly this wave and digest: the run's name (which the workflow's
 * `run-name` sets from its inputs), or, on GitLab, one of the wave's approve
 * jobs in this very pipeline (the wave's child pipeline, whose deciding job the
 * approve job read its digest from). A Forgejo run never shows its run-name, so a Forgejo dispatch is
 * refused, saying so, once nothing else is wrong with it. Who wrote the record does not matter. Whether the approver is the
 * change's author is the gate's rules' question (`selfApproval`).
 * @module
 */

import type { ApproveJob, ApproveRun } from "../forge/approve_action.ts";
import type { ClickForge } from "../forge/click_forge.ts";
import { ForgeError } from "../forge/forge_error.ts";
import {
  approveJobIndex,
  approveJobName,
  approveRunName,
  approveWorkflowFile,
} from "../jobs/approve_job.ts";
import type { ApprovalRecord } from "../gate/records.ts";
import type { ActionKind, Confirmation } from "../gate/confirm_approvals.ts";
import { viaTarget } from "../gate/action_floor.ts";

/** What the click kind checks against. */
export interface ClickInput {
  /** The spec's `name`. */
  name: string;
  /** The wave: its number and name. */
  wave: { k: number; name: string };
  /** GitLab: the pipeline this job runs in (`CI_PIPELINE_ID`). */
  pipelineId?: string;
  /** Makes the forge to ask, or says why it cannot be asked (called when first needed). */
  forge: () => ClickForge | { missing: string };
  /** Waits between asks while a run or job is still finishing. */
  sleep: (ms: number) => Promise<void>;
  /**
   * The repository's default branch, as this run's forge names it (none
   * outside CI): an approve run must have run its workflow file there.
   */
  defaultBranch?: () => Promise<string | undefined>;
}

/** How often, and how far apart, an unfinished run or job is asked again. */
const ASKS = 10;
const PAUSE_MS = 3000;

/**
 * The click kind of action, for one wave's gate.
 * @param input The spec's name, the wave, the pipeline, the forge.
 * @returns The action kind: `undefined` for a record without `via`.
 */
export function clickAction(input: ClickInput): ActionKind {
  let made: ClickForge | { missing: string } | undefined;
  return {
    async confirm(approval) {
      if (approval.via === undefined) return undefined;
      const refused = (why: string): Confirmation => ({
        confirmed: false,
        why,
      });
      const target = viaTarget(approval.via);
      if (target === undefined) {
        return refused("its via names no run or job of the forge");
      }
      const forge = made ??= input.forge();
      if ("missing" in forge) {
        return refused(`cannot ask the forge about it: no ${forge.missing}`);
      }
      try {
        if (forge.forge === "gitlab") {
          if (target.kind !== "job") {
            return refused("its via names no GitLab job");
          }
          const job = await settled(() => forge.job(target.id), input);
          return await checkJob(approval, job, target.id, forge, input);
        }
        if (target.kind !== "run") return refused("its via names no run");
        const run = await settled(() => forge.run(target.id), input);
        return await checkRun(approval, run, target.id, forge, input);
      } catch (error) {
        if (!(error instanceof ForgeError)) throw error;
        return refused(`cannot ask the forge about it: ${error.message}`);
      }
    },
  };
}

/**
 * Why a run whose forge hides what it asked for does not count.
 * @param id The run's id or number.
 * @param hidden Why the forge shows no run-name.
 * @returns The reason.
 * @example
 * ```ts
 * askedHidden("8", FORGEJO_TITLE);
 * // "run 8: a Forgejo run is titled with …, so the wave and digest it asked for cannot be confirmed"
 * ```
 */
export function askedHidden(id: string, hidden: string): string {
  return `run ${id}: ${hidden}, so the wave and digest it asked for cannot be confirmed`;
}

/** Asks until the run or job finished, a bounded number of times. */
async function settled<T extends { finished: boolean }>(
  ask: () => Promise<T | undefined>,
  input: ClickInput,
): Promise<T | undefined> {
  let answer = await ask();
  for (let i = 1; i < ASKS && answer !== undefined && !answer.finished; i++) {
    await input.sleep(PAUSE_MS);
    answer = await ask();
  }
  return answer;
}

/** Why the forge's login does not approve: a bot, the pipeline's own token, another login. */
async function loginProblem(
  approval: ApprovalRecord,
  who: { login: string; bot: boolean } | undefined,
  forge: ClickForge,
): Promise<string | undefined> {
  if (who === undefined) return "the forge shows nobody starting it";
  if (who.bot) return `${who.login} is a bot`;
  if (who.login.toLowerCase() !== approval.by.toLowerCase()) {
    return `${who.login} started it, not ${approval.by}`;
  }
  const own = await forge.tokenUser();
  if (own !== undefined && own.toLowerCase() === who.login.toLowerCase()) {
    return "the pipeline's own token started it";
  }
  return undefined;
}

async function checkRun(
  approval: ApprovalRecord,
  run: ApproveRun | undefined,
  id: string,
  forge: ClickForge,
  input: ClickInput,
): Promise<Confirmation> {
  const refused = (why: string): Confirmation => ({ confirmed: false, why });
  if (run === undefined) {
    return refused(`it names run ${id}, which the forge does not know`);
  }
  const workflow = approveWorkflowFile(input.name);
  if (run.workflow !== workflow || run.event !== "workflow_dispatch") {
    return refused(`run ${id} is not a dispatch of ${workflow}`);
  }
  if (!run.succeeded) return refused(`run ${id} did not succeed`);
  // A dispatch on another branch runs that branch's copy of the workflow,
  // which may ask for any run-name.
  const main = await input.defaultBranch?.();
  if (run.branch !== undefined && main !== undefined && run.branch !== main) {
    return refused(
      `run ${id} ran on the branch ${
        JSON.stringify(run.branch.slice(0, 120))
      }, not ${main}: a dispatch runs its branch's copy of ${workflow}`,
    );
  }
  for (
    const who of [
      run.triggeredBy,
      ...(forge.forge === "github" ? [run.actor] : []),
    ]
  ) {
    const problem = await loginProblem(approval, who, forge);
    if (problem) return refused(`run ${id}: ${problem}`);
  }
  if ("hidden" in run.asked) return refused(askedHidden(id, run.asked.hidden));
  const wanted = approveRunName(
    input.name,
    String(input.wave.k),
    approval.planDigest,
  );
  if (run.asked.title !== wanted) {
    return refused(
      `run ${id} asked for "${run.asked.title.slice(0, 120)}", not "${wanted}"`,
    );
  }
  return { confirmed: true, login: run.triggeredBy!.login };
}

async function checkJob(
  approval: ApprovalRecord,
  job: ApproveJob | undefined,
  id: string,
  forge: ClickForge,
  input: ClickInput,
): Promise<Confirmation> {
  const refused = (why: string): Confirmation => ({ confirmed: false, why });
  if (job === undefined) {
    return refused(`it names job ${id}, which the forge does not know`);
  }
  if (approveJobIndex(job.name, input.wave.k, input.wave.name) === undefined) {
    const name = approveJobName(input.wave.k, input.wave.name, 1)
      .replace(/1$/, "<i>");
    return refused(`job ${id} is ${job.name}, not ${name}`);
  }
  if (input.pipelineId === undefined || job.pipelineId !== input.pipelineId) {
    return refused(
      `job ${id} belongs to pipeline ${job.pipelineId}, not to this one`,
    );
  }
  if (!job.succeeded) return refused(`job ${id} did not succeed`);
  const problem = await loginProblem(approval, job.user, forge);
  if (problem) return refused(`job ${id}: ${problem}`);
  return { confirmed: true, login: job.user!.login };
}
