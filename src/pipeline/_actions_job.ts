/**
 * One job of a GitHub or Forgejo workflow, from one §6.1 job: runner, needs,
 * environment, permissions for id tokens, variables, the full-history checkout,
 * the setup steps, the decision download (share and group jobs), the chant-wave
 * step (with the workflow's token when forge gates read the forge) and the
 * decision upload (deciding jobs, even when they wait). Pure.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { RunnerLabel, Spec } from "../spec/types.ts";
import type { ActionsFlavour } from "./_actions_flavour.ts";
import {
  commandLine,
  decisionArtifact,
  installLine,
  jobWhere,
  recordDir,
} from "./_common.ts";
import { reviewsApprove } from "./_forge_jobs.ts";

/** The permissions every job has: push the ledger branch. */
export const LEDGER_PERMISSIONS = { contents: "write" } as const;

/**
 * The permissions of a rollout's jobs: push the ledger branch, and with some
 * `forge` gate also read the merged pull request's reviews and the commit
 * statuses that carry its recorded plans (SPEC.md §13).
 * @param spec The spec.
 * @returns The `permissions` value.
 * @example
 * ```ts
 * rolloutPermissions(spec); // { contents: "write" } without forge gates
 * ```
 */
export function rolloutPermissions(spec: Spec): Record<string, string> {
  return reviewsApprove(spec)
    ? { ...LEDGER_PERMISSIONS, "pull-requests": "read", statuses: "read" }
    : { ...LEDGER_PERMISSIONS };
}

/**
 * Builds the workflow job for `job`.
 * @param spec The spec (pipeline settings, name).
 * @param job The job.
 * @param specFile The spec's path, for the install hint.
 * @param flavour The forge.
 * @param problems Where to add what the forge cannot express.
 * @returns The job's value, ready for YAML.
 */
export function actionsJob(
  spec: Spec,
  job: Job,
  specFile: string,
  flavour: ActionsFlavour,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    "runs-on": runsOn(job, flavour, problems),
  };
  if (job.needs.length > 0) {
    out.needs = [...job.needs];
    // A job that waited ended green; what needs it is skipped, not failed.
    out.if = job.needs.map((need) => `needs.${need}.outputs.waiting != 'true'`)
      .join(" && ");
  }
  if (job.environment !== undefined && flavour.environments) {
    out.environment = { ...job.environment };
  }
  if (job.idTokens !== undefined) {
    out.permissions = { ...rolloutPermissions(spec), "id-token": "write" };
  }
  if (spec.pipeline?.image !== undefined) {
    out.container = { image: spec.pipeline.image };
  }
  const env = jobEnv(job, problems);
  if (Object.keys(env).length > 0) out.env = env;
  out.outputs = { waiting: "${{ steps.chant-wave.outputs.waiting }}" };
  out.steps = steps(spec, job, specFile, flavour);
  return out;
}

function runsOn(
  job: Job,
  flavour: ActionsFlavour,
  problems: string[],
): unknown {
  return runsOnValue(job.runner, jobWhere(job), flavour, problems);
}

/**
 * The `runs-on` of a job: the runner label, else the forge's default runner.
 * @param runner The job's runner label, if any.
 * @param where How messages name the job (`wave 2 "prod"`).
 * @param flavour The forge.
 * @param problems Where to add a runner group the forge cannot express.
 * @returns The value, ready for YAML.
 */
export function runsOnValue(
  runner: RunnerLabel | undefined,
  where: string,
  flavour: ActionsFlavour,
  problems: string[],
): unknown {
  const label: RunnerLabel = runner ?? flavour.defaultRunner;
  if (typeof label === "string") return label;
  if (Array.isArray(label)) return [...label];
  if (!flavour.runnerGroups) {
    problems.push(
      `${where}: runner group "${label.group}" has no Forgejo equivalent; name runner labels instead`,
    );
    return label.labels ?? [];
  }
  return label.labels === undefined
    ? { group: label.group }
    : { group: label.group, labels: [...label.labels] };
}

/** Wave variables, plus `<NAME>_AUDIENCE` for each id token the job requests. */
function jobEnv(job: Job, problems: string[]): Record<string, string> {
  const env: Record<string, string> = { ...job.variables };
  for (const [name, audience] of Object.entries(job.idTokens ?? {})) {
    const key = `${name}_AUDIENCE`;
    if (key in env) {
      problems.push(
        `${
          jobWhere(job)
        }: variable "${key}" clashes with the audience of id token "${name}"`,
      );
    }
    env[key] = audience;
  }
  return env;
}

/**
 * The spec's `pipeline.setup` as workflow steps.
 * @param spec The spec.
 * @returns The steps, in order.
 */
export function setupSteps(spec: Spec): unknown[] {
  return (spec.pipeline?.setup ?? []).map((step) =>
    "run" in step
      ? { run: step.run }
      : step.with === undefined
      ? { uses: step.uses }
      : { uses: step.uses, with: { ...step.with } }
  );
}

/**
 * The chant-wave line with its exit 3 (waiting, SPEC.md §2.1) turned into a
 * green end (SPEC.md §13.1): the step says so in a notice, sets the output
 * `waiting`, and exits 0, so the jobs that need this one are skipped rather
 * than failed; every other exit code is kept.
 */
function waitingIsNotFailing(job: Job, spec: Spec): string {
  const what = `wave ${job.wave} ${job.waveName}`.replace(/[^\w .-]/g, "");
  return [
    "set +e",
    commandLine(job, spec),
    "code=$?",
    "set -e",
    'if [ "$code" -eq 3 ]; then',
    '  echo "waiting=true" >> "$GITHUB_OUTPUT"',
    `  echo "::notice title=chant-wave::${what} waits: nothing after it runs until it may go on (see the job summary)"`,
    "  exit 0",
    "fi",
    'exit "$code"',
  ].join("\n");
}

function steps(
  spec: Spec,
  job: Job,
  specFile: string,
  flavour: ActionsFlavour,
): unknown[] {
  const artifact = decisionArtifact(spec.name, job.wave);
  const list: unknown[] = [{
    name: "Check out with full history",
    uses: flavour.checkout,
    with: { "fetch-depth": 0 },
  }];
  list.push(...setupSteps(spec));
  if (job.kind === "share" || job.kind === "group") {
    list.push({
      name: `Fetch the wave ${job.wave} decision`,
      uses: flavour.download,
      with: { name: artifact, path: recordDir(job) },
    });
  }
  list.push({
    name: "chant-wave",
    id: "chant-wave",
    ...reviewsApprove(spec)
      ? { env: { GITHUB_TOKEN: "${{ github.token }}" } }
      : {},
    run: `${installLine(spec, specFile)}\n${waitingIsNotFailing(job, spec)}`,
  });
  if (job.kind === "decide") {
    list.push({
      name: `Keep the wave ${job.wave} decision`,
      if: "always()",
      uses: flavour.upload,
      with: {
        name: artifact,
        path: job.record,
        "include-hidden-files": true,
        overwrite: true,
      },
    });
  }
  return list;
}
