/**
 * Which job a `run` command line asks for (SPEC.md §4.1, §4.7, §4.10), and what
 * it is asked to do besides (the spec, the settings, the flags that shape it):
 * the wave (past the spec's waves, its rest wave again, §11), whether it is the
 * whole wave, the deciding job, a share job or a group job, and what a share or
 * group job is given (its slice of the wave's runs, or the group's, or for a
 * `discover` wave the decided ones, sorted by target and cut into the shares;
 * the tag that names its files; the result it starts from). With `discover`
 * and job groups every discovered run must fall in exactly one group before the
 * gate. Pure; refuses unknown waves, shares and groups with the valid choices
 * listed.
 * @module
 */

import { InputError } from "../errors.ts";
import { countOf } from "../count_of.ts";
import { compilePattern } from "../spec/group_pattern.ts";
import type { JobKind } from "../jobs/expand_jobs.ts";
import { suggest } from "../spec/did_you_mean.ts";
import {
  type JobGroup,
  type Run,
  type Spec,
  type Wave,
  waveAt,
} from "../spec/types.ts";
import { OK } from "../exit_codes.ts";
import type { Decision } from "../gate/decision.ts";
import type { JobResult } from "../jobs/job_result.ts";
import { sliceShare } from "../jobs/slice_shares.ts";
import type { FailedRun, PlannedRun } from "./run_outcomes.ts";
import type { BaseSpec, ParseSpecFn } from "../gate/base_spec.ts";
import type { StepSettings } from "./run_io.ts";

/** The job flags of `run`. */
export interface JobFlags {
  /** `--wave`: the wave's number (or its name). */
  wave: string;
  decide: boolean;
  share?: number;
  group?: string;
}

/** The job to run. */
export interface JobSelection {
  wave: Wave;
  kind: JobKind;
  /** The share, from 1, for share jobs and sliced group jobs. */
  share?: number;
  group?: JobGroup;
}

/**
 * Resolves the job flags against the spec.
 * @param spec The spec.
 * @param file The spec file, for messages.
 * @param flags The flags.
 * @returns The selection.
 * @throws {InputError} For an unknown wave, share or group, a group cut into
 * several shares without `--share`, or flags that do not go together.
 */
export function selectJob(
  spec: Spec,
  file: string,
  flags: JobFlags,
): JobSelection {
  const wave =
    spec.waves.find((w) =>
      String(w.k) === flags.wave || w.name === flags.wave
    ) ??
      (/^[1-9][0-9]*$/.test(flags.wave)
        ? waveAt(spec, Number(flags.wave))
        : undefined);
  if (wave === undefined) {
    const choices = spec.waves.map((w) => `${w.k} "${w.name}"`).join(", ");
    const last = spec.waves[spec.waves.length - 1];
    throw new InputError(`wave "${flags.wave}" is not in "${file}"`, [
      `waves: ${choices}${last.rest ? ` and every wave after it (rest)` : ""}`,
    ]);
  }
  const label = `wave ${wave.k} "${wave.name}"`;
  if (
    flags.decide && (flags.share !== undefined || flags.group !== undefined)
  ) {
    throw new InputError(`"--decide" does not go with "--share" or "--group"`);
  }
  if (flags.decide) return { wave, kind: "decide" };
  if (flags.group !== undefined) {
    return selectGroup(wave, label, flags.group, flags.share);
  }
  if (flags.share === undefined) return { wave, kind: "wave" };
  if (wave.jobs !== undefined) {
    const groups = wave.jobs.map((g) => g.name).join(", ");
    throw new InputError(
      `${label} splits its runs into job groups; add "--group G"`,
      [`groups: ${groups}`],
    );
  }
  checkShare(label, flags.share, wave.shares);
  return { wave, kind: "share", share: flags.share };
}

function selectGroup(
  wave: Wave,
  label: string,
  name: string,
  share: number | undefined,
): JobSelection {
  if (wave.jobs === undefined) {
    throw new InputError(`${label} has no job groups; drop "--group"`);
  }
  const group = wave.jobs.find((g) => g.name === name);
  const names = wave.jobs.map((g) => g.name);
  if (group === undefined) {
    const near = suggest(name, names);
    const hint = near ? `; did you mean "${near}"?` : "";
    throw new InputError(`${label} has no job group "${name}"${hint}`, [
      `groups: ${names.join(", ")}`,
    ]);
  }
  if (share !== undefined) {
    checkShare(`${label} group "${name}"`, share, group.shares);
  } else if (group.shares > 1) {
    throw new InputError(
      `${label} group "${name}" has ${group.shares} shares; add "--share I"`,
      [`shares: ${shareList(group.shares)}`],
    );
  }
  return {
    wave,
    kind: "group",
    group,
    ...(share === undefined ? {} : { share }),
  };
}

function checkShare(label: string, share: number, shares: number): void {
  if (share > shares) {
    throw new InputError(
      `${label} has ${countOf(shares, "share")}; "--share ${share}" is not one`,
      [`shares: ${shareList(shares)}`],
    );
  }
}

/** `1, 2, 3` for three shares. */
function shareList(shares: number): string {
  return Array.from({ length: shares }, (_, i) => i + 1).join(", ");
}

/**
 * The runs of a job group: the given runs whose target matches one of its patterns.
 */
function groupRuns<T extends Pick<Run, "target">>(
  group: JobGroup,
  runs: readonly T[],
): T[] {
  const patterns = group.runs.map(compilePattern);
  return runs.filter((run) =>
    patterns.some((pattern) => pattern.test(run.target))
  );
}

/**
 * This job's runs: the wave's (or the group's) sorted by target, sliced.
 * @param input The job (its wave, share and group).
 * @param decision The decision (its members are a `discover` wave's runs).
 * @returns The slice, sorted by target.
 * @example
 * ```ts
 * shareSlice(shareTwoOfTwo, decision).map((run) => run.target); // ["t3"]
 * ```
 */
export function shareSlice(input: RunJobInput, decision: Decision): Run[] {
  const { selection: { wave, share, group } } = input;
  const candidates: Run[] = wave.discover
    ? decision.members.map(({ target, op }) => ({ target, op }))
    : wave.runs;
  const pool = group ? groupRuns(group, candidates) : candidates;
  return sliceShare(pool, group ? group.shares : wave.shares, share ?? 1);
}

/**
 * Names the job's files: `share-2`, `group-eu`, `group-eu-share-1`.
 * @param input The job (its share and group).
 * @returns The tag.
 * @example
 * ```ts
 * shareJobTag({ selection: { share: 2 } } as RunJobInput); // "share-2"
 * ```
 */
export function shareJobTag(input: RunJobInput): string {
  const { share, group } = input.selection;
  return group
    ? `group-${group.name}${share ? `-share-${share}` : ""}`
    : `share-${share}`;
}

/**
 * The result a share or group job starts from: its slice, nothing done yet.
 * @param input The job.
 * @param decision The decision it applies.
 * @param slice Its slice.
 * @returns `OK`, with the job, the decision and the slice's targets.
 */
export function shareResult(
  input: RunJobInput,
  decision: Decision,
  slice: readonly Run[],
): JobResult {
  const { selection: { wave, kind, share, group } } = input;
  return {
    exitCode: OK,
    wave: wave.k,
    job: {
      kind,
      ...(share === undefined ? {} : { share }),
      ...(group ? { group: group.name } : {}),
    },
    decision,
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
    runs: slice.map((run) => run.target),
  };
}

/**
 * The discovered runs that match no job group, or more than one.
 * @param wave The wave (its `discover` and `jobs`).
 * @param planned The planned runs.
 * @returns One failed run for each, naming the groups it matches.
 * @example
 * ```ts
 * ungroupedRuns({ ...wave, discover: false }, planned); // []
 * ```
 */
export function ungroupedRuns(
  wave: Pick<Wave, "discover" | "jobs">,
  planned: readonly Pick<PlannedRun, "target">[],
): FailedRun[] {
  if (!wave.discover || wave.jobs === undefined) return [];
  const groups = wave.jobs.map((group) => ({
    name: group.name,
    patterns: group.runs.map(compilePattern),
  }));
  const failed: FailedRun[] = [];
  for (const { target } of planned) {
    const matching = groups.filter((g) =>
      g.patterns.some((p) => p.test(target))
    ).map((g) => `"${g.name}"`);
    if (matching.length === 1) continue;
    const why = matching.length === 0
      ? "matches no job group"
      : `matches job groups ${matching.join(" and ")}`;
    failed.push({
      target,
      message: `discovered run "${target}" ${why}`,
      tail: [],
    });
  }
  return failed;
}

/** Everything a job needs besides the edges. */
export interface RunJobInput {
  spec: Spec;
  /** The spec file as the user named it. */
  specFile: string;
  /**
   * The spec file's text as read from the work tree: a job runs HEAD's
   * committed copy, so the two must be equal (a dry run may differ).
   */
  specText?: string;
  selection: JobSelection;
  /** `--base`, when given; otherwise the base is resolved by SPEC.md §4.4. */
  baseFlag?: string;
  settings: StepSettings;
  dryRun: boolean;
  /** `--out-of-order REASON`: run even when the wave before has not applied HEAD. */
  outOfOrder?: string;
  /** The `--ledger` argument that reaches this job's ledger, when not the default. */
  ledgerArg?: string;
  /**
   * A pending fact the job records names no CI job for `resume` to restart
   * (`drift --record`, whose own job applies nothing when re-run).
   */
  noResume?: boolean;
  /** Parses the spec as it was at base (`parseSpec`, loaded by the CLI). */
  parseSpec: ParseSpecFn;
  /**
   * Told the bases once a whole-wave or deciding job has read them, before
   * any command of the change runs; throwing an `InputError` stops the job.
   */
  onBase?: (bases: readonly { sha: string; spec: BaseSpec }[]) => void;
}
