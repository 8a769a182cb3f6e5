/**
 * `run --pull-request` below the command line (SPEC.md §18), the plan job of a
 * pull or merge request: plans every wave at the request's head (one pass,
 * shared with `--record-plans` when both are asked for), states the gate each
 * wave will meet as read at base (`gateOutlook`, through the same base
 * reading as every job, §4.4: the request's own spec never decides it), and
 * says it in three places: the job summary, one comment on the request kept
 * up to date, and a commit status per wave. It never applies and never
 * writes the ledger; nothing it posts approves anything (§4.12). A request
 * from a fork, or a job with no token, gets the job summary only and one line
 * saying why.
 * @module
 */

import { appendFile } from "node:fs/promises";
import { readBase } from "../base/read_base.ts";
import { lineLog } from "../console/line_log.ts";
import { maskCredentials } from "../console/visible.ts";
import { ciContext } from "../ci/ci_context.ts";
import { type RequestContext, requestContext } from "../ci/request_context.ts";
import { mergeBase } from "../git/git_plumbing.ts";
import { OK, RUN_FAILED } from "../exit_codes.ts";
import { forgeClientFromEnv } from "../forge/create_forge_client.ts";
import { TOKEN_VARIABLES } from "../forge/forge_env.ts";
import { ForgeError } from "../forge/forge_error.ts";
import { planStatusContext } from "../forge/plan_comment.ts";
import { readBounded } from "../fs/read_bounded.ts";
import type { ParseSpecFn } from "../gate/base_spec.ts";
import { gateOutlook } from "../gate/gate_outlook.ts";
import {
  commentMarker,
  requestComment,
  type RequestWave,
  statusDescription,
} from "../summary/request_comment.ts";
import {
  planEveryWave,
  type PlannedWave,
  recordPlans,
  type RecordPlansInput,
  type RecordPlansResult,
  requestHead,
} from "./record_plans.ts";
import type { RunIo } from "./run_io.ts";

/** What the plan job is asked to do. */
export interface PlanRequestInput extends RecordPlansInput {
  /** The spec file as the user named it (read at base in git). */
  specFile: string;
  /** `--base`, when given. */
  baseFlag?: string;
  /** The spec parser, for the spec at base. */
  parseSpec: ParseSpecFn;
  /** Also record the plans for review approvals (`--record-plans`). */
  record: boolean;
}

/** What the plan job did. */
export interface PlanRequestResult {
  /** 0 said; 1 a run failed to plan, or the forge refused other than a fork's token. */
  exitCode: number;
  /** The spec's `name`. */
  name: string;
  /** The head planned. */
  head: string;
  /** Each wave: its number, name and what its status says. */
  waves: { wave: number; name: string; status: string }[];
  /** Where the plan went (`created the plan comment …`), or why only the summary. */
  said: string;
  /** The comment's text (the CLI prints it outside a request's job). */
  comment: string;
  /** Whether the job runs for a request (else nothing was posted). */
  request: boolean;
  /** What `--record-plans` did, when asked. */
  recorded?: RecordPlansResult;
}

/** The largest event payload read. */
const MAX_EVENT_BYTES = 1024 * 1024;

/**
 * Plans every wave at the request's head and says what each would meet.
 * @param input The spec, settings and base reading.
 * @param io The edges (the ledger is never written).
 * @returns What was said where, and the comment's text.
 * @throws {InputError} When HEAD is not a commit or the base cannot be read.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function planRequest(
  input: PlanRequestInput,
  io: RunIo,
): Promise<PlanRequestResult> {
  const { spec } = input;
  const log = lineLog(io.stderr);
  const { head, checkedOut } = await requestHead(io);
  log(
    `chant-wave: planning every wave of ${spec.name} at ${head.slice(0, 12)}`,
  );
  const request = requestContext(io.env, await readEvent(io.env));
  const found = input.baseFlag === undefined
    ? await requestBase(request, checkedOut, io)
    : undefined;
  const flag = input.baseFlag ?? found?.leaves;
  const read = (at: string | undefined) =>
    readBase({
      git: io.git,
      cwd: io.cwd,
      specPath: input.specFile,
      ...(at === undefined ? {} : { flag: at }),
      env: io.env,
      parse: input.parseSpec,
    });
  const base = await read(flag);
  // The target may have moved on since the request left it: its tip is read
  // too, and the strictest wins, as the merged commit's job will meet both.
  const tip = found?.tip !== undefined && found.tip !== found.leaves
    ? await read(found.tip)
    : undefined;
  const bases = [...base.bases, ...(tip?.bases ?? [])];
  log(
    found !== undefined
      ? `base: ${
        found.leaves.slice(0, 12)
      }, where the request leaves its target${
        tip ? `, and ${found.tip.slice(0, 12)}, the target's tip` : ""
      }`
      : `base: ${base.reason}`,
  );
  const planned = await planEveryWave(input, io, {
    stopAtFailure: false,
  });
  const waves = planned.map((wave) => requestWave(wave, bases));
  const result: PlanRequestResult = {
    exitCode: waves.some((w) => w.failed.length > 0) ? RUN_FAILED : OK,
    name: spec.name,
    head,
    waves: waves.map((w) => ({
      wave: w.k,
      name: w.name,
      status: statusDescription(w),
    })),
    said: "",
    comment: "",
    request: false,
  };
  for (const wave of result.waves) {
    log(`wave ${wave.wave} "${wave.name}": ${wave.status}`);
  }
  const text = requestComment({ name: spec.name, head, waves });
  await writeSummary(text, io);
  const said = await sayOnForge(text, waves, input, { head, request }, io);
  if (said.failed) result.exitCode = RUN_FAILED;
  Object.assign(result, {
    said: said.line,
    comment: text,
    request: said.request,
  });
  log(said.line);
  if (input.record) {
    const recorded = await recordPlans(input, io, planned);
    result.recorded = recorded;
    if (recorded.exitCode !== OK) result.exitCode = recorded.exitCode;
  }
  return result;
}

/** A planned wave as the comment shows it, with the gate it will meet. */
function requestWave(
  { wave, planned, failed }: PlannedWave,
  bases: Parameters<typeof gateOutlook>[0],
): RequestWave {
  const runs = planned.map(({ target, plan }) => ({
    target,
    planDigest: plan.planDigest,
    destructive: plan.destructive,
    empty: plan.empty,
    ...(plan.summary === undefined ? {} : { summary: plan.summary }),
    ...(plan.changes === undefined ? {} : { changes: plan.changes }),
  }));
  return {
    k: wave.k,
    name: wave.name,
    ...(failed.length > 0 ? {} : { gate: gateOutlook(bases, wave, runs) }),
    runs,
    failed: failed.map((run) => run.target),
  };
}

/** Appends the comment to the GitHub or Forgejo job summary, when there is one. */
async function writeSummary(text: string, io: RunIo): Promise<void> {
  const file = ciContext(io.env).forge === "gitlab"
    ? undefined
    : io.env.GITHUB_STEP_SUMMARY;
  if (file) await appendFile(file, maskCredentials(text) + "\n");
}

/**
 * The bases of a request's job: where its head leaves the target the forge
 * names (their merge base), and the target commit itself, when this checkout
 * holds both and the merge base is not the head itself; else none, and the
 * base rule of every job decides (§4.4). The request's own commits never
 * decide it: both are on the target.
 */
async function requestBase(
  request: RequestContext,
  checkedOut: string,
  io: RunIo,
): Promise<{ leaves: string; tip: string } | undefined> {
  if (request.kind === "none" || request.target === undefined) return;
  const tip = await io.git.resolveCommit(request.target, io.cwd);
  if (tip === undefined) return;
  const leaves = await mergeBase(io.git, io.cwd, request.target, checkedOut);
  return leaves === undefined || leaves === checkedOut
    ? undefined
    : { leaves, tip };
}

/** Reads the event payload of a GitHub or Forgejo job, if any. */
async function readEvent(
  env: Record<string, string | undefined>,
): Promise<unknown> {
  const path = env.GITHUB_EVENT_PATH;
  if (!path || env.GITLAB_CI) return undefined;
  try {
    return JSON.parse(
      await readBounded(path, { maxBytes: MAX_EVENT_BYTES, followLinks: true }),
    );
  } catch {
    return undefined;
  }
}

/**
 * Keeps the comment and posts the statuses; one line saying what was done,
 * or why the plan is in the job summary only.
 */
async function sayOnForge(
  text: string,
  waves: RequestWave[],
  input: PlanRequestInput,
  { head, request }: { head: string; request: RequestContext },
  io: RunIo,
): Promise<{ line: string; request: boolean; failed?: boolean }> {
  const { forge, runUrl } = ciContext(io.env);
  if (request.kind === "none") {
    return {
      line: `not a request's job (${request.why}): the plan is printed only`,
      request: false,
    };
  }
  const only = "the plan is in the job summary only";
  if (request.kind === "fork") {
    return {
      line:
        `request ${request.number} comes from a fork, whose token cannot write here: ${only}`,
      request: true,
    };
  }
  const made = forgeClientFromEnv(io.env);
  if (!made.ok) {
    return {
      line: made.missing === "token"
        ? `no forge token (set ${
          TOKEN_VARIABLES[forge!].join(" or ")
        }): ${only}`
        : `no ${made.missing} in the environment: ${only}`,
      request: true,
    };
  }
  const client = made.client;
  try {
    const kept = await client.keepPlanComment(
      request.number,
      commentMarker(input.spec.name),
      text,
    );
    for (const wave of waves) {
      await client.postWaveStatus(head, {
        context: planStatusContext(input.spec.name, wave.name),
        state: wave.failed.length > 0 ? "failure" : "success",
        description: statusDescription(wave),
        ...(runUrl ? { targetUrl: runUrl } : {}),
      });
    }
    return {
      line:
        `${kept.action} the plan comment ${kept.id} on request ${request.number}, and ${
          waves.length === 1 ? "1 status" : `${waves.length} statuses`
        } of ${head.slice(0, 12)}`,
      request: true,
    };
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    if (error.status === 403) {
      return {
        line:
          `the forge refused the token (HTTP 403; a request from a fork gets a read-only token): ${only}`,
        request: true,
      };
    }
    return {
      line: `error: cannot say the plan on ${forge}: ${error.message}`,
      request: true,
      failed: true,
    };
  }
}
