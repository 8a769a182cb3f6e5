/**
 * A whole GitHub or Forgejo workflow from the §6.1 jobs: push and manual triggers,
 * one rollout at a time (`concurrency`, never cancelled), the ledger permission
 * (and reading reviews and statuses for forge gates),
 * the pipeline variables and one job per chant-wave job; and beside it the
 * resume, record-plans and drift workflows when the spec asks for them. Pure.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { Spec } from "../spec/types.ts";
import type { ActionsFlavour } from "./_actions_flavour.ts";
import { actionsForgeWorkflows } from "./_actions_forge_jobs.ts";
import { actionsDriftWorkflow } from "./_actions_drift_workflow.ts";
import { actionsJob, rolloutPermissions } from "./_actions_job.ts";
import { headerLines, restNote, throwProblems } from "./_common.ts";
import { toYaml } from "./_yaml.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * Renders the workflow for one Actions-style forge.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs`.
 * @param specFile The spec's path as the jobs name it.
 * @param flavour The forge.
 * @returns The rollout's workflow file, then any resume and record-plans workflows.
 * @throws {InputError} When the forge cannot express part of the spec.
 */
export function renderActions(
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
  flavour: ActionsFlavour,
): RenderedFile[] {
  const problems: string[] = [];
  if (specFile.includes("${{")) {
    problems.push(
      `spec path "${specFile}" holds "\${{", which the forge would evaluate`,
    );
  }
  const workflowJobs: Record<string, unknown> = {};
  for (const job of jobs) {
    workflowJobs[job.name] = actionsJob(spec, job, specFile, flavour, problems);
  }
  const extra = [
    ...actionsForgeWorkflows(spec, specFile, flavour, problems),
    ...actionsDriftWorkflow(spec, specFile, flavour, problems),
  ];
  throwProblems(flavour.forge, problems);
  const workflow: Record<string, unknown> = {
    name: `chant-wave ${spec.name}`,
    on: {
      push: { branches: [...spec.branches] },
      workflow_dispatch: {},
    },
    concurrency: { group: spec.name, "cancel-in-progress": false },
    permissions: rolloutPermissions(spec),
  };
  const variables = spec.pipeline?.variables ?? {};
  if (Object.keys(variables).length > 0) workflow.env = { ...variables };
  workflow.jobs = workflowJobs;
  const header = headerLines(
    flavour.forge,
    specFile,
    [
      ...flavour.environments ? [] : droppedEnvironments(jobs),
      ...restNote(jobs),
    ],
  );
  return [{
    path: flavour.path(spec.name),
    text: toYaml(workflow, header, {
      plainTopKeys: ["on"],
      spacedMap: ["jobs"],
    }),
  }, ...extra];
}

/** The header note of a forge without environments, when the spec names some. */
function droppedEnvironments(jobs: readonly Job[]): string[] {
  const names = [
    ...new Set(jobs.flatMap((job) => job.environment?.name ?? [])),
  ];
  if (names.length === 0) return [];
  const list = names.map((name) => `"${name}"`).join(", ");
  return [
    `Forgejo Actions has no deployment environments: ${list} dropped;`,
    "the chant-wave gate (approve with chant-wave approve) stands in for them.",
  ];
}
