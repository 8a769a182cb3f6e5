/**
 * The forge edge of the click path (SPEC.md §13.1): reads, with the job's forge
 * token, the approve workflow's run (GitHub, Forgejo) or the manual approve job
 * (GitLab) a record names, and whose the token itself is, so a confirmation can
 * refuse what the pipeline's own token did. Answers are normalised by
 * `approve_action.ts`.
 * @module
 */

import {
  type ApproveJob,
  type ApproveRun,
  forgejoRun,
  githubRun,
  gitlabJob,
} from "./approve_action.ts";
import { ownerAndName } from "./forge_client.ts";
import {
  apiPath,
  forgeApiUrl,
  forgeRepository,
  forgeToken,
} from "./forge_env.ts";
import { forgeHttp, type HttpDeps } from "./forge_http.ts";
import type { Forge } from "../ci/forges.ts";
import type { JsonReader } from "../input/json_reader.ts";
import { NAME } from "./_answer_reader.ts";

/** What the click path asks one forge. */
export interface ClickForge {
  /** Which forge. */
  forge: Forge;
  /**
   * The run a `via` URL names (GitHub: by id; Forgejo: by run number).
   * @param id The id or number.
   * @returns The run, or `undefined` when the forge knows none.
   * @throws {ForgeError} When the forge cannot be asked.
   */
  run(id: string): Promise<ApproveRun | undefined>;
  /**
   * The GitLab job a `via` URL names.
   * @param id The job's id.
   * @returns The job, or `undefined` when the project has none of that id.
   * @throws {ForgeError} When the forge cannot be asked.
   */
  job(id: string): Promise<ApproveJob | undefined>;
  /**
   * Whose the token is (`GET /user`).
   * @returns The login; `undefined` when the forge does not say (GitHub's workflow token).
   * @throws {ForgeError} When the forge cannot be asked.
   */
  tokenUser(): Promise<string | undefined>;
}

const AUTH: Record<Forge, (token: string) => readonly [string, string]> = {
  github: (token) => ["authorization", `Bearer ${token}`],
  gitlab: (token) => ["private-token", token],
  forgejo: (token) => ["authorization", `token ${token}`],
};

/**
 * Makes the click forge of the CI job from its environment.
 * @param forge The forge the job runs on.
 * @param env The environment (API URL, token, repository).
 * @param deps HTTP deps (tests).
 * @returns The forge, or why it cannot be asked.
 * @throws {InputError} When a token, API URL or repository is malformed.
 */
export function clickForge(
  forge: Forge,
  env: Record<string, string | undefined>,
  deps: HttpDeps = {},
): ClickForge | { missing: string } {
  const token = forgeToken(forge, env);
  const apiUrl = forgeApiUrl(forge, env);
  const repository = forgeRepository(forge, env);
  if (!token || !apiUrl || !repository) {
    return { missing: !token ? "token" : !apiUrl ? "API URL" : "repository" };
  }
  const http = forgeHttp({
    apiUrl,
    auth: AUTH[forge](token.token),
    token: token.token,
    ...(forge === "github"
      ? {
        headers: {
          accept: "application/vnd.github+json",
          "x-github-api-version": "2022-11-28",
        },
      }
      : {}),
  }, deps);
  const repo = forge === "gitlab"
    ? apiPath`/projects/${repository}`
    : apiPath`/repos/${ownerAndName(repository)[0]}/${
      ownerAndName(repository)[1]
    }`;
  const get = async <T>(
    path: string,
    decode: (body: JsonReader) => T,
    query: Record<string, string> = {},
  ) => {
    const answer = await http.request("GET", path, { allow: [404], query });
    if (answer.status === 404) return undefined;
    return http.decode(answer.what, answer.body, decode);
  };
  return {
    forge,
    run: (id) =>
      forge === "github"
        ? get(repo + apiPath`/actions/runs/${id}`, (r) => githubRun(r.value))
        : get(`${repo}/actions/runs`, (body) => {
          const runs = body.object().get("workflow_runs").list();
          return runs.length === 0 ? undefined : forgejoRun(runs[0].value);
        }, { run_number: id }),
    job: (id) => get(repo + apiPath`/jobs/${id}`, (r) => gitlabJob(r.value)),
    async tokenUser() {
      const answer = await http.request("GET", "/user", {
        allow: [401, 403, 404],
      });
      if (answer.status !== 200) return undefined;
      return http.decode(
        answer.what,
        answer.body,
        (body) =>
          body.object().get(forge === "gitlab" ? "username" : "login")
            .optional((r) => r.string(NAME)),
      );
    },
  };
}
