/**
 * The sqitch commands whose output chant-wave reads: `status` (what a database
 * has deployed), `plan` (the changes, in order) and `show deploy <id>` (a
 * change's deploy script), each run in the project's directory with `LC_ALL=C`
 * and its stdout captured (bounded), never printed. Within one planning pass,
 * the plan and the scripts are read once for every database whose target is a
 * URI, when no sqitch configuration names a target (then all of them read the
 * same plan file and scripts).
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
import {
  deployedChange,
  type ListedChange,
  planListing,
} from "./_sqitch_output.ts";
import { type JudgedScript, judgeScript } from "./sqitch_plan_file.ts";

/** Where sqitch runs: the program, the project's directory, the database. */
export interface SqitchSite {
  binary: string;
  /** The project's directory, relative to the runner's working directory. */
  dir: string;
  /** The database: a URI or a sqitch target name. */
  target: string;
}

/** What a query gave: its value, or why not (or the interrupted step itself). */
export type Got<T> =
  | { ok: true; value: T }
  | { ok: false; why: string; tail: string[]; interrupted?: StepResult };

/** What one planning pass has read already, shared by its runs. */
export interface SqitchPass {
  memo: Map<string, Promise<Got<unknown>>>;
}

/**
 * A fresh pass: nothing read yet.
 * @returns The pass.
 */
export function newSqitchPass(): SqitchPass {
  return { memo: new Map() };
}

/** The most bytes of `sqitch status` or `sqitch config` output read. */
const MAX_STATUS_BYTES = 1024 * 1024;
/** The most bytes of the plan listing, and of one deploy script, read. */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

/** The value, memoised in the pass under `key` (when both are given). */
function memoised<T>(
  pass: SqitchPass | undefined,
  key: string | undefined,
  read: () => Promise<Got<T>>,
): Promise<Got<T>> {
  if (pass === undefined || key === undefined) return read();
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
    env: { LC_ALL: "C", LANGUAGE: undefined },
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
export function shownTarget(site: SqitchSite): string {
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

/**
 * The key under which runs of a pass share the plan and scripts: the program,
 * the directory and the URI's engine (`db:pg:`), when the target is a URI and
 * the project's sqitch configuration names no target; else none.
 */
async function sharedKey(
  site: SqitchSite,
  runner: StepRunner,
  pass: SqitchPass | undefined,
): Promise<string | undefined> {
  const engine = /^db:[^:/]+:/.exec(site.target)?.[0];
  if (pass === undefined || engine === undefined) return undefined;
  const config = await memoised(
    pass,
    `config\0${site.binary}\0${site.dir}`,
    () =>
      query(site, ["config", "--list"], "plan", "", runner, {
        limit: MAX_STATUS_BYTES,
      }),
  );
  if (!config.ok || /^target\./m.test(config.value.stdout)) return undefined;
  return `${site.binary}\0${site.dir}\0${engine}`;
}

/**
 * Every change of the plan, in order (`sqitch plan`), read once per pass for
 * the runs that share it.
 * @param site The site.
 * @param runner The run.
 * @param pass The planning pass, when runs share what it read.
 * @returns The changes, or why not (`cannot list the plan: "sqitch plan" …`).
 */
export async function readPlan(
  site: SqitchSite,
  runner: StepRunner,
  pass?: SqitchPass,
): Promise<Got<ListedChange[]>> {
  const key = await sharedKey(site, runner, pass);
  return memoised(pass, key && `plan\0${key}`, async () => {
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
 * A change's deploy script, judged (`sqitch show deploy <id>`, its last newline
 * dropped: sqitch adds one), read once per pass for the runs that share it.
 * @param site The site.
 * @param change The change.
 * @param runner The run.
 * @param pass The planning pass, when runs share what it read.
 * @returns The judged script, or why not.
 */
export async function readScript(
  site: SqitchSite,
  change: { id: string; name: string },
  runner: StepRunner,
  pass?: SqitchPass,
): Promise<Got<JudgedScript>> {
  const key = await sharedKey(site, runner, pass);
  return memoised(pass, key && `script\0${key}\0${change.id}`, async () => {
    const got = await query(
      site,
      ["show", `--target=${site.target}`, "deploy", change.id],
      "plan",
      `cannot read the deploy script of ${
        JSON.stringify(change.name)
      }: "${site.binary} show deploy"`,
      runner,
      { limit: MAX_LISTING_BYTES },
    );
    if (!got.ok) return got;
    const { bytes } = got.value;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 10
      ? bytes.length - 1
      : bytes.length;
    return { ok: true, value: judgeScript(bytes.subarray(0, end)) };
  });
}
