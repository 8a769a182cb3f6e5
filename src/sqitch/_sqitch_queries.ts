/**
 * The sqitch commands whose output chant-wave reads: `config --list` (the
 * configuration sqitch runs with), `status` (what a database has deployed),
 * `plan` (the changes, in order) and `show deploy|verify <id>` (a change's
 * script, as sqitch finds it), each run in the project's directory with
 * `LC_ALL=C` and the pinned environment, its stdout captured (bounded), never
 * printed; and the psql command that asks a database's registry what it has
 * deployed instead of `status` where it can (`registry_query.ts`). Within one
 * planning pass the configuration, the plan and the scripts are read once for
 * every database (chant-wave pins sqitch's layout, so they do not depend on
 * the target); the pass also holds the parser and the project's files.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { maskCredentials } from "../console/visible.ts";
import type { StepResult } from "../exec/run_step.ts";
import {
  captureStdout,
  type StepRunner,
  toolFailure,
} from "../exec/run_tool_step.ts";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  deployedChange,
  type ListedChange,
  planListing,
} from "./_sqitch_output.ts";
import { type ProjectFiles, projectFiles } from "./project_files.ts";
import {
  MAX_REPLY_BYTES,
  REGISTRY_SCRIPT,
  registryAnswer,
  registryQuery,
} from "./registry_query.ts";
import { loadPgParser, type PgParser } from "./sql/classify_script.ts";

/** Where sqitch runs: the project's directory and the database. */
export interface SqitchPlace {
  /** The project's directory, relative to the runner's working directory. */
  dir: string;
  /** The database: a URI or a sqitch target name. */
  target: string;
  /**
   * The spec's target with every value but the run's target filled in
   * (`db:pg:tenant_{target}`, `db:pg:prod_{target}` for `db:pg:{wave}_{target}`):
   * the plan digest covers it, so the databases of one wave in the same state
   * share a digest, and another wave's name or op is another plan. Default:
   * `target`.
   */
  template?: string;
}

/** How one sqitch command starts: the program and place, and the pinned environment. */
export interface SqitchSite extends SqitchPlace {
  binary: string;
  /** Set over the run's environment for every sqitch command (the pinning). */
  env?: Record<string, string>;
}

/** A site pinned for one run: its environment, and a directory of its own. */
export interface PinnedSite extends SqitchSite {
  env: Record<string, string>;
  /** The run's own directory, removed after it (the pinning's). */
  scratch: string;
}

/** What a query gave: its value, or why not (or the interrupted step itself). */
export type Got<T> =
  | { ok: true; value: T }
  | { ok: false; why: string; tail: string[]; interrupted?: StepResult };

/** What one planning pass has read already, shared by its runs. */
export interface SqitchPass {
  memo: Map<string, Promise<Got<unknown>>>;
  /** The revert directory every run pins: one that does not exist. */
  revertDir: string;
  /** PostgreSQL's parser, loaded on first use. */
  parser(): Promise<PgParser>;
  /** The files of the project in `root` (absolute), each read once. */
  files(root: string): ProjectFiles;
}

/**
 * A fresh pass: nothing read yet.
 * @returns The pass.
 */
export function newSqitchPass(): SqitchPass {
  let parser: Promise<PgParser> | undefined;
  const projects = new Map<string, ProjectFiles>();
  return {
    memo: new Map(),
    revertDir: join(tmpdir(), `chant-wave-no-revert-${crypto.randomUUID()}`),
    parser: () => parser ??= loadPgParser(),
    files(root) {
      let files = projects.get(root);
      if (files === undefined) {
        files = projectFiles(root);
        projects.set(root, files);
      }
      return files;
    },
  };
}

/** The most bytes of `sqitch status` or `sqitch config` output read. */
const MAX_STATUS_BYTES = 1024 * 1024;
/** The most bytes of the plan listing, and of one deploy script, read. */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

/** The value, memoised in the pass under `key`. */
function memoised<T>(
  pass: SqitchPass,
  key: string,
  read: () => Promise<Got<T>>,
): Promise<Got<T>> {
  let got = pass.memo.get(key) as Promise<Got<T>> | undefined;
  if (got === undefined) {
    got = read();
    pass.memo.set(key, got);
  }
  return got;
}

/** Runs `<binary> --chdir=<dir> <words…>`; its stdout, or why not. */
async function query(
  site: SqitchSite,
  words: readonly string[],
  phase: "plan" | "apply",
  what: string,
  runner: StepRunner,
  options: { limit: number; exitCodes?: readonly number[] },
): Promise<Got<{ stdout: string; bytes: Uint8Array; exitCode: number }>> {
  const capture = captureStdout(options.limit);
  const step = await runner.run({
    argv: [site.binary, `--chdir=${site.dir}`, ...words],
    phase,
    env: { LC_ALL: "C", LANGUAGE: undefined, ...site.env },
    captureStdout: capture.write,
  });
  const bytes = capture.bytes();
  const fail = (how: string): Got<never> => ({
    ok: false,
    why: `${what} ${how}`,
    tail: step.tail,
  });
  if (step.interrupted) {
    return { ok: false, why: "", tail: [], interrupted: step };
  }
  if (step.timedOut) {
    return fail(step.failure!.replace(/^.*? timed out/, "timed out"));
  }
  if (bytes === undefined) return fail("printed too much");
  if (!(options.exitCodes ?? [0]).includes(step.exitCode)) {
    return fail(`exited ${step.exitCode}`);
  }
  return {
    ok: true,
    value: {
      stdout: new TextDecoder().decode(bytes),
      bytes,
      exitCode: step.exitCode,
    },
  };
}

/**
 * The step result of a query that gave nothing: the interrupted step, or a
 * failure of the run, `<phase> of "<target>": <why>`.
 * @param phase The phase.
 * @param runner The run.
 * @param got The failed query.
 * @returns The step result.
 */
export function failedStep(
  phase: "plan" | "apply",
  runner: StepRunner,
  got: Extract<Got<unknown>, { ok: false }>,
): StepResult {
  return got.interrupted ??
    toolFailure(phase, runner.label, got.why, got.tail);
}

/**
 * The database as messages name it, its credentials masked.
 * @param site The site.
 * @returns `"db:pg://***@host/db"`.
 */
export function shownTarget(site: SqitchPlace): string {
  return JSON.stringify(maskCredentials(site.target));
}

/**
 * What the database has deployed: the id of its last change, or null.
 * @param site The site.
 * @param phase `plan` or `apply`.
 * @param runner The run.
 * @returns The id or null, or why not (`cannot read what "<db>" has
 *   deployed: "sqitch status" exited 2`).
 */
export async function readDeployed(
  site: SqitchSite,
  phase: "plan" | "apply",
  runner: StepRunner,
): Promise<Got<string | null>> {
  const what = `cannot read what ${
    shownTarget(site)
  } has deployed: "${site.binary} status"`;
  const got = await query(
    site,
    ["status", `--target=${site.target}`],
    phase,
    what,
    runner,
    { limit: MAX_STATUS_BYTES, exitCodes: [0, 1] },
  );
  if (!got.ok) return got;
  try {
    return {
      ok: true,
      value: deployedChange(got.value.stdout, got.value.exitCode),
    };
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return { ok: false, why: `${what} ${error.message}`, tail: [] };
  }
}

/** Where a database's registry is asked: the connection, the registry, the project, the client. */
export interface RegistryPlace {
  /** The URI the deploy connects with (checked). */
  uri: string;
  /** The target's registry schema. */
  registry: string;
  /** The plan's project. */
  project: string;
  /** The client's absolute path (psql). */
  client: string;
}

/**
 * What the database has deployed, as `sqitch status` would say it, asked of
 * sqitch's registry in one read-only psql command (`registry_query.ts`);
 * `sqitch status` itself answers where that command cannot (a URI or registry
 * of another shape, a registry of another release, psql failing: then the
 * failure reported is sqitch's own).
 * @param site The site, pinned, with its scratch directory.
 * @param ask The connection, registry, project and client.
 * @param phase `plan` or `apply`.
 * @param runner The run.
 * @returns The id or null, or why not.
 */
export async function readDeployedFromRegistry(
  site: PinnedSite,
  ask: RegistryPlace,
  phase: "plan" | "apply",
  runner: StepRunner,
): Promise<Got<string | null>> {
  const command = registryQuery(ask.uri, ask.registry, ask.project, runner.env);
  if (command === undefined) {
    return await readDeployed(site, phase, runner);
  }
  const script = join(site.scratch, "registry.sql");
  await writeFile(script, REGISTRY_SCRIPT, { mode: 0o600 });
  const capture = captureStdout(MAX_REPLY_BYTES);
  const step = await runner.run({
    argv: [ask.client, ...command.args, `--file=${script}`],
    phase,
    env: {
      LC_ALL: "C",
      LANGUAGE: undefined,
      ...site.env,
      PGOPTIONS: `${site.env.PGOPTIONS} -c default_transaction_read_only=on`,
      ...(command.password === undefined
        ? {}
        : { PGPASSWORD: command.password }),
    },
    captureStdout: capture.write,
  });
  if (step.interrupted) {
    return { ok: false, why: "", tail: [], interrupted: step };
  }
  const what = `cannot read what ${
    shownTarget(site)
  } has deployed: "${ask.client}"`;
  if (step.timedOut) {
    return {
      ok: false,
      why: `${what} ${step.failure!.replace(/^.*? timed out/, "timed out")}`,
      tail: step.tail,
    };
  }
  const bytes = capture.bytes();
  if (step.exitCode !== 0) return await readDeployed(site, phase, runner);
  if (bytes === undefined) {
    return { ok: false, why: `${what} printed too much`, tail: [] };
  }
  let answer;
  try {
    answer = registryAnswer(new TextDecoder().decode(bytes));
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return { ok: false, why: `${what} ${error.message}`, tail: [] };
  }
  if (answer.registry === "none") return { ok: true, value: null };
  if (answer.registry === "unknown") {
    return await readDeployed(site, phase, runner);
  }
  return { ok: true, value: answer.change };
}

/** The key under which runs of a pass share what they read: the program and the project. */
function sharedKey(site: SqitchSite, what: string): string {
  return `${what}\0${site.binary}\0${site.dir}`;
}

/**
 * The configuration sqitch runs with (`sqitch config --list`), read once per pass.
 * @param site The site, pinned.
 * @param runner The run.
 * @param pass The planning pass.
 * @returns The listing, or why not.
 */
export function readConfig(
  site: SqitchSite,
  runner: StepRunner,
  pass: SqitchPass,
): Promise<Got<string>> {
  return memoised(pass, sharedKey(site, "config"), async () => {
    const got = await query(
      site,
      ["config", "--list"],
      "plan",
      `cannot read sqitch's configuration: "${site.binary} config --list"`,
      runner,
      { limit: MAX_STATUS_BYTES },
    );
    return got.ok ? { ok: true, value: got.value.stdout } : got;
  });
}

/**
 * Every change of the plan, in order (`sqitch plan`), read once per pass.
 * @param site The site, pinned.
 * @param runner The run.
 * @param pass The planning pass.
 * @returns The changes, or why not (`cannot list the plan: "sqitch plan" …`).
 */
export function readPlan(
  site: SqitchSite,
  runner: StepRunner,
  pass: SqitchPass,
): Promise<Got<ListedChange[]>> {
  return memoised(pass, sharedKey(site, "plan"), async () => {
    const what = `cannot list the plan: "${site.binary} plan"`;
    const got = await query(
      site,
      [
        "plan",
        `--target=${site.target}`,
        "--no-headers",
        "--no-reverse",
        "--no-color",
        "--format=format:%H %e %o %n",
      ],
      "plan",
      what,
      runner,
      { limit: MAX_LISTING_BYTES },
    );
    if (!got.ok) return got;
    try {
      return { ok: true, value: planListing(got.value.stdout) };
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      return { ok: false, why: `${what} ${error.message}`, tail: [] };
    }
  });
}

/**
 * A change's deploy or verify script as sqitch will run it (`sqitch show
 * deploy|verify <id>`, its last newline dropped: sqitch adds one), read once
 * per pass.
 * @param site The site, pinned.
 * @param change The change.
 * @param script Which script.
 * @param runner The run.
 * @param pass The planning pass.
 * @returns The script's bytes, or why not.
 */
export function readScript(
  site: SqitchSite,
  change: { id: string; name: string },
  script: "deploy" | "verify",
  runner: StepRunner,
  pass: SqitchPass,
): Promise<Got<Uint8Array>> {
  const key = `${sharedKey(site, script)}\0${change.id}`;
  return memoised(pass, key, async () => {
    const got = await query(
      site,
      ["show", `--target=${site.target}`, script, change.id],
      "plan",
      `cannot read the ${script} script of ${
        JSON.stringify(change.name)
      }: "${site.binary} show ${script}"`,
      runner,
      { limit: MAX_LISTING_BYTES },
    );
    if (!got.ok) return got;
    const { bytes } = got.value;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 10
      ? bytes.length - 1
      : bytes.length;
    return { ok: true, value: bytes.subarray(0, end) };
  });
}
