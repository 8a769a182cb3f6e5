/**
 * The Forgejo Actions renderer (SPEC.md §6.2): `.forgejo/workflows/<name>.yml`,
 * as GitHub's but with Forgejo's artifact actions, no runner groups and no
 * deployment environments. Pure.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { Spec } from "../spec/types.ts";
import { FORGEJO } from "./_actions_flavour.ts";
import { renderActions } from "./_actions_workflow.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * Renders the Forgejo Actions workflow. Environments are dropped, with a header
 * comment saying the chant-wave gate stands in for them; the default runner label
 * is `docker`; artifacts go through Forgejo's forks `forgejo/upload-artifact@v4`
 * and `forgejo/download-artifact@v4`.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, relative to the repository root.
 * @returns `.forgejo/workflows/<name>.yml`, and beside it `<name>.resume.yml` (with
 *   `resume.schedule`) and `<name>.plans.yml` (when a wave can be approved by
 *   review) (SPEC.md §13).
 * @throws {InputError} For a runner group (Forgejo has none) or a spec path holding `${{`.
 * @example
 * ```ts
 * const [file] = renderForgejo(spec, expandJobs(spec, "waves.jsonc"), "waves.jsonc");
 * file.path; // ".forgejo/workflows/demo.yml"
 * ```
 */
export function renderForgejo(
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
): RenderedFile[] {
  return renderActions(spec, jobs, specFile, FORGEJO);
}
