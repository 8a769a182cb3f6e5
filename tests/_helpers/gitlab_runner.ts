/**
 * A rendered GitLab pipeline run by gitlab-ci-local's shell executor, for the
 * end-to-end tests (SPEC.md §6.2, §13.1): whole pipelines (each gate job runs
 * its wave's child pipeline), or named jobs of a file, such as a child
 * pipeline's manual approve job played by one login. Jobs run in the
 * repository's own work tree, one after another where `needs` say so, the
 * way a single runner would: gitlab-ci-local cannot hand a parent pipeline's
 * artifacts to a child's jobs (`needs: pipeline:`), so they share the
 * checkout. What each job ended as is read from the log: `passed`, `failed`
 * (an exit code no `allow_failure` allows) or `warned` (one it allows), and
 * `blocked` when the run stopped at a manual job nobody played
 * (gitlab-ci-local's word for GitLab's blocked pipeline). Tests only.
 * @module
 */

import { join } from "node:path";
import { gitlabCiLocal } from "../pipeline/_oracles.ts";
import { BINARY } from "./binary.ts";
import { type TempRepo, tempRepo } from "./temp_repo.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What one gitlab-ci-local run showed. */
export interface GitlabRun {
  code: number;
  /** Its whole output (stdout, then stderr). */
  log: string;
  /** Jobs that ended well, in the order they finished. */
  passed: string[];
  /** Jobs that failed, with their exit code. */
  failed: { job: string; code: number }[];
  /** Jobs that failed with an allowed exit code. */
  warned: { job: string; code: number }[];
  /** The manual job the run stopped at, when it stopped at one. */
  blocked?: string;
  /** Each job's own lines (`<job> > …`), by job name. */
  lines: Map<string, string[]>;
}

/** What a run is given. */
export interface GitlabRunOptions {
  /** The pipeline file, relative to the repository. */
  file: string;
  /** Jobs to run by name (none: the whole pipeline). */
  jobs?: string[];
  /** Manual jobs to play. */
  manual?: string[];
  /** CI/CD variables (`GITLAB_USER_LOGIN`, `CI_COMMIT_BEFORE_SHA`, a token…). */
  variables?: Record<string, string>;
  /** The environment (PATH, HOME, git's isolation). */
  env: Record<string, string>;
}

/** Predefined variables the tests may set, which gitlab-ci-local then does not warn about. */
const OVERRIDDEN = [
  "CI_API_V4_URL",
  "CI_PROJECT_ID",
  "GITLAB_USER_LOGIN",
  "CI_PIPELINE_ID",
  "CI_JOB_ID",
  "CI_JOB_URL",
  "CI_PIPELINE_SOURCE",
].join(",");

const FINISHED =
  /^\s*(?:\[[^\]]*\] -> )?(\S+)\s+finished in [^\n]*?(?:(FAIL|WARN) (\d+))?\s*$/;
const JOB_LINE = /^\s*(?:\[[^\]]*\] -> )?(\S+)\s+> (.*)$/;
const BLOCKED =
  /(\S+) is when:manual, its needed by \S+, and not specified in --manual/;

/**
 * Runs a pipeline, or jobs of it, under gitlab-ci-local in `repo`.
 * @param repo The repository's work tree (its HEAD is the pipeline's commit).
 * @param options The file, the jobs, the manual jobs, the variables.
 * @returns What the run showed.
 */
export async function runGitlab(
  repo: string,
  options: GitlabRunOptions,
): Promise<GitlabRun> {
  const out = await gitlabCiLocal(
    [
      "--file",
      options.file,
      "--shell-executor-no-image",
      "--no-color",
      "--ignore-predefined-vars",
      OVERRIDDEN,
      ...Object.entries(options.variables ?? {}).flatMap(([name, value]) => [
        "--variable",
        `${name}=${value}`,
      ]),
      ...(options.manual ?? []).flatMap((job) => ["--manual", job]),
      ...(options.jobs ?? []),
    ],
    repo,
    options.env,
  );
  const log = out.stdout + out.stderr;
  const run: GitlabRun = {
    code: out.code,
    log,
    passed: [],
    failed: [],
    warned: [],
    lines: new Map(),
  };
  for (const line of log.split("\n")) {
    const finished = FINISHED.exec(line);
    // gitlab-ci-local's own last line: "pipeline finished in 1.2 s".
    if (finished && finished[1] !== "pipeline") {
      const [, job, how, code] = finished;
      if (how === undefined) run.passed.push(job);
      else {(how === "FAIL" ? run.failed : run.warned).push({
          job,
          code: Number(code),
        });}
      continue;
    }
    const said = JOB_LINE.exec(line);
    if (said) {
      const [, job, text] = said;
      run.lines.set(job, [...run.lines.get(job) ?? [], text]);
    }
  }
  const blocked = BLOCKED.exec(log);
  if (blocked) run.blocked = blocked[1];
  return run;
}

/** A repository holding the demo's plan and apply tools, with the binary on a PATH of its own. */
export interface DemoRepo {
  /** The repository (removed with it). */
  repo: TempRepo;
  /** A directory holding only `chant-wave` (a link to the compiled binary). */
  bin: string;
  /** Where the demo's apply writes (`DEMO_WORLD`); absent until something applies. */
  world: string;
}

/**
 * Makes a repository with `examples/tools/plan.sh` and `apply.sh`, ignoring
 * `.chant/` and gitlab-ci-local's own directory, plus `files`.
 * @param files More files of the first commit.
 * @returns The repository, the binary's directory and the demo's world.
 */
export async function demoRepo(
  files: Record<string, string> = {},
): Promise<DemoRepo> {
  const all: Record<string, string> = {
    ".gitignore": ".chant/\n.gitlab-ci-local/\n",
    ...files,
  };
  for (const tool of ["plan.sh", "apply.sh"]) {
    all[`examples/tools/${tool}`] = await Deno.readTextFile(
      join(ROOT, "examples/tools", tool),
    );
  }
  const repo = await tempRepo(all);
  const bin = join(repo.root, "bin");
  await Deno.mkdir(bin);
  await Deno.symlink(BINARY, join(bin, "chant-wave"));
  return { repo, bin, world: join(repo.root, "world") };
}
