/**
 * The GitHub Actions renderer (SPEC.md §6.2): `.github/workflows/<name>.yml` from
 * the §6.1 jobs. Pure; writing the file is the `pipeline` command's job.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { Spec } from "../spec/types.ts";
import { GITHUB } from "./_actions_flavour.ts";
import { renderActions } from "./_actions_workflow.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * Renders the GitHub Actions workflow: push to `branches` and manual dispatch,
 * `concurrency` never cancelled, `fetch-depth: 0`, the decision handed to share
 * and group jobs as the artifact `<name>-wave-<k>-decision` (uploaded even when
 * the deciding job waits), `runs-on`, environments, `id-token: write` with each
 * audience as `<NAME>_AUDIENCE`, and `contents: write` to push the ledger.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, relative to the repository root.
 * @returns `.github/workflows/<name>.yml`, and beside it `<name>.resume.yml` (with
 *   `resume.schedule`) and `<name>.plans.yml` (when a wave can be approved by
 *   review) (SPEC.md §13).
 * @throws {InputError} When the spec path holds `${{`.
 * @example
 * ```ts
 * const [file] = renderGithub(spec, expandJobs(spec, "waves.jsonc"), "waves.jsonc");
 * file.path; // ".github/workflows/demo.yml"
 * ```
 */
export function renderGithub(
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
): RenderedFile[] {
  return renderActions(spec, jobs, specFile, GITHUB);
}
