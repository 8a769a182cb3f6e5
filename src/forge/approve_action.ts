/**
 * The forge's own record of a click-path approval (SPEC.md §13.1), normalised
 * from untrusted forge JSON: a workflow run (GitHub `GET
 * /repos/{o}/{r}/actions/runs/{id}`; Forgejo `GET …/actions/runs?run_number=N`,
 * the number its web URL shows, answered as `ActionRun` since Forgejo replaced
 * the `RepoActionRun` its first release of the endpoint served) or a GitLab job
 * (`GET /projects/:id/jobs/:job_id`). (The id a record's `via` URL names is the gate's: `viaTarget`.)
 * Pure.
 * @module
 */

import type { JsonReader } from "../input/json_reader.ts";
import { answerReader, idOf, NAME, TEXT } from "./_answer_reader.ts";

/** Who the forge shows starting something. */
export interface ForgeActor {
  /** The login (GitLab: username). */
  login: string;
  /** Whether the forge marks it as a bot (GitHub `type: Bot`, a `[bot]` login, GitLab token bots). */
  bot: boolean;
}

/** A workflow run, as the click path needs it. */
export interface ApproveRun {
  /** The run's id. */
  id: string;
  /** Whether it finished, and whether it succeeded. */
  finished: boolean;
  succeeded: boolean;
  /** `workflow_dispatch`, `push`, … */
  event: string;
  /** The workflow's file name (`tf.approve.yml`). */
  workflow: string;
  /**
   * What the run asked for, as the forge shows it: its name, which the approve
   * workflow's `run-name` sets from the inputs (GitHub `display_title`); or why
   * the forge shows no such name (Forgejo titles every dispatch with its
   * workflow's `name:`).
   */
  asked: { title: string } | { hidden: string };
  /** Who started this attempt (`triggering_actor`). */
  triggeredBy?: ForgeActor;
  /** Who started the run first (GitHub `actor`). */
  actor?: ForgeActor;
  /**
   * The branch the run ran on (GitHub `head_branch`): a dispatch runs that
   * branch's copy of the workflow file.
   */
  branch?: string;
}

/** A GitLab job, as the click path needs it. */
export interface ApproveJob {
  /** Its id. */
  id: string;
  /** Its name (`wave-2-prod-approve`). */
  name: string;
  /** Whether it finished, and whether it succeeded. */
  finished: boolean;
  succeeded: boolean;
  /** Its pipeline's id. */
  pipelineId: string;
  /** Who played it. */
  user?: ForgeActor;
}

const GITLAB_BOT = /^(project|group)_\d+_bot(_[0-9a-f]+)?$/;

function actorOf(at: JsonReader): ForgeActor | undefined {
  return at.optional((r) => {
    const login = r.object().get("login").string(NAME);
    const type = r.get("type").optional((t) => t.string(NAME));
    return { login, bot: type === "Bot" || login.endsWith("[bot]") };
  });
}

/**
 * Reads a GitHub workflow run.
 * @param body The answer's JSON.
 * @returns The run.
 * @throws {ShapeError} When it is not of the documented shape.
 */
export function githubRun(body: unknown): ApproveRun {
  const run = answerReader(body).object();
  const status = run.get("status").string(NAME);
  const path = run.get("path").string(TEXT).replace(/@.*$/, "");
  const triggeredBy = actorOf(run.get("triggering_actor"));
  const actor = actorOf(run.get("actor"));
  const branch = run.get("head_branch").optional((r) => r.string(TEXT));
  return {
    id: idOf(run.get("id")),
    finished: status === "completed",
    succeeded: status === "completed" &&
      run.get("conclusion").optional((r) => r.string(NAME)) === "success",
    event: run.get("event").string(NAME),
    workflow: path.slice(path.lastIndexOf("/") + 1),
    asked: { title: run.get("display_title").string(TEXT) },
    ...(triggeredBy ? { triggeredBy } : {}),
    ...(actor ? { actor } : {}),
    ...(branch === undefined ? {} : { branch }),
  };
}

/** The Forgejo run statuses that are final. */
const FORGEJO_DONE = new Set(["success", "failure", "cancelled", "skipped"]);

/** Why a Forgejo run cannot show the wave and digest it asked for. */
export const FORGEJO_TITLE =
  "a Forgejo run is titled with its workflow's name, not with its run-name";

/**
 * Reads a Forgejo run: an `ActionRun` (its starter in `trigger_user`), or the
 * `RepoActionRun` of Forgejo 12 (`triggering_actor`). Neither shows the
 * run-name (the title is the workflow's `name:`), so what it asked for is
 * hidden; the runner's own user (`forgejo-actions`, `gitea-actions`) is a bot.
 * @param body One run's JSON.
 * @returns The run.
 * @throws {ShapeError} When it is not of either documented shape.
 */
export function forgejoRun(body: unknown): ApproveRun {
  const run = answerReader(body).object();
  const status = run.get("status").string(NAME);
  const actor = actorOf(
    run.get(
      run.get("trigger_user").value === undefined
        ? "triggering_actor"
        : "trigger_user",
    ),
  );
  return {
    id: idOf(run.get("id")),
    finished: FORGEJO_DONE.has(status),
    succeeded: status === "success",
    event: run.get("event").string(NAME),
    workflow: run.get("workflow_id").string(TEXT),
    asked: { hidden: FORGEJO_TITLE },
    ...(actor
      ? {
        triggeredBy: {
          login: actor.login,
          bot: actor.bot || /^(forgejo|gitea)-actions$/.test(actor.login),
        },
      }
      : {}),
  };
}

/** The GitLab job statuses that are final. */
const GITLAB_DONE = new Set(["success", "failed", "canceled", "skipped"]);

/**
 * Reads a GitLab job.
 * @param body The answer's JSON.
 * @returns The job.
 * @throws {ShapeError} When it is not of the documented shape.
 */
export function gitlabJob(body: unknown): ApproveJob {
  const job = answerReader(body).object();
  const status = job.get("status").string(NAME);
  const user = job.get("user");
  const login = user.optional((r) => r.object().get("username").string(NAME));
  return {
    id: idOf(job.get("id")),
    name: job.get("name").string(NAME),
    finished: GITLAB_DONE.has(status),
    succeeded: status === "success",
    pipelineId: idOf(job.get("pipeline").object().get("id")),
    ...(login
      ? {
        user: {
          login,
          bot: user.get("bot").value === true || GITLAB_BOT.test(login),
        },
      }
      : {}),
  };
}
