/**
 * The GitLab pipelines a forge client reads (SPEC.md §13): every job of a
 * pipeline (for `resume`), and the plans file in the artifacts of the
 * `record-plans` jobs of a merge request's newest pipelines (for review
 * approvals). What the artifacts say is the merge request's own code's word:
 * it is returned as claims for the caller to weigh.
 * @module
 */

import { ForgeError } from "./forge_error.ts";
import { apiPath } from "./forge_env.ts";
import type { ForgeHttp } from "./forge_http.ts";
import { checkedSha, type HandoffQuery } from "./forge_client.ts";
import {
  MAX_PLANS_HANDOFF_BYTES,
  type PlanClaim,
  PLANS_JOB,
  plansFile,
  readPlansFile,
} from "./plans_handoff.ts";
import { idOf, NAME } from "./_answer_reader.ts";

/** How many of a merge request's newest pipelines are searched for plans. */
const HANDOFF_PIPELINES = 20;

/** A job of a pipeline. */
export interface Job {
  /** The job's id. */
  id: string;
  /** Its name in the pipeline (`record-plans`). */
  name: string;
  /** GitLab's status (`success`, `failed`, `running`, …). */
  status: string;
}

/**
 * Every job of a pipeline, retried ones included.
 * @param http The GitLab HTTP edge.
 * @param project The project's API path (`/projects/<id>`).
 * @param pipelineId The pipeline.
 * @returns The jobs; `undefined` when the pipeline is gone.
 * @throws {ForgeError} When GitLab cannot be asked or refuses.
 */
export async function pipelineJobs(
  http: ForgeHttp,
  project: string,
  pipelineId: string,
): Promise<Job[] | undefined> {
  let list;
  try {
    list = await http.list(
      project + apiPath`/pipelines/${pipelineId}/jobs`,
      { per_page: "100", include_retried: "true" },
    );
  } catch (error) {
    if (error instanceof ForgeError && error.status === 404) return undefined;
    throw error;
  }
  return http.decode(
    list.what,
    list.items,
    (items) =>
      items.list().map((job) => ({
        id: idOf(job.object().get("id")),
        name: job.get("name").string(NAME),
        status: job.get("status").string(NAME),
      })),
  );
}

/**
 * The claims of the plans files kept by the `record-plans` jobs that succeeded
 * in the merge request's newest pipelines (at most 20), for the query's head.
 * @param http The GitLab HTTP edge.
 * @param project The project's API path (`/projects/<id>`).
 * @param query The merge request, its head and the spec's name.
 * @returns The claims, newest pipeline first.
 * @throws {ForgeError} When GitLab cannot be asked or refuses.
 */
export async function handedPlans(
  http: ForgeHttp,
  project: string,
  query: HandoffQuery,
): Promise<PlanClaim[]> {
  checkedSha(query.head);
  const answer = await http.request(
    "GET",
    project + apiPath`/merge_requests/${query.pullRequest}/pipelines`,
    { query: { per_page: String(HANDOFF_PIPELINES) } },
  );
  const pipelines = http.decode(
    answer.what,
    answer.body,
    (body) =>
      body.list().slice(0, HANDOFF_PIPELINES).map((item) =>
        idOf(item.object().get("id"))
      ),
  );
  const claims: PlanClaim[] = [];
  for (const pipeline of pipelines) {
    const jobs = await pipelineJobs(http, project, pipeline) ?? [];
    for (const job of jobs) {
      if (job.name !== PLANS_JOB || job.status !== "success") continue;
      claims.push(...await artifactClaims(http, project, job.id, query));
    }
  }
  return claims;
}

/**
 * The claims of the plans file in one job's artifacts: none when the job kept
 * no such file or the file is of another head; a problem when it is too large
 * or not JSON.
 */
async function artifactClaims(
  http: ForgeHttp,
  project: string,
  job: string,
  query: HandoffQuery,
): Promise<PlanClaim[]> {
  const from = `job ${job}'s artifact`;
  const file = plansFile(query.name).split("/")
    .map((part) => encodeURIComponent(part)).join("/");
  let answer;
  try {
    answer = await http.request(
      "GET",
      project + apiPath`/jobs/${job}/artifacts/` + file,
      { allow: [404], maxBytes: MAX_PLANS_HANDOFF_BYTES },
    );
  } catch (error) {
    if (
      error instanceof ForgeError &&
      (error.kind === "too-large" || error.kind === "bad-answer")
    ) {
      return [{ from, problem: `it is not a plans file: ${error.kind}` }];
    }
    throw error;
  }
  if (answer.status === 404) return [];
  const read = readPlansFile(answer.body, query.name, from);
  return read.head === undefined || read.head === query.head ? read.claims : [];
}
