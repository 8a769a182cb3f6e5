/**
 * Runs a rendered GitHub Actions workflow on this machine, the way a runner
 * would run it for one push: each job in a fresh full clone of the remote, in
 * `needs` order, skipping a job whose `if:` says so or whose needs were skipped
 * or failed; `run:` steps through `bash -eo pipefail` under an empty
 * environment (the variables a runner sets, the workflow's and step's `env`,
 * and the job's own `RUNNER_TEMP`, `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY`);
 * artifacts kept in a directory between jobs. It knows only what chant-wave's
 * workflows use, and throws on anything else, so a workflow that needs more
 * fails loudly rather than running wrong.
 * @module
 */

import { parse } from "yaml";

/** How to run one workflow run. */
export interface RunnerOptions {
  /** The bare remote the jobs clone. */
  remote: string;
  /** A scratch directory for clones, artifacts and job files. */
  scratch: string;
  /** `PATH` of every step. */
  path: string;
  /** The push event's `before`. */
  before: string;
  /** `GITHUB_RUN_ATTEMPT`. */
  attempt: number;
}

/** What one job did. */
export interface JobRun {
  /** `ok`, `failed`, or `skipped` (never started). */
  status: "ok" | "failed" | "skipped";
  /** Its steps' output, interleaved as they ran. */
  log: string;
  /** Its outputs (`waiting`). */
  outputs: Record<string, string>;
  /** What it appended to the job summary. */
  summary: string;
}

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}

interface Job {
  needs?: string[];
  if?: string;
  outputs?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

/** Refuses an expression this runner does not evaluate. */
function literal(value: string, where: string): string {
  if (value.includes("${{")) {
    throw new Error(`${where}: the runner cannot evaluate "${value}"`);
  }
  return value;
}

/** Whether a job's `if:` lets it run, given its needs' outputs. */
function allowed(job: Job, runs: Record<string, JobRun>, name: string) {
  if (job.if === undefined) return true;
  const match = job.if.match(/^needs\.([\w-]+)\.outputs\.(\w+) != 'true'$/);
  if (!match) throw new Error(`job ${name}: unknown if "${job.if}"`);
  return runs[match[1]]?.outputs[match[2]] !== "true";
}

async function sh(cwd: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command("/usr/bin/env", {
    args: ["-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    log: text.decode(out.stdout) + text.decode(out.stderr),
  };
}

/** Runs one `uses:` step this runner knows; returns its log. */
async function useAction(
  step: Step,
  dirs: { work: string; artifacts: string },
  options: RunnerOptions,
): Promise<string> {
  const action = step.uses!.replace(/@v\d+$/, "");
  const withs = step.with ?? {};
  if (action === "actions/checkout") {
    const got = await sh(options.scratch, [
      "git",
      "clone",
      "--quiet",
      options.remote,
      dirs.work,
    ], { PATH: options.path });
    if (got.code !== 0) throw new Error(`checkout: ${got.log}`);
    return "";
  }
  const store = `${dirs.artifacts}/${String(withs.name)}`;
  if (action === "actions/upload-artifact") {
    const path = `${dirs.work}/${String(withs.path)}`;
    await Deno.mkdir(store, { recursive: true });
    await Deno.copyFile(path, `${store}/${path.split("/").at(-1)}`);
    return "";
  }
  if (action === "actions/download-artifact") {
    const into = `${dirs.work}/${String(withs.path)}`;
    await Deno.mkdir(into, { recursive: true });
    for await (const entry of Deno.readDir(store)) {
      await Deno.copyFile(`${store}/${entry.name}`, `${into}/${entry.name}`);
    }
    return "";
  }
  throw new Error(`unknown action ${step.uses}`);
}

/** Reads `key=value` lines a step wrote to `$GITHUB_OUTPUT`. */
async function stepOutputs(file: string): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return Object.fromEntries(
    text.split("\n").filter((line) => line.includes("=")).map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at), line.slice(at + 1)];
    }),
  );
}

/** Runs one job's steps in a fresh clone. */
async function runJob(
  name: string,
  job: Job,
  workflow: Workflow,
  options: RunnerOptions,
): Promise<JobRun> {
  const base = `${options.scratch}/attempt-${options.attempt}/${name}`;
  const dirs = {
    work: `${base}/work`,
    artifacts: `${options.scratch}/artifacts-${options.attempt}`,
  };
  await Deno.mkdir(`${base}/temp`, { recursive: true });
  const event = `${base}/event.json`;
  await Deno.writeTextFile(event, JSON.stringify({ before: options.before }));
  const summary = `${base}/summary.md`;
  await Deno.writeTextFile(summary, "");
  const steps: Record<string, Record<string, string>> = {};
  let log = "";
  for (const [i, step] of job.steps.entries()) {
    if (step.if !== undefined && step.if !== "always()") {
      throw new Error(`job ${name}: unknown step if "${step.if}"`);
    }
    if (step.uses !== undefined) {
      log += await useAction(step, dirs, options);
      continue;
    }
    const output = `${base}/output-${i}`;
    const env: Record<string, string> = {
      PATH: options.path,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: "push",
      GITHUB_EVENT_PATH: event,
      GITHUB_ACTOR: "ann",
      GITHUB_REPOSITORY: "acme/infra",
      GITHUB_RUN_ID: "7",
      GITHUB_RUN_ATTEMPT: String(options.attempt),
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: `${base}/temp`,
    };
    for (
      const [key, value] of Object.entries({ ...workflow.env, ...step.env })
    ) {
      env[key] = literal(value, `job ${name} env ${key}`);
    }
    const script = `${base}/step-${i}.sh`;
    await Deno.writeTextFile(script, literal(step.run!, `job ${name}`));
    const got = await sh(dirs.work, [
      "bash",
      "--noprofile",
      "--norc",
      "-eo",
      "pipefail",
      script,
    ], env);
    log += got.log;
    if (step.id) steps[step.id] = await stepOutputs(output);
    if (got.code !== 0) {
      return {
        status: "failed",
        log,
        outputs: {},
        summary: await Deno.readTextFile(summary),
      };
    }
  }
  const outputs = Object.fromEntries(
    Object.entries(job.outputs ?? {}).map(([key, value]) => {
      const match = value.match(
        /^\$\{\{ steps\.([\w-]+)\.outputs\.(\w+) \}\}$/,
      );
      if (!match) throw new Error(`job ${name}: unknown output "${value}"`);
      return [key, steps[match[1]]?.[match[2]] ?? ""];
    }),
  );
  return {
    status: "ok",
    log,
    outputs,
    summary: await Deno.readTextFile(summary),
  };
}

/**
 * Runs every job of a workflow file once, as one run of a push.
 * @param workflowText The workflow's YAML.
 * @param options Where and how.
 * @returns Each job's run, by job name.
 * @throws {Error} On a step, expression or action this runner does not know.
 */
export async function runWorkflow(
  workflowText: string,
  options: RunnerOptions,
): Promise<Record<string, JobRun>> {
  const workflow = parse(workflowText) as Workflow;
  const runs: Record<string, JobRun> = {};
  const pending = Object.keys(workflow.jobs);
  while (pending.length > 0) {
    const at = pending.findIndex((name) =>
      (workflow.jobs[name].needs ?? []).every((need) => need in runs)
    );
    if (at < 0) throw new Error(`jobs that need each other: ${pending}`);
    const [name] = pending.splice(at, 1);
    const job = workflow.jobs[name];
    const needsOk = (job.needs ?? []).every((need) =>
      runs[need].status === "ok"
    );
    runs[name] = needsOk && allowed(job, runs, name)
      ? await runJob(name, job, workflow, options)
      : { status: "skipped", log: "", outputs: {}, summary: "" };
  }
  return runs;
}
