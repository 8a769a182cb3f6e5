/**
 * `resume` below the command line (SPEC.md §13, §19): for each gate, reads it
 * from the ledger, decides with `decideResume` whether its waiting CI job
 * should go on (or with `decideTimedResume`, whether the time its job waits
 * for has come), and restarts that job through the forge's client, one status
 * per gate.
 * Resuming approves nothing: the restarted job decides its gate again itself.
 * @module
 */

import type { Clock } from "../clock.ts";
import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import {
  type ClientFromEnv,
  forgeClientFromEnv,
} from "../forge/create_forge_client.ts";
import { describeLocator } from "../forge/run_locator_from_env.ts";
import { forgeRepository, TOKEN_VARIABLES } from "../forge/forge_env.ts";
import { ForgeError } from "../forge/forge_error.ts";
import type { HttpDeps } from "../forge/forge_http.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import { newestPending } from "../gate/decide_gate.ts";
import type { GateRules } from "../gate/gate_tally.ts";
import type { GateRef } from "../ledger/ledger_store.ts";
import type { Ledger } from "../ledger/ledger.ts";
import type {
  LedgerRecord,
  PendingRecord,
  WaitReason,
} from "../gate/records.ts";
import { loadPlanSets } from "../ledger/read_gate.ts";
import { decideResume, type ResumeStep } from "./decide_resume.ts";
import { decideTimedResume, type TimedStep } from "./timed_resume.ts";

/** The statuses of SPEC.md §13, and `would-resume` for dry runs. */
export const RESUME_STATUSES = [
  "resumed",
  "would-resume",
  "skipped",
  "not-approved",
  "not-yet",
  "no-job",
  "no-token",
  "failed",
] as const;

/** One of {@linkcode RESUME_STATUSES}. */
export type ResumeStatus = typeof RESUME_STATUSES[number];

/** What became of one gate. */
export interface GateResume {
  /** The spec's `name`. */
  name: string;
  /** The gate. */
  gate: string;
  /** What happened. */
  status: ResumeStatus;
  /** The digest the gate waits on (absent for a wait until a time). */
  planDigest?: string;
  /** A wait until a time: what for (`soak`, `freeze`) and until when (ISO 8601). */
  waits?: { for: WaitReason; until: string };
  /** Who approved it, when an approval covers it. */
  approvedBy?: string;
  /** The CI job, in words, when the pending fact names one. */
  job?: string;
  /** What was restarted, or why nothing was. */
  detail: string;
}

/** The outcome of a resume. */
export interface ResumeResult {
  /** Gates whose job was restarted (or would be, in a dry run). */
  resumed: number;
  /** Gates still waiting for an approval. */
  waiting: number;
  /** Gates whose job waits until a time still to come (a soak, a freeze). */
  later: number;
  /** Every gate with a standing pending fact, in the order given. */
  gates: GateResume[];
}

/** The edges `resumeGates` works through. */
export interface ResumeIo {
  /** Where the gates are read. */
  ledger: Ledger;
  /** The process environment: forge API URLs, the repository and the token. */
  env: Record<string, string | undefined>;
  /** The time (pending facts expire). */
  clock: Pick<Clock, "now">;
  /** The human log. */
  stderr: Writer;
  /** Fetch and limits of the forge clients (tests). */
  http?: HttpDeps;
  /**
   * Judges a gate's approvals under the rules at the base its pending fact
   * records (SPEC.md §12, §12.1), when they can be read; else any one approval
   * counts.
   */
  rulesOf?(
    pending: PendingRecord,
    records: readonly LedgerRecord[],
  ): Promise<GateRules | undefined>;
}

/**
 * Resumes gates: each gate whose standing pending fact now has a counting
 * approval gets its CI job restarted (GitHub: the run's failed jobs re-run;
 * GitLab: the job retried; Forgejo: the workflow dispatched on its ref), unless
 * the forge says it is unfinished or was re-run since; so does each gate
 * whose job waits until a time that has come (its soak, a freeze window's
 * end: `timed_resume.ts`), when no approval restarts it. Logs one line per
 * gate with a standing pending fact or wait, `<gate> of <name>: <status>:
 * <detail>`, then `N resumed, M still waiting for an approval` (and `, K
 * waiting for a time to come` when some do). Other gates are left out. With
 * `dryRun`, nothing is restarted and the forge is not asked (a missing token
 * is still reported).
 * @param gates The gates, in order.
 * @param options Whether to restart nothing.
 * @param io The ledger, environment, clock and log.
 * @returns Every gate's status and the counts.
 * @throws {InputError} When a token variable or a forge API URL is malformed.
 */
export async function resumeGates(
  gates: readonly GateRef[],
  options: { dryRun: boolean },
  io: ResumeIo,
): Promise<ResumeResult> {
  const log = lineLog(io.stderr);
  const clients = new Map<string, ClientFromEnv>();
  const result: ResumeResult = {
    resumed: 0,
    waiting: 0,
    later: 0,
    gates: [],
  };
  for (const { name, gate } of gates) {
    const { step, records } = await gateStep(name, gate, io);
    const timed = step === undefined || step.status === "not-approved"
      ? decideTimedResume(records, io.clock.now())
      : undefined;
    const done = timed
      ? await timedResume(name, gate, timed, options.dryRun, clients, io)
      : step && await approvedResume(name, gate, step, options, clients, io);
    if (done === undefined) continue;
    if (done.status === "resumed" || done.status === "would-resume") {
      result.resumed++;
    }
    if (done.status === "not-approved") result.waiting++;
    if (done.status === "not-yet") result.later++;
    result.gates.push(done);
    log(`${gate} of ${name}: ${done.status}: ${done.detail}`);
  }
  log(
    `${result.resumed} ${
      options.dryRun ? "would be resumed (dry run)" : "resumed"
    }, ${result.waiting} still waiting for an approval${
      result.later > 0 ? `, ${result.later} waiting for a time to come` : ""
    }`,
  );
  return result;
}

/** What became of a gate whose pending fact stands. */
async function approvedResume(
  name: string,
  gate: string,
  step: ResumeStep,
  options: { dryRun: boolean },
  clients: Map<string, ClientFromEnv>,
  io: ResumeIo,
): Promise<GateResume> {
  const outcome = step.status === "restart"
    ? await restart(step.locator, options.dryRun, clients, io)
    : { status: step.status, detail: step.reason };
  return {
    name,
    gate,
    status: outcome.status,
    planDigest: step.pending.planDigest,
    ...(step.status === "not-approved" ? {} : { approvedBy: step.approval.by }),
    ...(step.pending.locator
      ? { job: describeLocator(step.pending.locator) }
      : {}),
    detail: outcome.detail,
  };
}

/** What became of a gate whose job waits until a time. */
async function timedResume(
  name: string,
  gate: string,
  step: TimedStep,
  dryRun: boolean,
  clients: Map<string, ClientFromEnv>,
  io: ResumeIo,
): Promise<GateResume> {
  const { waiting } = step;
  const outcome = step.status === "restart"
    ? await restart(step.locator, dryRun, clients, io)
    : { status: step.status, detail: step.reason };
  return {
    name,
    gate,
    status: outcome.status,
    waits: { for: waiting.why, until: waiting.until },
    ...(waiting.locator ? { job: describeLocator(waiting.locator) } : {}),
    detail: outcome.detail,
  };
}

/** Reads one gate and decides what to do about its pending fact. */
async function gateStep(
  name: string,
  gate: string,
  io: ResumeIo,
): Promise<{ step?: ResumeStep; records: readonly LedgerRecord[] }> {
  const { records, problems } = await io.ledger.readGate(name, gate);
  for (const problem of problems) {
    lineLog(io.stderr)(`warning: ledger: ${problem}`);
  }
  const now = io.clock.now();
  const sets = await loadPlanSets(io.ledger, name, gate, records);
  const standing = newestPending(records, now);
  const pendingSet = standing
    ? await io.ledger.readPlanSet(name, gate, standing.planDigest)
    : undefined;
  const rules = standing && await io.rulesOf?.(standing, records);
  const step = decideResume({
    gate,
    records,
    sets,
    ...(pendingSet ? { pendingSet } : {}),
    now,
    ...(rules ? { rules } : {}),
  });
  return { records, ...(step ? { step } : {}) };
}

/** Restarts the job a locator names, or says why not. */
async function restart(
  locator: RunLocator,
  dryRun: boolean,
  clients: Map<string, ClientFromEnv>,
  io: ResumeIo,
): Promise<{ status: ResumeStatus; detail: string }> {
  const made = clientFor(locator, clients, io);
  if (!made.ok) return missing(made, locator);
  const job = describeLocator(locator);
  if (dryRun) return { status: "would-resume", detail: `would restart ${job}` };
  try {
    const restarted = await made.client.restartJob(locator);
    return restarted.status === "resumed"
      ? { status: "resumed", detail: restarted.detail }
      : { status: restarted.status, detail: restarted.reason };
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return { status: "failed", detail: `${job}: ${error.message}` };
  }
}

/**
 * The client for a locator's forge, made once per forge and repository: the API
 * URL and token come from the environment only (a locator read from the ledger
 * never decides where the token goes); the repository is the environment's, else
 * the locator's.
 */
function clientFor(
  locator: RunLocator,
  clients: Map<string, ClientFromEnv>,
  io: ResumeIo,
): ClientFromEnv {
  const repository = forgeRepository(locator.forge, io.env) ??
    (locator.forge === "gitlab" ? locator.projectId : locator.repository);
  const key = `${locator.forge}\n${repository}`;
  let made = clients.get(key);
  if (made === undefined) {
    made = forgeClientFromEnv(io.env, {
      forge: locator.forge,
      repository,
      ...(io.http ? { deps: io.http } : {}),
    });
    clients.set(key, made);
  }
  return made;
}

const API_VARIABLES = {
  github: "GITHUB_API_URL",
  gitlab: "CI_API_V4_URL (https://gitlab.example.com/api/v4)",
  forgejo: "GITHUB_API_URL or GITHUB_SERVER_URL",
} as const;

/** The status of a client that could not be made. */
function missing(
  made: Extract<ClientFromEnv, { ok: false }>,
  locator: RunLocator,
): { status: ResumeStatus; detail: string } {
  const forge = locator.forge;
  if (made.missing === "token") {
    return {
      status: "no-token",
      detail: `no ${forge} token: set ${
        TOKEN_VARIABLES[forge].join(" or ")
      } (see "chant-wave help resume")`,
    };
  }
  return {
    status: "failed",
    detail: `cannot reach the ${forge} API: set ${API_VARIABLES[forge]}`,
  };
}
