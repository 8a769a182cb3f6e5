/**
 * The GitHub and Forgejo workflows of the jobs that are not waves (SPEC.md §13),
 * each its own file beside the rollout's, so neither shares the rollout's
 * `concurrency` group (a scheduled run there would replace a pending rollout):
 * `<name>.resume.yml` on a schedule, `<name>.plans.yml` on pull requests. The
 * pull-request workflow runs the pull request's own code, so it may read the
 * repository and post commit statuses (the plans' hand-off) but never push:
 * `contents: read`, and the checkout keeps no credentials. Pure.
 * @module
 */

import { shellLine } from "../shell_words.ts";
import type { Spec } from "../spec/types.ts";
import type { ActionsFlavour } from "./_actions_flavour.ts";
import { runsOnValue, setupSteps } from "./_actions_job.ts";
import { commandLine, headerLines, installLine } from "./_common.ts";
import { forgeJobs, type RequestJob, type ResumeJob } from "./_forge_jobs.ts";
import { toYaml } from "./_yaml.ts";
import { approveWorkflow } from "./_actions_approve_workflow.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * The extra workflows of a spec for one Actions-style forge: the resume
 * workflow, the record-plans workflow and the approve workflow, as the spec
 * asks for them.
 * @param spec The spec.
 * @param specFile The spec's path as the jobs name it.
 * @param flavour The forge.
 * @param problems Where to add what the forge cannot express.
 * @returns The files.
 */
export function actionsForgeWorkflows(
  spec: Spec,
  specFile: string,
  flavour: ActionsFlavour,
  problems: string[],
): RenderedFile[] {
  const jobs = forgeJobs(spec, specFile);
  const files: RenderedFile[] = [];
  if (jobs.resume) {
    files.push(resumeWorkflow(spec, specFile, jobs.resume, flavour, problems));
  }
  if (jobs.request) {
    files.push(
      requestWorkflow(spec, specFile, jobs.request, flavour, problems),
    );
  }
  files.push(...approveWorkflow(spec, specFile, flavour, problems));
  return files;
}

/**
 * The pull-request workflow's token: read the repository, post the commit
 * statuses that carry the plans; no `contents: write`, so it cannot push.
 */
export const PLANS_PERMISSIONS = {
  contents: "read",
  statuses: "write",
} as const;

/** The token variable the resume job gets, per forge. */
const RESUME_TOKEN = {
  github: { GITHUB_TOKEN: "${{ github.token }}" },
  forgejo: { CHANT_WAVE_FORGE_TOKEN: "${{ secrets.CHANT_WAVE_FORGE_TOKEN }}" },
} as const;

function resumeWorkflow(
  spec: Spec,
  specFile: string,
  job: ResumeJob,
  flavour: ActionsFlavour,
  problems: string[],
): RenderedFile {
  const notes = [
    `On the schedule "${job.schedule}" (UTC), and by hand: restarts the CI job of each`,
    `gate of ${spec.name} that waited and is approved now (chant-wave resume).`,
    flavour.forge === "github"
      ? "The workflow's own token re-runs the failed jobs (actions: write)."
      : "Store a token with the write:repository scope as the secret CHANT_WAVE_FORGE_TOKEN.",
  ];
  const workflow = {
    name: `chant-wave ${spec.name} resume`,
    on: { schedule: [{ cron: job.schedule }], workflow_dispatch: {} },
    permissions: { actions: "write", contents: "read" },
    ...workflowEnv(spec),
    jobs: {
      resume: {
        ...actionsJobBase(spec, flavour, problems),
        env: { ...RESUME_TOKEN[flavour.forge] },
        steps: [
          { name: "Check out", uses: flavour.checkout },
          ...setupSteps(spec),
          {
            name: "chant-wave resume",
            run: `${installLine(spec, specFile)}\n${commandLine(job, spec)}`,
          },
        ],
      },
    },
  };
  return {
    path: flavour.path(`${spec.name}.resume`),
    text: toYaml(workflow, headerLines(flavour.forge, specFile, notes), {
      plainTopKeys: ["on"],
      spacedMap: ["jobs"],
    }),
  };
}

function requestWorkflow(
  spec: Spec,
  specFile: string,
  job: RequestJob,
  flavour: ActionsFlavour,
  problems: string[],
): RenderedFile {
  const notes = [
    ...job.comment
      ? [
        "On pull requests: plans every wave at the pull request's head, applies nothing and",
        "writes no ledger. It keeps one comment on the pull request with each wave's changes",
        "and the gate it will meet, read at base, and a commit status per wave",
        `(chant-wave/${spec.name}/plan/<wave>); they approve nothing (chant-wave run --pull-request).`,
        ...job.file
          ? [
            "The same pass posts each wave's digest as a commit status of the head",
            "(chant-wave/<name>/wave-<k>), so a review of that head can approve the merge's",
            "forge gates (--record-plans).",
          ]
          : [],
        "It runs the pull request's code: it can read the repository and post statuses and",
        "comments, never push the ledger. Pull requests from forks cannot post: the plan is",
        "then in the job summary only.",
      ]
      : [
        "On pull requests: plans every wave at the pull request's head and posts each",
        "wave's digest as a commit status of the head (chant-wave/<name>/wave-<k>), so a",
        "review of that head can approve the merge's forge gates (chant-wave run",
        "--record-plans). It runs the pull request's code: it can read the repository and",
        "post statuses, never push the ledger. Pull requests from forks cannot post.",
      ],
    ...flavour.forge === "forgejo"
      ? [
        "Forgejo gives a same-repository pull request's token write access whatever",
        "permissions says; nothing this job writes approves a forge gate anyway.",
      ]
      : [],
  ];
  const workflow = {
    name: `chant-wave ${spec.name} plans`,
    on: { pull_request: { branches: [...job.branches] } },
    permissions: {
      ...PLANS_PERMISSIONS,
      ...(job.comment ? { "pull-requests": "write" } : {}),
    },
    ...workflowEnv(spec),
    jobs: {
      [job.name]: {
        ...actionsJobBase(spec, flavour, problems),
        steps: [
          {
            name: "Check out the pull request's head with full history",
            uses: flavour.checkout,
            with: {
              ref: "${{ github.event.pull_request.head.sha }}",
              "fetch-depth": 0,
              "persist-credentials": false,
            },
          },
          ...setupSteps(spec),
          {
            name: "chant-wave",
            env: { GITHUB_TOKEN: "${{ github.token }}" },
            run: `${installLine(spec, specFile)}\n${shellLine(job.command)}`,
          },
        ],
      },
    },
  };
  return {
    path: flavour.path(`${spec.name}.plans`),
    text: toYaml(workflow, headerLines(flavour.forge, specFile, notes), {
      plainTopKeys: ["on"],
      spacedMap: ["jobs"],
    }),
  };
}

/**
 * A workflow's `env`: the pipeline variables, when there are any.
 * @param spec The spec.
 * @returns `{ env }`, or nothing without variables.
 */
export function workflowEnv(spec: Spec): { env?: Record<string, string> } {
  const variables = spec.pipeline?.variables ?? {};
  return Object.keys(variables).length > 0 ? { env: { ...variables } } : {};
}

/**
 * A job's `runs-on` (the spec's runner) and container image.
 * @param spec The spec.
 * @param flavour The forge.
 * @param problems Where to add what the forge cannot express.
 * @returns The job's first keys.
 */
export function actionsJobBase(
  spec: Spec,
  flavour: ActionsFlavour,
  problems: string[],
): Record<string, unknown> {
  return {
    "runs-on": runsOnValue(spec.runner, "the spec", flavour, problems),
    ...(spec.pipeline?.image === undefined
      ? {}
      : { container: { image: spec.pipeline.image } }),
  };
}
