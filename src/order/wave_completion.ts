/**
 * Whether a wave is complete for a commit (SPEC.md §4.11): its whole-wave job, or
 * every one of its share and group jobs, recorded `applied` or `nothing-to-do` for
 * that very head sha; which revision a wave last completed; and whether it is
 * complete since a pending fact (an `"applied": true` hold). Pure: the wave's
 * shape and its gate's records in, an answer out.
 * @module
 */

import type {
  LedgerRecord,
  OutcomeJob,
  PendingRecord,
  WaveOutcomeRecord,
} from "../gate/records.ts";
import type { Wave } from "../spec/types.ts";

/** The applying jobs of a wave: its number, shares and job groups. */
export type WaveShape = Pick<Wave, "k" | "shares" | "jobs">;

/**
 * The applying jobs a wave's pipeline has: the whole-wave job, its share jobs, or
 * its group jobs (each sliced by the group's shares).
 */
function applyingJobs(
  wave: Pick<Wave, "shares" | "jobs">,
): OutcomeJob[] {
  if (wave.jobs !== undefined) {
    return wave.jobs.flatMap((group) =>
      group.shares === 1
        ? [{ kind: "group" as const, group: group.name }]
        : Array.from({ length: group.shares }, (_, i) => ({
          kind: "group" as const,
          group: group.name,
          share: i + 1,
        }))
    );
  }
  if (wave.shares > 1) {
    return Array.from(
      { length: wave.shares },
      (_, i) => ({ kind: "share" as const, share: i + 1 }),
    );
  }
  return [{ kind: "wave" }];
}

/**
 * Names a job as messages do: `share 2`, `group "eu"`, `group "eu" share 1`, or
 * `the whole-wave job`.
 * @param job The job.
 * @returns Its label.
 * @example
 * ```ts
 * jobLabel({ kind: "group", group: "eu", share: 2 }); // 'group "eu" share 2'
 * ```
 */
export function jobLabel(job: OutcomeJob): string {
  if (job.kind === "wave") return "the whole-wave job";
  if (job.kind === "decide") return "the deciding job";
  const group = job.group === undefined ? "" : `group "${job.group}"`;
  const share = job.share === undefined ? "" : `share ${job.share}`;
  return [group, share].filter(Boolean).join(" ");
}

/**
 * Whether two wave outcomes name the same job of a wave.
 * @param a A job.
 * @param b Another.
 * @returns `true` when kind, share and group are the same.
 * @example
 * ```ts
 * sameJob({ kind: "share", share: 1 }, { kind: "share", share: 1 }); // true
 * ```
 */
export function sameJob(a: OutcomeJob, b: OutcomeJob): boolean {
  return a.kind === b.kind && a.share === b.share && a.group === b.group;
}

/** Whether a wave is complete for a commit, and if not, which jobs are missing. */
export interface Completion {
  complete: boolean;
  /** The jobs with no `applied` or `nothing-to-do` outcome (newest) at the commit. */
  missing: OutcomeJob[];
}

/**
 * Decides whether `wave` is complete at `head`: a whole-wave job's newest outcome
 * at `head` is `applied` or `nothing-to-do`, or each of the wave's applying jobs'
 * newest outcome at `head` is.
 * @param records The wave's gate records, oldest first.
 * @param wave The wave.
 * @param head The commit (full sha).
 * @returns Whether it is complete, and the jobs still missing.
 * @example
 * ```ts
 * waveCompletion([], wave, head); // { complete: false, missing: [{ kind: "wave" }] }
 * ```
 */
export function waveCompletion(
  records: readonly LedgerRecord[],
  wave: Pick<Wave, "k" | "shares" | "jobs">,
  head: string,
): Completion {
  const outcomes = records.filter((r): r is WaveOutcomeRecord =>
    r.kind === "wave-outcome" && r.wave === wave.k && r.head === head
  );
  const done = (job: OutcomeJob) => {
    const newest = outcomes.findLast((r) => sameJob(r.job, job));
    return newest !== undefined && newest.outcome !== "failed";
  };
  if (done({ kind: "wave" })) return { complete: true, missing: [] };
  const missing = applyingJobs(wave).filter((job) => !done(job));
  return { complete: missing.length === 0, missing };
}

/**
 * The newest commit at which `wave` was complete, with when its last outcome was
 * recorded.
 * @param records The wave's gate records, oldest first.
 * @param wave The wave.
 * @returns The commit and the time, or `undefined` when it never was.
 * @example
 * ```ts
 * lastCompleted([], wave); // undefined
 * ```
 */
export function lastCompleted(
  records: readonly LedgerRecord[],
  wave: Pick<Wave, "k" | "shares" | "jobs">,
): { head: string; at: string } | undefined {
  const outcomes = records.filter((r): r is WaveOutcomeRecord =>
    r.kind === "wave-outcome" && r.wave === wave.k
  );
  for (let i = outcomes.length - 1; i >= 0; i--) {
    const { head } = outcomes[i];
    if (waveCompletion(records, wave, head).complete) {
      return { head, at: outcomes[i].timestamp };
    }
  }
  return undefined;
}

/** Whether a wave is complete since a record, and which of its jobs are not. */
export interface CompleteSince {
  /** Every applying job recorded `applied` or `nothing-to-do` at one head. */
  applied: boolean;
  /** The jobs still to apply (`share 2`, `group "eu"`), when some did. */
  missing?: string;
}

/**
 * Whether the gate's wave is complete after `pending` (after the newest
 * revoke when there is no pending fact), as the order check reads it (SPEC.md
 * §4.11; an `"applied": true` hold, §11, asks it): every applying job of the wave recorded `applied` or `nothing-to-do`
 * at the pending fact's head (at some one head when there is none, or it names
 * none). A wave whose shape is unknown is complete only by a whole-wave job.
 * @param records The gate's records, oldest first.
 * @param pending The newest pending fact, if any.
 * @param gate The gate (`<prefix>-wave-<k>` names the wave).
 * @param shape The wave's number, shares and job groups, when known.
 * @returns Whether it is complete, and what is missing.
 * @example
 * ```ts
 * completeSince([], undefined, "infra-wave-2"); // { applied: false }
 * ```
 */
export function completeSince(
  records: readonly LedgerRecord[],
  pending: PendingRecord | undefined,
  gate: string,
  shape?: WaveShape,
): CompleteSince {
  let from = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    if (records[i] === pending || records[i].kind === "expired") {
      from = i + 1;
      break;
    }
  }
  const after = records.slice(from);
  const k = shape?.k ?? Number(/-wave-(\d+)$/.exec(gate)?.[1] ?? 0);
  const wave: WaveShape = shape ?? { k, shares: 1 };
  const heads = pending?.head !== undefined ? [pending.head] : [
    ...new Set(after.flatMap((r) => r.kind === "wave-outcome" ? [r.head] : [])),
  ];
  let missing: string | undefined;
  for (const head of heads.reverse()) {
    const done = waveCompletion(after, wave, head);
    if (done.complete) return { applied: true };
    const started = after.some((r) =>
      r.kind === "wave-outcome" && r.wave === wave.k && r.head === head
    );
    if (started && missing === undefined) {
      missing = shape
        ? done.missing.map(jobLabel).join(", ")
        : "the whole-wave job (that wave's shares and groups cannot be read here)";
    }
  }
  return missing === undefined
    ? { applied: false }
    : { applied: false, missing };
}
