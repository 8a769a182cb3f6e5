/**
 * `run --record-plans` below the command line (SPEC.md §13), the pull-request
 * pipeline's job: plans every wave at HEAD (the pull request's head, or in a
 * GitLab merged results pipeline its merge into the target) as a dry run would, under a temporary directory it removes, and records each wave's set
 * digest in one `recorded-plans` record, so a review of that head can approve a
 * wave on the merged commit while it plans the same. Nothing else is recorded.
 * @module
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import { lineLog } from "../console/line_log.ts";
import { setDigest } from "../digest/set_digest.ts";
import { InputError } from "../errors.ts";
import { OK, RUN_FAILED } from "../exit_codes.ts";
import { formatBytes, MAX_RECORD_BYTES } from "../limits.ts";
import {
  formatRecord,
  newRecord,
  newStamp,
  RECORDED_PLANS_GATE,
  type RecordedPlansRecord,
  type RecordedWave,
} from "../ledger/records.ts";
import type { Spec } from "../spec/types.ts";
import { ciContext } from "./ci_context.ts";
import { gateName } from "./decide_wave.ts";
import { logFailures } from "./job_result.ts";
import { planRuns } from "./plan_runs.ts";
import type { RunIo, StepSettings } from "./run_io.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";

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
  return sha && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha) ? sha : undefined;
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
  /** 0 recorded, 1 a run failed to plan (nothing recorded). */
  exitCode: number;
  /** The spec's `name`. */
  name: string;
  /** The head the plans are recorded for. */
  head: string;
  /** Each wave's digest, when every wave planned. */
  waves: RecordedWave[];
  /** The record written, when every wave planned. */
  record?: RecordedPlansRecord;
}

/**
 * Plans every wave of the spec at HEAD and records the digests. Plan files go to
 * a temporary directory that is removed; no decision, pending fact or approval is
 * written. A wave a run of which fails to plan records nothing (exit 1). Logs
 * `wave <k> "<name>": <digest>` per wave and `recorded the plans of <n> waves
 * at <head12>`.
 * @param input The spec and step settings.
 * @param io The edges.
 * @returns What was planned and recorded.
 * @throws {InputError} When HEAD is not a commit, or the record would be larger
 *   than a ledger record may be (64 KiB).
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function recordPlans(
  input: RecordPlansInput,
  io: RunIo,
): Promise<RecordPlansResult> {
  const { spec, settings } = input;
  const log = lineLog(io.stderr);
  const checkedOut = await io.git.resolveCommit("HEAD", io.cwd);
  if (checkedOut === undefined) {
    throw new InputError("--record-plans needs a commit at HEAD to plan");
  }
  const source = mergedResultHead(io.env);
  const head = source ?? checkedOut;
  log(
    `chant-wave: recording the plans of ${spec.name} at ${head.slice(0, 12)}` +
      (source
        ? ` (planned at its merged result ${checkedOut.slice(0, 12)})`
        : ""),
  );
  const result: RecordPlansResult = {
    exitCode: OK,
    name: spec.name,
    head,
    waves: [],
  };
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
      if (failed.length > 0) {
        logFailures(failed, io.stderr);
        log(
          `error: wave ${wave.k} "${wave.name}" did not plan; no plans recorded`,
        );
        return { ...result, exitCode: RUN_FAILED, waves: [] };
      }
      const digest = setDigest(
        planned.map(({ target, plan }) => ({
          target,
          planDigest: plan.planDigest,
        })),
      );
      log(`wave ${wave.k} "${wave.name}": ${digest}`);
      result.waves.push({
        wave: wave.k,
        name: wave.name,
        gate: gateName(spec, wave.k),
        digest,
      });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const runId = ciContext(io.env).runId;
  const record = newRecord("recorded-plans", {
    name: spec.name,
    gate: RECORDED_PLANS_GATE,
    head,
    waves: result.waves,
    ...(runId ? { runId } : {}),
  }, newStamp(io.clock));
  const size = new TextEncoder().encode(formatRecord(record)).length;
  if (size > MAX_RECORD_BYTES) {
    throw new InputError(
      `the plans of ${result.waves.length} waves make a record of ${size} bytes, more than a ledger record may be (${
        formatBytes(MAX_RECORD_BYTES)
      })`,
    );
  }
  await io.ledger.write(record);
  log(
    `recorded the plans of ${result.waves.length} wave${
      result.waves.length === 1 ? "" : "s"
    } at ${head.slice(0, 12)} in ${io.ledger.describe()}`,
  );
  return { ...result, record };
}
