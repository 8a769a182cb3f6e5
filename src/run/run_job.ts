/**
 * `chant-wave run` below the command line: picks the job's flow (whole wave or
 * deciding job, share or group job), holds the wave's lock of this checkout
 * while it runs, for dry runs plans under a temporary directory that is removed
 * afterwards, so nothing is written (SPEC.md §4.9), goes on through further rest
 * waves (§11), and announces each wave's outcome by
 * webhook when the spec asks (§8).
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { notifyOutcome } from "../notify/notify_outcome.ts";
import { rememberingParser } from "../gate/base_spec.ts";
import type { JobResult, RestWaveResult } from "../jobs/job_result.ts";
import { type RunIo, throwIfInterrupted } from "./run_io.ts";
import { nextRestWave, restEntry } from "./rest_waves.ts";
import { runDeciding } from "./run_deciding.ts";
import { runShare } from "./run_share.ts";
import { lockWaitMs, lockWave } from "./wave_lock.ts";
import type { RunJobInput } from "./select_job.ts";

/**
 * Runs one job: its wave, then any further rest waves it goes on to.
 * @param input The job.
 * @param io The edges.
 * @returns The first wave's result; with further waves, its exit code is the
 *   last wave's and `rest` lists them.
 * @throws {InputError} On input a job cannot start with, or when another run
 * holds the wave in this checkout past the lock's wait (exit 2).
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function runJob(
  input: RunJobInput,
  io: RunIo,
): Promise<JobResult> {
  // The spec at each base is parsed once for the job and its rest waves; the
  // work tree's text is the spec the command line parsed.
  const known = input.specText === undefined
    ? []
    : [{ text: input.specText, spec: input.spec }];
  const once = {
    ...input,
    parseSpec: rememberingParser(input.parseSpec, known),
  };
  const first = await runWave(once, io);
  const rest: RestWaveResult[] = [];
  let job = nextRestWave(once, first, io);
  // The change's commands have run: the further waves read the ledger as of
  // the first wave's mark.
  const restIo = job ? { ...io, asOf: await io.ledger.mark() } : io;
  while (job) {
    const result = await runWave(job, restIo);
    rest.push(restEntry(result));
    job = nextRestWave(job, result, restIo);
  }
  if (rest.length === 0) return first;
  return { ...first, exitCode: rest[rest.length - 1].exitCode, rest };
}

/** Runs one wave of the job, announced, and notifies its outcome. */
async function runWave(input: RunJobInput, io: RunIo): Promise<JobResult> {
  const { wave, kind, share, group } = input.selection;
  const what = kind === "wave"
    ? "whole-wave job"
    : kind === "decide"
    ? "deciding job"
    : [share ? `share ${share}` : "", group ? `group "${group.name}"` : ""]
      .filter(Boolean).join(" of ") + " job";
  lineLog(io.stderr)(
    `chant-wave: wave ${wave.k} "${wave.name}" of ${input.spec.name}, ${what}${
      input.dryRun ? " (dry run)" : ""
    }`,
  );
  const result = await runFlow(input, io);
  if (!input.dryRun) {
    await notifyOutcome({
      spec: input.spec,
      result,
      env: io.env,
      clock: io.clock,
      log: lineLog(io.stderr),
    });
  }
  return result;
}

/**
 * Runs the job's flow, holding the wave's lock of this checkout; a dry run plans
 * under a temporary directory it removes, and takes no lock.
 */
async function runFlow(input: RunJobInput, io: RunIo): Promise<JobResult> {
  const { kind, wave } = input.selection;
  const flow = kind === "wave" || kind === "decide" ? runDeciding : runShare;
  if (!input.dryRun) {
    const lock = await lockWave({
      dir: resolve(io.cwd, ".chant", "waves", input.spec.name),
      k: wave.k,
      waitMs: lockWaitMs(io.env),
      clock: io.clock,
      log: lineLog(io.stderr),
      checkStop: () => throwIfInterrupted(io),
    });
    try {
      return await flow(input, ".chant", io);
    } finally {
      await lock.release();
    }
  }
  const root = await mkdtemp(join(tmpdir(), "chant-wave-dry-run-"));
  try {
    return await flow(input, root, io);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
