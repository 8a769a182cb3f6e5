/**
 * `chant-wave drift` below the command line (SPEC.md §19): checks that the
 * checkout is at the revision asked for (`--rev`, else the tip of the default
 * branch the forge names, else HEAD) and that every wave recorded `applied`
 * or `nothing-to-do` there (§4.11), then runs each wave's deciding job
 * (`run --wave K --decide`) to plan it exactly as `run` would, with the base,
 * the policy and the tool's settings read at base. Without `--record` that job
 * is a dry run, so nothing is written; with `--record` it is a real deciding
 * job, so a drifted wave whose gate needs an approval records the pending fact
 * a `run` of that wave at this revision records too (same head, same base
 * rule, same digest), and approving it is an ordinary approval of those plans.
 * Nothing is ever applied here, and a finding approves nothing (§4.12).
 * The findings and their table are `plan/drift_report.ts`'s.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { InputError } from "../errors.ts";
import { DRIFT, OK, RUN_FAILED } from "../exit_codes.ts";
import { defaultBranchName, defaultBranchTip } from "../base/default_branch.ts";
import type { DecisionStatus } from "../gate/decision.ts";
import { gateName } from "../gate/gate_messages.ts";
import type { ParseSpecFn } from "../gate/base_spec.ts";
import { jobLabel, waveCompletion } from "../order/wave_completion.ts";
import type { DriftResult, DriftWave } from "../jobs/drift_result.ts";
import { driftOf, type PlannedWave } from "../plan/drift_report.ts";
import { quote } from "../quote.ts";
import type { RunIo } from "../run/run_io.ts";
import { runJob } from "../run/run_job.ts";
import { selectJob } from "../run/select_job.ts";
import type { Spec } from "../spec/types.ts";

/** What `drift` is asked to do. */
export interface DriftInput {
  /** The working copy's spec (HEAD's, which a real deciding job checks). */
  spec: Spec;
  /** The spec file as the user named it. */
  specFile: string;
  /** The spec file's text in the work tree. */
  specText: string;
  /** `--rev`, when given. */
  rev?: string;
  /** `--record`: record each drifted wave's plans as a pending fact. */
  record: boolean;
  /** The `--ledger` argument that reaches the ledger, when not the default. */
  ledgerArg?: string;
  /** Parses the spec at base. */
  parseSpec: ParseSpecFn;
}

/**
 * Plans every wave at the revision and finds what drifted. Logs the revision
 * (`drift: planning tf at 1a2b3c4d5e6f (the tip of the default branch
 * "main")`), each wave's deciding job, and one line per drifted wave.
 * @param input The spec, `--rev`, `--record`.
 * @param io The edges.
 * @returns The findings; exit 5 when a run drifted, 1 when a wave did not
 *   plan, else 0.
 * @throws {InputError} Exit 2 when the checkout is not at the revision, or a
 *   wave has not been applied there (drift would report the rollout still to
 *   come as drift, and a pending fact of it would stand beside the rollout's).
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function driftJob(
  input: DriftInput,
  io: RunIo,
): Promise<DriftResult> {
  const { spec } = input;
  const log = lineLog(io.stderr);
  const { sha: revision, how } = await driftRevision(input.rev, io);
  log(
    `drift: planning ${spec.name} at ${revision.slice(0, 12)} (${how})${
      input.record ? "; drifted waves are recorded as pending facts" : ""
    }`,
  );
  await checkEveryWaveApplied(spec, revision, io);
  const planned: PlannedWave[] = [];
  const status = new Map<
    number,
    { status: DecisionStatus; approve?: string }
  >();
  const failed: DriftResult["failed"] = [];
  for (const wave of spec.waves) {
    const result = await runJob({
      spec,
      specFile: input.specFile,
      specText: input.specText,
      selection: selectJob(spec, input.specFile, {
        wave: String(wave.k),
        decide: true,
      }),
      settings: {
        parallel: wave.parallel,
        timeoutMs: wave.timeoutMs,
        heartbeatMs: spec.heartbeatMs,
      },
      dryRun: !input.record,
      // Re-running the drift job applies nothing: `resume` restarts none.
      noResume: true,
      ...(input.ledgerArg === undefined ? {} : { ledgerArg: input.ledgerArg }),
      parseSpec: input.parseSpec,
    }, io);
    const { decision } = result;
    if (decision === undefined || result.failed.length > 0) {
      failed.push({ wave: wave.k, name: wave.name, targets: result.failed });
      continue;
    }
    planned.push({
      k: wave.k,
      name: wave.name,
      gate: decision.gate,
      digest: decision.digest,
      members: decision.members,
    });
    status.set(wave.k, {
      status: decision.status,
      ...(decision.approve === undefined ? {} : { approve: decision.approve }),
    });
  }
  const waves = driftOf(planned).map((found) => ({
    ...found,
    ...status.get(found.k)!,
  }));
  for (const wave of waves) {
    if (wave.drifted.length > 0) log(driftLine(wave, input.record));
  }
  for (const wave of failed) {
    log(
      `error: wave ${wave.wave} "${wave.name}" did not plan; its drift is unknown`,
    );
  }
  const drifted = waves.some((wave) => wave.drifted.length > 0);
  const exitCode = failed.length > 0 ? RUN_FAILED : drifted ? DRIFT : OK;
  return {
    exitCode,
    name: spec.name,
    revision,
    recorded: input.record && drifted,
    waves,
    failed,
  };
}

/**
 * The revision to plan, which must be HEAD: `--rev`, else the default branch's
 * tip when the forge names the branch, else HEAD.
 */
async function driftRevision(
  rev: string | undefined,
  io: RunIo,
): Promise<{ sha: string; how: string }> {
  const head = await io.git.resolveCommit("HEAD", io.cwd);
  if (head === undefined) {
    throw new InputError("drift needs a commit at HEAD to plan");
  }
  let sha: string | undefined;
  let how: string;
  if (rev !== undefined) {
    sha = await io.git.resolveCommit(rev, io.cwd);
    if (sha === undefined) {
      throw new InputError(
        `flag "--rev": ${quote(rev)} is not a commit in this checkout`,
      );
    }
    how = `--rev ${quote(rev)}`;
  } else {
    const branch = await defaultBranchName(io.env);
    const top = await io.git.topLevel(io.cwd) ?? io.cwd;
    sha = branch === undefined
      ? head
      : await defaultBranchTip(io.git, top, branch);
    how = branch === undefined
      ? "HEAD: no forge names a default branch here"
      : `the tip of the default branch ${quote(branch)}`;
  }
  if (sha !== head) {
    throw new InputError(
      `drift plans the checkout, which is at ${head.slice(0, 12)}, not at ${
        sha.slice(0, 12)
      } (${how})`,
      ["check that revision out first, or pass --rev HEAD"],
    );
  }
  return { sha, how };
}

/**
 * Every wave recorded `applied` or `nothing-to-do` at the revision (each of
 * its applying jobs did), else exit 2 naming those that did not.
 */
async function checkEveryWaveApplied(
  spec: Spec,
  revision: string,
  io: RunIo,
): Promise<void> {
  const log = lineLog(io.stderr);
  const missing: string[] = [];
  for (const wave of spec.waves) {
    const { records, problems } = await io.ledger.readGate(
      spec.name,
      gateName(spec, wave.k),
    );
    for (const problem of problems) log(`warning: ledger: ${problem}`);
    const done = waveCompletion(records, wave, revision);
    if (!done.complete) {
      missing.push(
        `wave ${wave.k} "${wave.name}" (missing: ${
          done.missing.map(jobLabel).join(", ")
        })`,
      );
    }
  }
  if (missing.length === 0) return;
  throw new InputError(
    `drift plans a revision every wave applied, and ${
      countOf(missing.length, "wave")
    } ${missing.length === 1 ? "has" : "have"} not been applied at ${
      revision.slice(0, 12)
    }: ${missing.join(", ")}`,
    [
      "let the rollout of this revision finish, or check out one every wave applied and pass --rev",
    ],
  );
}

/** The line of a drifted wave, and what puts it right. */
function driftLine(wave: DriftWave, record: boolean): string {
  const what = `drift: wave ${wave.k} "${wave.name}": ${
    countOf(wave.drifted.length, "run")
  } of ${wave.runs} drifted (${
    wave.drifted.map((run) => run.target).join(", ")
  }), set digest ${wave.digest}`;
  if (!record) {
    return `${what}; --record records its plans for an approval`;
  }
  switch (wave.status) {
    case "waiting":
      return `${what}; recorded its plans as a pending fact: approve them, then run wave ${wave.k} to apply them once`;
    case "approved":
      return `${what}; an approval of these plans stands: run wave ${wave.k} to apply them`;
    case "not-required":
      return `${what}; its gate needs no approval for these plans: run wave ${wave.k} to apply them`;
  }
}
