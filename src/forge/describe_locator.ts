/**
 * Names the CI job a run locator points at, in a few words for log lines
 * (SPEC.md §13 `resume`). Pure formatting.
 * @module
 */

import type { RunLocator } from "../ci/run_locator.ts";

/**
 * Describes a locator: the forge, the run or job and the repository.
 * @param locator A validated locator.
 * @returns One short phrase.
 * @example
 * ```ts
 * describeLocator({ forge: "github", apiUrl: "https://api.github.com",
 *   repository: "o/r", runId: "7", attempt: 2 });
 * // "GitHub run 7 (attempt 2) of o/r"
 * ```
 */
export function describeLocator(locator: RunLocator): string {
  switch (locator.forge) {
    case "github":
      return `GitHub run ${locator.runId} (attempt ${locator.attempt}) of ${locator.repository}`;
    case "gitlab":
      return `GitLab job ${locator.jobId} "${locator.jobName}" of pipeline ${locator.pipelineId} (project ${locator.projectId})`;
    case "forgejo":
      return `Forgejo workflow ${locator.workflow} on ${locator.ref} of ${locator.repository}`;
  }
}
