/**
 * The GitHub and Forgejo workflow of the scheduled drift job (SPEC.md §19),
 * `<name>.drift.yml` beside the rollout's, so it never shares the rollout's
 * `concurrency` group: on the schedule and by hand, it checks out the default
 * branch with full history and runs `chant-wave drift`. It reads the ledger
 * (`contents: read`) unless it records drifted plans (`drift.record`), which it
 * pushes (`contents: write`). A run that finds drift exits 5: a failed run the
 * forge reports. Pure.
 * @module
 */

import type { ActionsFlavour } from "./_actions_flavour.ts";
import { setupSteps } from "./_actions_job.ts";
import { actionsJobBase, workflowEnv } from "./_actions_forge_jobs.ts";
import { commandLine, headerLines, installLine } from "./_common.ts";
import { driftJob } from "./_drift_job.ts";
import { toYaml } from "./_yaml.ts";
import type { Spec } from "../spec/types.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * The drift workflow, when the spec asks for one.
 * @param spec The spec.
 * @param specFile The spec's path as the jobs name it.
 * @param flavour The forge.
 * @param problems Where to add what the forge cannot express.
 * @returns The file, or none without `drift`.
 */
export function actionsDriftWorkflow(
  spec: Spec,
  specFile: string,
  flavour: ActionsFlavour,
  problems: string[],
): RenderedFile[] {
  const job = driftJob(spec, specFile);
  if (job === undefined) return [];
  const notes = [
    `On the schedule "${job.schedule}" (UTC), and by hand: plans every wave of ${spec.name}`,
    "again at the default branch's tip and fails (exit 5) when a run drifted (chant-wave drift).",
    job.record
      ? "It records each drifted wave's plans in the ledger as a pending fact: approve them, then run the wave."
      : "It reports only: chant-wave drift --record records the drifted plans for an approval.",
  ];
  const workflow = {
    name: `chant-wave ${spec.name} drift`,
    on: { schedule: [{ cron: job.schedule }], workflow_dispatch: {} },
    permissions: { contents: job.record ? "write" : "read" },
    ...workflowEnv(spec),
    jobs: {
      drift: {
        ...actionsJobBase(spec, flavour, problems),
        steps: [
          {
            name: "Check out with full history",
            uses: flavour.checkout,
            with: { "fetch-depth": 0 },
          },
          ...setupSteps(spec),
          {
            name: "chant-wave drift",
            run: `${installLine(spec, specFile)}\n${commandLine(job, spec)}`,
          },
        ],
      },
    },
  };
  return [{
    path: flavour.path(`${spec.name}.drift`),
    text: toYaml(workflow, headerLines(flavour.forge, specFile, notes), {
      plainTopKeys: ["on"],
      spacedMap: ["jobs"],
    }),
  }];
}
