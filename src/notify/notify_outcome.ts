/**
 * Announces a job's outcome, and a drift run's findings (§19), by webhook
 * (SPEC.md §8): reads the URL and key from the variables `notify` names, derives
 * the events (`notifyEvents`, `driftEvents`) and delivers each
 * (`deliverEvent`), logging one line per event. The runner calls it once per
 * job, `drift` once per run; it never throws and never fails the job, and
 * neither the URL nor the key reaches the log.
 * @module
 */

import type { Clock } from "../clock.ts";
import { ciContext } from "../ci/ci_context.ts";
import { countOf } from "../count_of.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { Spec } from "../spec/types.ts";
import { deliverEvent, type Delivery, scrub } from "./deliver_event.ts";
import { driftEvents, type NotifyBody, notifyEvents } from "./notify_events.ts";
import type { DriftResult } from "../jobs/drift_result.ts";

/** What {@linkcode notifyOutcome} needs. */
export interface NotifyOutcomeInput extends NotifySettings {
  /** The job's result, as `runJob` returned it. */
  result: JobResult;
}

/** What {@linkcode notifyDrift} needs. */
export interface NotifyDriftInput extends NotifySettings {
  /** What `drift` found. */
  result: DriftResult;
}

/** Where and how events are sent. */
export interface NotifySettings {
  /** The spec; nothing is sent without `spec.notify`. */
  spec: Spec;
  /** The process environment: the webhook URL, the key and the CI run's URL. */
  env: Record<string, string | undefined>;
  /** The time of the events, the timeouts and the backoff. */
  clock: Clock;
  /** Receives one line per event (and per problem), without a newline. */
  log: (line: string) => void;
  /**
   * The Web `fetch` to use.
   * @default {globalThis.fetch}
   */
  fetch?: typeof fetch;
  /**
   * How long one attempt may take.
   * @default {10000}
   */
  timeoutMs?: number;
  /**
   * The wait before the second attempt (doubling after).
   * @default {1000}
   */
  backoffMs?: number;
}

/** One event and what happened to it. */
export interface NotifyReport {
  /** The body sent (or that could not be sent). */
  body: NotifyBody;
  delivery: Delivery;
}

/** Reads the URL and key; logs and returns `undefined` when they do not serve. */
function endpoint(
  input: NotifySettings,
): { url: string; key?: string } | undefined {
  const notify = input.spec.notify!;
  const url = input.env[notify.webhook];
  if (!url) {
    input.log(`notify: $${notify.webhook} is not set; sent no event`);
    return undefined;
  }
  let protocol = "";
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below, without the value
  }
  if (protocol !== "http:" && protocol !== "https:") {
    input.log(
      `notify: $${notify.webhook} is not an http(s) URL; sent no event`,
    );
    return undefined;
  }
  if (notify.key === undefined) return { url };
  const key = input.env[notify.key];
  if (!key) {
    input.log(
      `notify: $${notify.key} is not set; sent no event (with notify.key, ` +
        `events are only sent signed)`,
    );
    return undefined;
  }
  return { url, key };
}

/**
 * Sends the webhook events of a job's outcome, one POST per event, one after
 * another: `waiting` (whole-wave and deciding jobs), `applied`, `refused`,
 * `failed`. Each is retried up to 3 attempts in all on network errors and 5xx,
 * each attempt bounded by `timeoutMs`. Logs `notify: delivered "applied" (HTTP
 * 204)` or `notify: could not deliver "failed" after 3 attempts: HTTP 503`.
 * Never throws: a notify failure never fails the job.
 * @param input The spec, the result, the environment, the clock and the log.
 * @returns One report per event derived (none without `notify`, or when the
 * URL or key variable is not set). A dry run never calls it (`run_job.ts`).
 * @example
 * ```ts
 * await notifyOutcome({ spec, result, env: process.env, clock: realClock,
 *   log: (line) => io.stderr.write(line + "\n") });
 * ```
 */
export async function notifyOutcome(
  input: NotifyOutcomeInput,
): Promise<NotifyReport[]> {
  return await sendEvents(input, (runUrl, now) =>
    notifyEvents({
      spec: input.spec,
      result: input.result,
      ...(runUrl ? { runUrl } : {}),
      now,
    }));
}

/**
 * Sends the `drift` events of a drift run (SPEC.md §19), one per drifted wave,
 * as {@linkcode notifyOutcome} sends a job's: retried, logged, never thrown.
 * @param input The spec, the findings, the environment, the clock and the log.
 * @returns One report per event (none without `notify` or drift).
 */
export async function notifyDrift(
  input: NotifyDriftInput,
): Promise<NotifyReport[]> {
  return await sendEvents(input, (runUrl, now) =>
    driftEvents({
      spec: input.spec,
      result: input.result,
      ...(runUrl ? { runUrl } : {}),
      now,
    }));
}

/** Derives the bodies and delivers each, one after another. */
async function sendEvents(
  input: NotifySettings,
  bodiesOf: (runUrl: string | undefined, now: number) => NotifyBody[],
): Promise<NotifyReport[]> {
  if (input.spec.notify === undefined) return [];
  const reports: NotifyReport[] = [];
  let secrets: string[] = [];
  try {
    const target = endpoint(input);
    if (target === undefined) return [];
    secrets = [target.url, target.key ?? ""];
    const bodies = bodiesOf(ciContext(input.env).runUrl, input.clock.now());
    for (const body of bodies) {
      const delivery = await deliverEvent({
        ...target,
        body: JSON.stringify(body),
        clock: input.clock,
        ...(input.fetch ? { fetch: input.fetch } : {}),
        ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
        ...(input.backoffMs !== undefined
          ? { backoffMs: input.backoffMs }
          : {}),
      });
      reports.push({ body, delivery });
      input.log(logLine(body, delivery));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    input.log(`notify: sent no more events: ${scrub(message, secrets)}`);
  }
  return reports;
}

function logLine(body: NotifyBody, delivery: Delivery): string {
  const tries = countOf(delivery.attempts, "attempt");
  return delivery.delivered
    ? `notify: delivered "${body.event}" (HTTP ${delivery.status}, ${tries})`
    : `notify: could not deliver "${body.event}" after ${tries}: ${delivery.problem}`;
}
