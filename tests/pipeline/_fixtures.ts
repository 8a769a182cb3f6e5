/**
 * The specs the renderer tests use, loaded and expanded, and golden-file
 * comparison: after parsing the YAML, then as text; `UPDATE_GOLDEN=1` rewrites
 * the files under tests/fixtures/golden/.
 * @module
 */

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { dirname, join } from "node:path";
import { expandJobs, type Job } from "../../src/jobs/expand_jobs.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type { Spec } from "../../src/spec/types.ts";
import { actionlint, githubParse } from "./_oracles.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The fixture specs, by short name, as paths from the repository root. */
export const SPECS = {
  example: "examples/waves.jsonc",
  portable: "tests/fixtures/pipeline/portable.jsonc",
  github_only: "tests/fixtures/pipeline/github_only.jsonc",
  forge_jobs: "tests/fixtures/pipeline/forge_jobs.jsonc",
} as const;

/** A loaded fixture. */
export interface Fixture {
  spec: Spec;
  jobs: Job[];
  specFile: string;
}

/**
 * Loads a fixture spec and expands its jobs.
 * @param name The fixture's short name.
 */
export async function fixture(name: keyof typeof SPECS): Promise<Fixture> {
  const specFile = SPECS[name];
  const spec = parseSpec(
    await Deno.readTextFile(join(ROOT, specFile)),
    specFile,
  );
  return { spec, jobs: expandJobs(spec, specFile), specFile };
}

/**
 * The fixture with its waves approved by pull-request review (`approval:
 * "forge"`, SPEC.md §12), so its pipelines gain the record-plans job.
 * @param f A loaded fixture.
 */
export function reviewed(f: Fixture): Fixture {
  return { ...f, spec: { ...f.spec, approval: "forge" } };
}

/**
 * The fixture with `pullRequests.comment` false: no plan job of requests
 * (the record-plans job alone, when a wave is approved by review).
 * @param f The fixture.
 */
export function quiet(f: Fixture): Fixture {
  return { ...f, spec: { ...f.spec, pullRequests: { comment: false } } };
}

/**
 * Parses a spec given as an object, as the renderers' input.
 * @param value The spec.
 */
export function specOf(value: unknown): Fixture {
  const spec = parseSpec(JSON.stringify(value), "waves.json");
  return { spec, jobs: expandJobs(spec, "waves.json"), specFile: "waves.json" };
}

/**
 * Compares `text` with the golden file `name`, as parsed YAML and as text, or
 * rewrites it when `UPDATE_GOLDEN=1`.
 * @param name The path under tests/fixtures/golden/.
 * @param text The rendered text.
 */
export async function assertGolden(name: string, text: string): Promise<void> {
  const path = join(ROOT, "tests/fixtures/golden", name);
  if (Deno.env.get("UPDATE_GOLDEN") === "1") {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
    return;
  }
  const golden = await Deno.readTextFile(path);
  expect(parse(text)).toEqual(parse(golden));
  expect(text).toBe(golden);
}

/**
 * Custom runner labels a spec names: actionlint only knows GitHub's hosted ones.
 * @param spec The spec.
 */
export function customLabels(spec: Spec): Set<string> {
  const labels = new Set<string>(["docker"]);
  const add = (label: Spec["runner"]) => {
    if (label === undefined) return;
    if (typeof label === "string") labels.add(label);
    else if (Array.isArray(label)) label.forEach((one) => labels.add(one));
    else label.labels?.forEach((one) => labels.add(one));
  };
  add(spec.runner);
  for (const wave of spec.waves) {
    add(wave.runner);
    wave.jobs?.forEach((group) => add(group.runner));
  }
  return labels;
}

/**
 * Asserts actionlint finds nothing (but custom runner labels, which only an
 * actionlint.yaml could declare) and GitHub's parser converts every job.
 * @param f The fixture rendered.
 * @param file The rendered workflow.
 * @param jobs How many jobs it holds (default: the fixture's wave jobs).
 */
export async function assertValidWorkflow(
  f: Fixture,
  file: { path: string; text: string },
  jobs: number = f.jobs.length,
): Promise<void> {
  const labels = customLabels(f.spec);
  const findings = (await actionlint(file.text, file.path)).filter((finding) =>
    !(finding.kind === "runner-label" &&
      [...labels].some((label) => finding.message.includes(`"${label}"`)))
  );
  expect(findings).toEqual([]);
  expect(await githubParse(file.text, file.path)).toEqual({
    errors: [],
    jobs,
  });
}
