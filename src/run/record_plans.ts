/**
 * `run --record-plans` below the command line (SPEC.md §13), the pull-request
 * pipeline's job: plans every wave at HEAD (the pull request's head, or in a
 * GitLab merged results pipeline its merge into the target) as a dry run
 * would, under a temporary directory it removes, and hands each wave's set
 * digest to the job on the merged commit without writing the ledger: the plans
 * file `.chant/recorded-plans/<name>.json` (GitLab's artifact), and on GitHub
 * and Forgejo one commit status of the head per wave. A review of that head
 * can then approve a wave on the merged commit while it plans the same.
 * @module
 */

import { isFullSha } from "../input/full_sha.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { setDigest } from "../digest/set_digest.ts";
import { InputError } from "../errors.ts";
import { OK, RUN_FAILED } from "../exit_codes.ts";
import { forgeClientFromEnv } from "../forge/create_forge_client.ts";
import { TOKEN_VARIABLES } from "../forge/forge_env.ts";
import { ForgeError } from "../forge/forge_error.ts";
import {
  formatPlansFile,
  MAX_PLANS_HANDOFF_BYTES,
  plansFile,
  type RecordedPlans,
  type RecordedWave,
} from "../forge/plans_handoff.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { formatBytes } from "../limits.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { ciContext } from "../ci/ci_context.ts";
import {
  type FailedRun,
  logFailures,
  type PlannedRun,
} from "./run_outcomes.ts";
import { planRuns } from "./plan_runs.ts";
import { type RunIo, type StepSettings, throwIfInterrupted } from "./run_io.ts";

/**
 * In a GitLab merged results pipeline, HEAD is a merge of the merge request's
 * head into its target, and `CI_MERGE_REQUEST_SOURCE_BRANCH_SHA` the head
 * itself (it is empty in other merge request pipelines): the plans are recorded
 * for the head that reviewers approve.
 */
function mergedResultHead(
  env: Record<string, string | undefined>,
): string | undefined {
  const sha = env.GITLAB_CI
    ? env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA
    : undefined;
  return isFullSha(sha) ? sha : undefined;
}

/** What `--record-plans` is asked to do. */
export interface RecordPlansInput {
  /** The spec at HEAD. */
  spec: Spec;
  /** How the user's plan commands run. */
  settings: StepSettings;
}

/** What `--record-plans` did. */
export interface RecordPlansResult {
  /** 0 recorded, 1 a run failed to plan or the plans could not be handed over. */
  exitCode: number;
  /** The spec's `name`. */
  name: string;
  /** The head the plans are recorded for. */
  head: string;
  /** Each wave's digest, when every wave planned. */
  waves: RecordedWave[];
  /** The plans file written, from the working directory, when every wave planned. */
  file?: string;
  /** What went to the forge (`2 commit statuses of <head12>`), on GitHub and Forgejo. */
  handed?: string;
}

/**
 * Plans every wave of the spec at HEAD and hands the digests over. Plan files
 * go to a temporary directory that is removed; nothing is written to the
 * ledger. A wave a run of which fails to plan records nothing (exit 1). Logs
 * `wave <k> "<name>": <digest>` per wave, `handed the plans to <forge> as …`
 * and `recorded the plans of <n> waves at <head12> in <file>`.
 * @param input The spec and step settings.
 * @param io The edges (the ledger is never written: the pull request's code
 *   runs here).
 * @param planned The waves as `planEveryWave` planned them already (the plan
 *   job of a request records from its own pass); planned here when absent.
 * @returns What was planned, written and handed over; exit 1 when the forge
 *   refused the statuses (a fork's read-only token) or no token is set.
 * @throws {InputError} When HEAD is not a commit, or the plans file would be
 *   larger than 64 KiB.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function recordPlans(
  input: RecordPlansInput,
  io: RunIo,
  planned?: PlannedWave[],
): Promise<RecordPlansResult> {
  const { spec } = input;
  const log = lineLog(io.stderr);
  const { head, checkedOut } = await requestHead(io);
  log(
    `chant-wave: recording the plans of ${spec.name} at ${head.slice(0, 12)}` +
      (head !== checkedOut
        ? ` (planned at its merged result ${checkedOut.slice(0, 12)})`
        : ""),
  );
  const result: RecordPlansResult = {
    exitCode: OK,
    name: spec.name,
    head,
    waves: [],
  };
  const waves = recordedWaves(
    planned ?? await planEveryWave(input, io, { stopAtFailure: true }),
    io,
  );
  if (waves === undefined) return { ...result, exitCode: RUN_FAILED };
  const plans: RecordedPlans = { name: spec.name, head, waves };
  const text = formatPlansFile(plans);
  const size = new TextEncoder().encode(text).length;
  if (size > MAX_PLANS_HANDOFF_BYTES) {
    throw new InputError(
      `the plans of ${waves.length} waves make a file of ${size} bytes, more than the job on the merged commit reads (${
        formatBytes(MAX_PLANS_HANDOFF_BYTES)
      })`,
    );
  }
  const file = plansFile(spec.name);
  await writeFileAtomic(resolve(io.cwd, file), text);
  const handed = await handOver(plans, io);
  const n = countOf(waves.length, "wave");
  log(
    `recorded the plans of ${n} at ${head.slice(0, 12)} in ${file}` +
      (ciContext(io.env).forge === "gitlab" ? " (the job's artifact)" : ""),
  );
  return {
    ...result,
    waves,
    file,
    ...(handed.ok
      ? handed.done ? { handed: handed.done } : {}
      : { exitCode: RUN_FAILED }),
  };
}

/**
 * The head a request's plans are for, and the commit checked out (they differ
 * in a GitLab merged results pipeline).
 * @param io The edges.
 * @returns Both full shas.
 * @throws {InputError} When HEAD is not a commit.
 */
export async function requestHead(
  io: Pick<RunIo, "git" | "cwd" | "env">,
): Promise<{ head: string; checkedOut: string }> {
  const checkedOut = await io.git.resolveCommit("HEAD", io.cwd);
  if (checkedOut === undefined) {
    throw new InputError("--record-plans needs a commit at HEAD to plan");
  }
  return { head: mergedResultHead(io.env) ?? checkedOut, checkedOut };
}

/** One wave as planned at a request's head. */
export interface PlannedWave {
  wave: Wave;
  /** Its runs that planned, sorted by target. */
  planned: PlannedRun[];
  /** Its runs that failed to plan. */
  failed: FailedRun[];
}

/** Each wave's set digest; `undefined` (and an error logged) when one failed to plan. */
function recordedWaves(
  planned: PlannedWave[],
  io: RunIo,
): RecordedWave[] | undefined {
  const log = lineLog(io.stderr);
  const waves: RecordedWave[] = [];
  for (const { wave, planned: runs, failed } of planned) {
    if (failed.length > 0) {
      log(
        `error: wave ${wave.k} "${wave.name}" did not plan; no plans recorded`,
      );
      return undefined;
    }
    const digest = setDigest(
      runs.map(({ target, plan }) => ({
        target,
        planDigest: plan.planDigest,
      })),
    );
    log(`wave ${wave.k} "${wave.name}": ${digest}`);
    waves.push({ wave: wave.k, name: wave.name, digest });
  }
  return waves;
}

/**
 * Plans each wave of the spec at HEAD as a dry run would, in a temporary
 * directory it removes, logging each failed run's tail.
 * @param input The spec and step settings.
 * @param io The edges.
 * @param options `stopAtFailure`: plan no wave after one that failed (the
 *   record-plans job records nothing then); else plan them all (the plan
 *   comment shows every wave).
 * @returns The waves planned, in order.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function planEveryWave(
  input: RecordPlansInput,
  io: RunIo,
  options: { stopAtFailure: boolean },
): Promise<PlannedWave[]> {
  const { spec, settings } = input;
  const waves: PlannedWave[] = [];
  const root = await mkdtemp(join(tmpdir(), "chant-wave-record-plans-"));
  try {
    for (const wave of spec.waves) {
      const { planned, failed } = await planRuns(spec, wave, wave.runs, {
        root,
        jobTag: "record-plans",
        discover: wave.discover,
        settings,
      }, io);
      throwIfInterrupted(io);
      if (failed.length > 0) logFailures(failed, io.stderr);
      waves.push({ wave, planned, failed });
      if (failed.length > 0 && options.stopAtFailure) break;
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return waves;
}

/**
 * On GitHub and Forgejo, posts the commit statuses that carry the plans; on
 * GitLab (the artifact carries them) and outside CI, nothing.
 */
async function handOver(
  plans: RecordedPlans,
  io: RunIo,
): Promise<{ ok: true; done?: string } | { ok: false }> {
  const { forge, runUrl } = ciContext(io.env);
  if (forge !== "github" && forge !== "forgejo") return { ok: true };
  const log = lineLog(io.stderr);
  const failed = (why: string) => {
    log(`error: cannot hand the plans to ${forge}: ${why}`);
    return { ok: false } as const;
  };
  const made = forgeClientFromEnv(io.env);
  if (!made.ok) {
    return failed(
      made.missing === "token"
        ? `no forge token: set ${TOKEN_VARIABLES[forge].join(" or ")}`
        : `no ${made.missing} in the environment`,
    );
  }
  const hand = made.client.handPlans;
  if (hand === undefined) return failed("it takes no commit statuses");
  try {
    const done = await hand(plans, runUrl);
    log(`handed the plans to ${forge} as ${done}`);
    return { ok: true, done };
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return failed(
      `${error.message} (pull requests from forks get a read-only token)`,
    );
  }
}
