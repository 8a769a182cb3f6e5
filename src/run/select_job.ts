/**
 * Which job a `run` command line asks for (SPEC.md §4.1): the wave (past the
 * spec's waves, its rest wave again, §11), and whether it is the whole wave, the
 * deciding job, a share job or a group job. Pure; refuses
 * unknown waves, shares and groups with the valid choices listed.
 * @module
 */

import { InputError } from "../errors.ts";
import { countOf } from "../count_of.ts";
import { compilePattern } from "../spec/group_pattern.ts";
import type { JobKind } from "../jobs/expand_jobs.ts";
import { suggest } from "../spec/did_you_mean.ts";
import type { JobGroup, Run, Spec, Wave } from "../spec/types.ts";
import { waveAt } from "../spec/wave_at.ts";

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
 * @param group The group.
 * @param runs The wave's runs (or, for discovering waves, the decided ones).
 * @returns The matching runs, in input order.
 */
export function groupRuns<T extends Pick<Run, "target">>(
  group: JobGroup,
  runs: readonly T[],
): T[] {
  const patterns = group.runs.map(compilePattern);
  return runs.filter((run) =>
    patterns.some((pattern) => pattern.test(run.target))
  );
}
