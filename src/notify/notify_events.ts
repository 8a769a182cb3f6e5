/**
 * The webhook events (SPEC.md §8): which of `waiting`, `applied`, `failed`
 * and `refused` a job's `JobResult` calls for, and the `drift` events of a
 * `drift` run (§19); their bodies and their one-sentence summaries. Pure:
 * values in, values out; sending them is `deliverEvent`'s job.
 * @module
 */

import { countOf } from "../count_of.ts";
import { type Spec, waveAt } from "../spec/types.ts";
import { WAITING } from "../exit_codes.ts";
import { approveCommand, gateName } from "../gate/gate_messages.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { DriftResult } from "../jobs/drift_result.ts";

/** The events of §8, in the order a job sends them (`drift` by `drift`, §19). */
export const NOTIFY_EVENTS = [
  "waiting",
  "applied",
  "refused",
  "failed",
  "drift",
] as const;
/** One of {@linkcode NOTIFY_EVENTS}. */
export type NotifyEventName = typeof NOTIFY_EVENTS[number];

/** The JSON body of one webhook event (§8). */
export interface NotifyBody {
  event: NotifyEventName;
  /** The spec's `name`. */
  name: string;
  /** The wave's number. */
  wave: number;
  waveName: string;
  /** `<gate>-wave-<k>`. */
  gate: string;
  /** The set digest; absent when the wave failed before it was decided. */
  digest?: string;
  job: {
    kind: JobResult["job"]["kind"] | "drift";
    share?: number;
    group?: string;
  };
  /** One sentence, e.g. `wave 2 (apply) of tf, applied 3 runs`. */
  summary: string;
  /** The runs the event is about (applied, refused, failed). */
  targets?: string[];
  /** Why: the policy that asks for an approval, or what went wrong. */
  reason?: string;
  /** `waiting` (and `drift` once recorded): the command that approves this digest. */
  approve?: string;
  /** The CI run, when known. */
  runUrl?: string;
  /** When the event was made, ISO 8601 UTC. */
  timestamp: string;
}

/** What {@linkcode notifyEvents} derives events from. */
export interface NotifyEventsInput {
  spec: Spec;
  result: JobResult;
  /** The CI run's URL, when known. */
  runUrl?: string;
  /** Milliseconds since the Unix epoch. */
  now: number;
}

/**
 * Names the job inside a summary: nothing for a whole wave, `deciding job`,
 * `share 2 of 3`, `job group prod` or `share 1 of job group prod`.
 */
function jobPhrase(job: JobResult["job"], shares: number): string {
  if (job.kind === "wave") return "";
  if (job.kind === "decide") return "deciding job";
  if (job.group !== undefined) {
    const group = `job group ${job.group}`;
    return job.share === undefined ? group : `share ${job.share} of ${group}`;
  }
  return `share ${job.share ?? 1} of ${shares}`;
}

/** Says what one event reports, after the wave and the job. */
function outcomePhrase(
  event: NotifyEventName,
  count: number,
  untried = 0,
): string {
  switch (event) {
    case "waiting":
      return `waits for an approval of ${countOf(count, "run")}`;
    case "applied":
      return `applied ${countOf(count, "run")}`;
    case "refused":
      return `refused ${countOf(count, "run")} whose ${
        count === 1 ? "plan" : "plans"
      } moved since the wave was decided`;
    case "failed":
      return `${countOf(count, "run")} failed` +
        (untried ? `, ${untried} left untried` : "");
    case "drift":
      return `${countOf(count, "run")} drifted`;
  }
}

/**
 * The summary sentence of §8: `wave <k> (<wave name>) of <name>[, <job>], <outcome>`.
 */
function summarize(
  spec: string,
  wave: { k: number; name: string },
  job: string,
  outcome: string,
): string {
  return [`wave ${wave.k} (${wave.name}) of ${spec}`, job, outcome]
    .filter((part) => part !== "").join(", ");
}

/**
 * Derives the events a job's result calls for: `waiting` (whole-wave and deciding
 * jobs only: share and group jobs do not repeat it), `applied` when runs applied,
 * `refused` when plans moved, `failed` when runs failed. A job with nothing to
 * report (a deciding job free to apply, an empty slice) sends none.
 * @param input The spec, the result, the run URL and the time.
 * @returns The bodies, in the order of {@linkcode NOTIFY_EVENTS}.
 * @example
 * ```ts
 * notifyEvents({ spec, result: { exitCode: 0, wave: 1, job: { kind: "wave" },
 *   applied: ["dev"], failed: [], moved: [], untried: [] }, now: 0 })[0].summary;
 * // "wave 1 (dev) of tf, applied 1 run"
 * ```
 */
export function notifyEvents(input: NotifyEventsInput): NotifyBody[] {
  const { spec, result } = input;
  const wave = waveAt(spec, result.wave) ??
    { k: result.wave, name: `wave-${result.wave}`, shares: 1 };
  const decision = result.decision;
  const gate = decision?.gate ?? gateName(spec, wave.k);
  const job = jobPhrase(result.job, wave.shares);
  const make = (
    event: NotifyEventName,
    outcome: string,
    extra: Partial<NotifyBody>,
  ): NotifyBody => ({
    event,
    name: spec.name,
    wave: wave.k,
    waveName: wave.name,
    gate,
    ...(decision ? { digest: decision.digest } : {}),
    job: { ...result.job },
    summary: summarize(spec.name, wave, job, outcome),
    ...extra,
    ...(input.runUrl ? { runUrl: input.runUrl } : {}),
    timestamp: new Date(input.now).toISOString(),
  });
  const events: NotifyBody[] = [];
  const deciding = result.job.kind === "wave" || result.job.kind === "decide";
  if (result.exitCode === WAITING && deciding && decision) {
    const count = decision.members.length;
    events.push(make("waiting", outcomePhrase("waiting", count), {
      reason: decision.status === "waiting"
        ? `policy "${decision.policy}": ${decision.policyReason}`
        : "the approval no longer stands (revoked, or spent by another decision)",
      approve: decision.approve ??
        approveCommand(spec.name, gate, decision.digest),
    }));
  }
  if (result.applied.length > 0) {
    const targets = result.applied;
    events.push(
      make("applied", outcomePhrase("applied", targets.length), { targets }),
    );
  }
  if (result.moved.length > 0) {
    const targets = result.moved;
    events.push(make("refused", outcomePhrase("refused", targets.length), {
      targets,
      reason: `their plans moved since wave ${wave.k} was decided`,
    }));
  }
  if (result.failed.length > 0) {
    const targets = result.failed;
    const untried = result.untried.length;
    events.push(
      make("failed", outcomePhrase("failed", targets.length, untried), {
        targets,
        reason: decision
          ? "a plan or apply command failed; see the job's log"
          : "planning failed before the wave was decided; see the job's log",
      }),
    );
  }
  return events;
}

/** What {@linkcode driftEvents} derives events from. */
export interface DriftEventsInput {
  spec: Spec;
  result: DriftResult;
  /** The CI run's URL, when known. */
  runUrl?: string;
  /** Milliseconds since the Unix epoch. */
  now: number;
}

/**
 * Derives the `drift` events of a drift run: one per wave with a drifted run,
 * naming its targets; information only, so a recorded wave's event carries
 * the command that approves its plans, and nothing approves them by itself.
 * @param input The spec, the findings, the run URL and the time.
 * @returns The bodies, in the spec's order of waves; none when nothing drifted.
 * @example
 * ```ts
 * driftEvents({ spec, result, now: 0 })[0].summary;
 * // "wave 2 (prod) of tf, drift at 1a2b3c4d5e6f, 1 run drifted"
 * ```
 */
export function driftEvents(input: DriftEventsInput): NotifyBody[] {
  const { spec, result } = input;
  const at = `drift at ${result.revision.slice(0, 12)}`;
  return result.waves.filter((wave) => wave.drifted.length > 0).map((
    wave,
  ) => {
    const waiting = result.recorded && wave.status === "waiting";
    return {
      event: "drift",
      name: spec.name,
      wave: wave.k,
      waveName: wave.name,
      gate: wave.gate,
      digest: wave.digest,
      job: { kind: "drift" },
      summary: summarize(
        spec.name,
        wave,
        at,
        outcomePhrase("drift", wave.drifted.length),
      ),
      targets: wave.drifted.map((run) => run.target),
      reason: waiting
        ? "its plans are recorded as a pending fact: approve them, then run the wave"
        : result.recorded
        ? `its gate is ${wave.status} for these plans: run the wave`
        : "information only: nothing was recorded or applied",
      ...(waiting && wave.approve ? { approve: wave.approve } : {}),
      ...(input.runUrl ? { runUrl: input.runUrl } : {}),
      timestamp: new Date(input.now).toISOString(),
    };
  });
}
