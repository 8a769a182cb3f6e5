/**
 * A rollout approved from the forge (SPEC.md §13.1), for the click path's
 * end-to-end tests on GitHub and Forgejo: the spec at base and head, a bare
 * origin holding `main` and, once a job ran, `chant/ledger`; a fake forge; the
 * wave job, run as its rendered workflow runs it (`run … --ledger git`, pushed
 * by eve); and dispatches of the approve workflow: the fake forge learns the
 * run (in progress while its job runs, then finished), and the job's step as
 * `chant-wave pipeline` rendered it runs through `sh` in a clone, under
 * `env -i` with the variables the runner sets and its `${{ }}` expressions
 * filled. Tests only.
 * @module
 */

import { join } from "node:path";
import { parse } from "yaml";
import type { Forge } from "../../src/ci/forges.ts";
import { BINARY, type BinaryResult, runBinary } from "./binary.ts";
import type { FakeRun } from "./_fake_forge_core.ts";
import { type FakeForge, fakeForge } from "./fake_forge.ts";
import {
  type Rollout,
  rollout,
  SPEC,
  specOf,
  type WaveJson,
} from "./rollout.ts";

/** A forge whose approve workflow is dispatched. */
export type DispatchForge = Extract<Forge, "github" | "forgejo">;

/** One dispatch of the approve workflow. */
export interface Dispatch {
  /** The run's id (GitHub) or number (Forgejo), as its URL names it. */
  id: string;
  /** Who dispatched it (`GITHUB_ACTOR`, the run's starter). */
  actor: string;
  /** The inputs. */
  wave: string;
  digest: string;
  /** What the forge shows otherwise (a bot, a failure). */
  run?: Partial<FakeRun>;
}

/** The rollout, its fake forge, its jobs. */
export interface ClickWorld extends AsyncDisposable {
  r: Rollout;
  fake: FakeForge;
  forge: DispatchForge;
  /**
   * Runs wave 1's job in the checkout as the forge runs it for eve's push:
   * GitHub's run 5 of `tf.yml` (its first attempt, then the attempt a resume
   * queued, else the next one, as a re-run by hand), Forgejo's next run.
   */
  waveJob(): Promise<BinaryResult>;
  /** Runs the approve workflow's job of one dispatch; the forge then shows the run finished. */
  dispatch(d: Dispatch): Promise<BinaryResult>;
  /** Runs `chant-wave approve …` in the approver's clone, as anyone who can write the ledger may. */
  approve(args: string[]): Promise<BinaryResult>;
}

/** The run id (GitHub) of the wave job's run, and its workflow file. */
const WAVE_RUN = "5";
const ROOTS = { github: ".github", forgejo: ".forgejo" } as const;
const SERVERS = {
  github: "https://github.com",
  forgejo: "https://forgejo.example",
} as const;

/** What the jobs of one world share. */
interface Setup {
  forge: DispatchForge;
  fake: FakeForge;
  r: Rollout;
  /** The approver's clone, where the approve job runs. */
  clone: string;
  /** The rendered approve workflow, parsed. */
  workflow: ApproveWorkflow;
  /** The variables the runner sets in every job. */
  runner: Record<string, string>;
}

/** What the test reads of the rendered approve workflow. */
interface ApproveWorkflow {
  name: string;
  "run-name": string;
  jobs: {
    approve: {
      env?: Record<string, string>;
      steps: { name?: string; env?: Record<string, string>; run: string }[];
    };
  };
}

/**
 * Builds the world: a spec `tf` of `waves` whose pipeline puts the binary on
 * PATH, committed at base and head and pushed to a bare origin, and its
 * approve workflow rendered by the binary.
 * @param forge GitHub or Forgejo.
 * @param waves The waves (wave 1 is the gated one).
 * @returns The world; dispose it to remove everything.
 */
export async function clickWorld(
  forge: DispatchForge,
  waves: WaveJson[],
): Promise<ClickWorld> {
  const fake = fakeForge(forge);
  const bin = await Deno.makeTempDir({ prefix: "chant-wave-bin-" });
  await Deno.symlink(BINARY, join(bin, "chant-wave"));
  const r = await rollout(
    specOf(waves, { pipeline: { install: `export PATH="${bin}:$PATH"` } }),
  );
  const remote = join(r.repo.root, "remote.git");
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", "-b", "main", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", "main");
  const clone = join(r.repo.root, "approver");
  await r.repo.gitIn(r.repo.root, "clone", "-q", remote, clone);
  const out = join(r.repo.root, "rendered");
  const rendered = await runBinary(
    ["pipeline", forge, ...SPEC, "--out", out],
    { cwd: r.path },
  );
  if (rendered.code !== 0) throw new Error(rendered.stderr);
  const workflow = parse(
    await Deno.readTextFile(`${out}/${ROOTS[forge]}/workflows/tf.approve.yml`),
  ) as ApproveWorkflow;
  fake.state.workflows.set("tf.yml", ["refs/heads/main"]);
  const setup: Setup = {
    forge,
    fake,
    r,
    clone,
    workflow,
    runner: {
      [forge === "github" ? "GITHUB_ACTIONS" : "FORGEJO_ACTIONS"]: "true",
      GITHUB_REPOSITORY: "octo/hello",
      GITHUB_SERVER_URL: SERVERS[forge],
      GITHUB_API_URL: fake.apiUrl,
      GITHUB_REF: "refs/heads/main",
      GITHUB_SHA: r.head,
    },
  };
  return {
    r,
    fake,
    forge,
    waveJob: waveJobOf(setup),
    dispatch: (d) => dispatch(setup, d),
    approve: (args) => runBinary(args, { cwd: clone }),
    async [Symbol.asyncDispose]() {
      await fake[Symbol.asyncDispose]();
      await r[Symbol.asyncDispose]();
      await Deno.remove(bin, { recursive: true });
    },
  };
}

/** The wave job: each call is the next run (Forgejo) or attempt (GitHub). */
function waveJobOf(setup: Setup): () => Promise<BinaryResult> {
  const { forge, fake, r } = setup;
  let runs = 0;
  return async () => {
    // A resume re-ran it (queued), or someone re-runs it by hand.
    const before = fake.state.runs.get(WAVE_RUN);
    const attempt = before === undefined
      ? 1
      : before.status === "queued"
      ? before.attempt
      : before.attempt + 1;
    runs++;
    fake.state.runs.set(WAVE_RUN, {
      status: "in_progress",
      attempt,
      event: "push",
      path: `${ROOTS[forge]}/workflows/tf.yml`,
      actor: "eve",
    });
    const github = forge === "github";
    const result = await r.run(
      ["run", ...SPEC, "--wave", "1", "--ledger", "git"],
      {
        ...setup.runner,
        GITHUB_TOKEN: fake.token,
        GITHUB_ACTOR: "eve",
        GITHUB_EVENT_NAME: "push",
        GITHUB_RUN_ID: github ? WAVE_RUN : `${2000 + runs}`,
        GITHUB_RUN_NUMBER: github ? "3" : `${runs}`,
        GITHUB_RUN_ATTEMPT: github ? `${attempt}` : "1",
        ...(github
          ? {
            GITHUB_WORKFLOW_REF:
              "octo/hello/.github/workflows/tf.yml@refs/heads/main",
          }
          : {}),
      },
    );
    // The waiting job ends green (the workflow turns exit 3 into a notice).
    const run = fake.state.runs.get(WAVE_RUN)!;
    run.status = "completed";
    run.conclusion = result.code === 0 || result.code === 3
      ? "success"
      : "failure";
    return result;
  };
}

/**
 * One dispatch: the forge knows the run in progress while the approve job's
 * step runs in the clone, then as it ended (or as `d.run` says).
 */
async function dispatch(setup: Setup, d: Dispatch): Promise<BinaryResult> {
  const { forge, fake, workflow } = setup;
  const github = forge === "github";
  const expressions: Record<string, string> = {
    "github.server_url": SERVERS[forge],
    "github.repository": "octo/hello",
    "github.run_id": github ? d.id : `${1000 + Number(d.id)}`,
    "github.run_number": github ? "1" : d.id,
    "github.token": fake.token,
    "secrets.CHANT_WAVE_FORGE_TOKEN": fake.token,
    "inputs.wave": d.wave,
    "inputs.digest": d.digest,
  };
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
      if (!(name in expressions)) throw new Error(`no value for ${name}`);
      return expressions[name];
    });
  const run: FakeRun = {
    status: "in_progress",
    attempt: 1,
    event: "workflow_dispatch",
    path: `${ROOTS[forge]}/workflows/tf.approve.yml`,
    // GitHub shows the run-name; Forgejo titles a run with the workflow's name.
    title: github ? fill(workflow["run-name"]) : workflow.name,
    actor: d.actor,
    inputs: { wave: d.wave, digest: d.digest },
    ...d.run,
  };
  fake.state.runs.set(d.id, { ...run, status: "in_progress" });
  const job = workflow.jobs.approve;
  const step = job.steps.find((s) => s.name === "chant-wave approve")!;
  const env = Object.fromEntries(
    Object.entries({ ...job.env, ...step.env })
      .map(([name, value]) => [name, fill(value)]),
  );
  const result = await sh(step.run, setup.clone, {
    ...setup.runner,
    ...env,
    GITHUB_ACTOR: d.actor,
    GITHUB_EVENT_NAME: "workflow_dispatch",
    GITHUB_RUN_ID: expressions["github.run_id"],
    GITHUB_RUN_NUMBER: expressions["github.run_number"],
    GITHUB_RUN_ATTEMPT: "1",
  });
  fake.state.runs.set(d.id, {
    ...run,
    status: d.run?.status ?? "completed",
    conclusion: d.run?.conclusion ??
      (result.code === 0 ? "success" : "failure"),
  });
  return result;
}

/** Runs a step's script as the runner does (`sh -e`), under `env -i`. */
async function sh(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<BinaryResult> {
  const out = await new Deno.Command("/usr/bin/env", {
    args: [
      "-i",
      "PATH=/usr/bin:/bin",
      ...Object.entries(env).map(([name, value]) => `${name}=${value}`),
      "sh",
      "-ec",
      script,
    ],
    cwd,
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
}
