/**
 * The GitHub and Forgejo approve workflow (SPEC.md §13.1): dispatched by hand
 * from the forge's Actions page with the wave and the plan digest the waiting
 * job's summary shows, its `run-name` naming both (so the forge's API shows who
 * asked for what), it records the approval by the forge login that dispatched
 * it, via the run's URL, and resumes the job that waited. The inputs reach the
 * shell only through the environment, never through `${{ }}` in a script.
 * Pure.
 * @module
 */

import {
  approveRunName,
  approveWorkflowFile,
  gatedWaves,
} from "../jobs/approve_job.ts";
import type { Spec } from "../spec/types.ts";
import type { ActionsFlavour } from "./_actions_flavour.ts";
import { runsOnValue, setupSteps } from "./_actions_job.ts";
import { commandLine, headerLines, installLine } from "./_common.ts";
import { toYaml } from "./_yaml.ts";
import type { RenderedFile } from "./rendered_file.ts";

/** The token the approve job resumes with, per forge. */
const TOKEN = {
  github: { GITHUB_TOKEN: "${{ github.token }}" },
  forgejo: { CHANT_WAVE_FORGE_TOKEN: "${{ secrets.CHANT_WAVE_FORGE_TOKEN }}" },
} as const;

/**
 * The run's web URL: GitHub names a run by its id, Forgejo by its number.
 */
const RUN_URL = {
  github:
    "${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}",
  forgejo:
    "${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_number }}",
} as const;

/**
 * The approve workflow of a spec with gated waves.
 * @param spec The spec.
 * @param specFile The spec's path as the jobs name it.
 * @param flavour The forge.
 * @param problems Where to add what the forge cannot express.
 * @returns `<name>.approve.yml`, or nothing when no wave is gated.
 */
export function approveWorkflow(
  spec: Spec,
  specFile: string,
  flavour: ActionsFlavour,
  problems: string[],
): RenderedFile[] {
  const waves = gatedWaves(spec);
  if (waves.length === 0) return [];
  const notes = [
    "Approve a waiting wave from the forge: run this workflow with the wave and the",
    "plan digest its waiting job's summary shows. It records the approval by the",
    "login that ran it, via this run, and resumes the job that waited. A forge gate",
    "counts it once the forge confirms the run (started by that login, for exactly",
    "that wave and digest).",
    ...flavour.forge === "forgejo"
      ? [
        "Store a token with the write:repository scope as the secret CHANT_WAVE_FORGE_TOKEN.",
      ]
      : [],
  ];
  const approve = `${
    commandLine({
      command: ["chant-wave", "approve", "--spec", specFile, "--resume"],
    }, spec)
  } --wave "$WAVE" --plan "$DIGEST" --by "$GITHUB_ACTOR" --via "$VIA"`;
  const variables = spec.pipeline?.variables ?? {};
  const workflow = {
    name: `chant-wave ${spec.name} approve`,
    "run-name": approveRunName(
      spec.name,
      "${{ inputs.wave }}",
      "${{ inputs.digest }}",
    ),
    on: {
      workflow_dispatch: {
        inputs: {
          wave: {
            description: "The wave that waits (its number)",
            required: true,
            type: "choice",
            options: waves.map((wave) => String(wave.k)),
          },
          digest: {
            description:
              "The plan digest the waiting job's summary shows (sha256:…)",
            required: true,
            type: "string",
          },
        },
      },
    },
    permissions: { actions: "write", contents: "write" },
    ...(Object.keys(variables).length > 0 ? { env: { ...variables } } : {}),
    jobs: {
      approve: {
        "runs-on": runsOnValue(spec.runner, "the spec", flavour, problems),
        ...(spec.pipeline?.image === undefined
          ? {}
          : { container: { image: spec.pipeline.image } }),
        env: { ...TOKEN[flavour.forge] },
        steps: [
          {
            name: "Check out with full history",
            uses: flavour.checkout,
            with: { "fetch-depth": 0 },
          },
          ...setupSteps(spec),
          {
            name: "chant-wave approve",
            env: {
              WAVE: "${{ inputs.wave }}",
              DIGEST: "${{ inputs.digest }}",
              VIA: RUN_URL[flavour.forge],
            },
            run: `${installLine(spec, specFile)}\n${approve}`,
          },
        ],
      },
    },
  };
  return [{
    path: flavour.path(approveWorkflowFile(spec.name).replace(/\.yml$/, "")),
    text: toYaml(workflow, headerLines(flavour.forge, specFile, notes), {
      plainTopKeys: ["on"],
      spacedMap: ["jobs"],
    }),
  }];
}
