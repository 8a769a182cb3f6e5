/**
 * Picks the renderer for a forge (SPEC.md §6.2). Pure.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { Spec } from "../spec/types.ts";
import { renderForgejo } from "./render_forgejo.ts";
import { renderGithub } from "./render_github.ts";
import { renderGitlab } from "./render_gitlab.ts";
import type { Forge, RenderedFile } from "./rendered_file.ts";

/**
 * Renders the pipeline files of `forge` from the jobs of `spec`.
 * @param forge The forge.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, relative to the repository root.
 * @returns The files, paths relative to the repository root.
 * @throws {InputError} When the forge cannot express part of the spec.
 * @example
 * ```ts
 * renderPipeline("gitlab", spec, expandJobs(spec, "waves.jsonc"), "waves.jsonc");
 * ```
 */
export function renderPipeline(
  forge: Forge,
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
): RenderedFile[] {
  switch (forge) {
    case "github":
      return renderGithub(spec, jobs, specFile);
    case "gitlab":
      return renderGitlab(spec, jobs, specFile);
    case "forgejo":
      return renderForgejo(spec, jobs, specFile);
  }
}
