/**
 * What `chant-wave drift` found (SPEC.md §19): per wave planned again at a
 * revision every wave applied, each run whose plan is not empty now, and each
 * run whose plan differs from the rest of its wave (`plan_groups.ts`). Pure:
 * the waves' plans in, the findings and their table out. Planning the waves
 * and what the findings lead to (a pending fact, an event, a summary) belong to
 * `src/drift/`, `src/notify/` and `src/summary/`.
 * @module
 */

import { groupPlans, type ShownPlan } from "./plan_groups.ts";

/** One wave as drift planned it. */
export interface PlannedWave {
  /** The wave's number. */
  k: number;
  /** The wave's name. */
  name: string;
  /** `<gate>-wave-<k>`. */
  gate: string;
  /** The set digest of its plans. */
  digest: string;
  /** Its plans, sorted by target. */
  members: readonly ShownPlan[];
}

/** One run that drifted. */
export interface DriftedRun {
  target: string;
  planDigest: string;
  /** Its plan is not empty: applying it would change something. */
  changes: boolean;
  /** Its plan differs from the plan most of its wave shares, that many runs. */
  differsFrom?: number;
  destructive?: boolean;
  summary?: string;
}

/** One wave's findings. */
export interface WaveDrift {
  k: number;
  name: string;
  gate: string;
  digest: string;
  /** How many runs it planned. */
  runs: number;
  /** The runs that drifted, sorted by target; none when the wave did not. */
  drifted: DriftedRun[];
}

/**
 * Finds the drift of the waves' plans: a run drifted when its plan is not
 * empty, or when it differs from the plan most of its wave shares (three runs
 * or more, one plan held by more than half of them).
 * @param waves The waves, each with its plans.
 * @returns One entry per wave, in the order given.
 * @example
 * ```ts
 * driftOf([{ k: 1, name: "dev", gate: "tf-wave-1", digest, members: [
 *   { target: "dev", planDigest, empty: false, summary: "1 to change" },
 * ] }])[0].drifted; // [{ target: "dev", planDigest, changes: true, summary: "1 to change" }]
 * ```
 */
export function driftOf(waves: readonly PlannedWave[]): WaveDrift[] {
  return waves.map((wave) => {
    const differs = new Map<string, number>();
    for (const group of groupPlans(wave.members)) {
      if (group.drifted === undefined) continue;
      for (const target of group.targets) {
        differs.set(target, group.drifted.from);
      }
    }
    const drifted: DriftedRun[] = [];
    for (const member of wave.members) {
      const changes = member.empty !== true;
      const from = differs.get(member.target);
      if (!changes && from === undefined) continue;
      drifted.push({
        target: member.target,
        planDigest: member.planDigest,
        changes,
        ...(from === undefined ? {} : { differsFrom: from }),
        ...(member.destructive ? { destructive: true } : {}),
        ...(member.summary === undefined ? {} : { summary: member.summary }),
      });
    }
    return {
      k: wave.k,
      name: wave.name,
      gate: wave.gate,
      digest: wave.digest,
      runs: wave.members.length,
      drifted,
    };
  });
}

/**
 * Why a run counts as drifted, in words.
 * @param run The drifted run.
 * @returns `its plan is not empty`, `its plan differs from the other 4 runs
 *   of the wave`, or both joined by `, and`.
 * @example
 * ```ts
 * driftReason({ target: "b", planDigest, changes: true, differsFrom: 2 });
 * // "its plan is not empty, and differs from the other 2 runs of the wave"
 * ```
 */
export function driftReason(run: DriftedRun): string {
  const differs = run.differsFrom === undefined
    ? ""
    : `differs from the other ${run.differsFrom} runs of the wave`;
  if (!run.changes) return `its plan ${differs}`;
  return differs
    ? `its plan is not empty, and ${differs}`
    : "its plan is not empty";
}

/**
 * The rows of the drift table: a header, then one row per drifted run (wave,
 * target, what its plan does, why it counts). Cells are plain text; the
 * caller prints them through its own sanitising writer.
 * @param waves The findings.
 * @returns The header row and the data rows (just the header when nothing drifted).
 * @example
 * ```ts
 * driftRows([])[0]; // ["WAVE", "TARGET", "PLAN", "WHY"]
 * ```
 */
export function driftRows(waves: readonly WaveDrift[]): string[][] {
  const rows = [["WAVE", "TARGET", "PLAN", "WHY"]];
  for (const wave of waves) {
    for (const run of wave.drifted) {
      rows.push([
        `${wave.k} ${wave.name}`,
        run.target,
        (run.summary ?? (run.changes ? "changes" : "no changes")) +
        (run.destructive ? " (destructive)" : ""),
        driftReason(run),
      ]);
    }
  }
  return rows;
}
