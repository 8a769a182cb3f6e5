// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { renderForgejo } from "../../src/pipeline/render_forgejo.ts";
import {
  assertGolden,
  assertValidWorkflow,
  fixture,
  quiet,
  reviewed,
  specOf,
} from "./_fixtures.ts";

for (const name of ["example", "portable"] as const) {
  Deno.test(`renderForgejo() renders ${name} as the golden file, valid for actionlint and GitHub's parser`, async () => {
    const f = await fixture(name);
    const [file] = renderForgejo(f.spec, f.jobs, f.specFile);
    await assertGolden(`${name}/forgejo.yml`, file.text);
    await assertValidWorkflow(f, file);
  });
}

Deno.test("renderForgejo() writes the resume and record-plans workflows as golden files, valid for actionlint and GitHub's parser", async () => {
  const f = quiet(reviewed(await fixture("forge_jobs")));
  const [, resume, plans] = renderForgejo(f.spec, f.jobs, f.specFile);
  expect([resume.path, plans.path]).toEqual([
    ".forgejo/workflows/rollout.resume.yml",
    ".forgejo/workflows/rollout.plans.yml",
  ]);
  await assertGolden("forge_jobs/forgejo.resume.yml", resume.text);
  await assertGolden("forge_jobs/forgejo.plans.yml", plans.text);
  await assertValidWorkflow(f, resume, 1);
  await assertValidWorkflow(f, plans, 1);
  const doc = parse(resume.text) as {
    jobs: { resume: { env: Record<string, string> } };
  };
  expect(doc.jobs.resume.env).toEqual({
    CHANT_WAVE_FORGE_TOKEN: "${{ secrets.CHANT_WAVE_FORGE_TOKEN }}",
  });
});

Deno.test("renderForgejo() writes the plan job of pull requests with the recorded plans, as one golden file, valid for actionlint and GitHub's parser", async () => {
  const f = reviewed(await fixture("example"));
  const plans = renderForgejo(f.spec, f.jobs, f.specFile).find((file) =>
    file.path === ".forgejo/workflows/demo.plans.yml"
  )!;
  await assertGolden("example/forgejo.plans-recorded.yml", plans.text);
  await assertValidWorkflow(f, plans, 1);
  const doc = parse(plans.text) as {
    jobs: Record<string, { steps: { run?: string }[] }>;
  };
  expect(Object.keys(doc.jobs)).toEqual(["record-plans"]);
  expect(doc.jobs["record-plans"].steps.at(-1)?.run?.split("\n").at(-1)).toBe(
    "chant-wave run --spec examples/waves.jsonc --pull-request --record-plans",
  );
});

Deno.test("renderForgejo() drops environments with a header note and uses Forgejo's artifact actions", async () => {
  const f = await fixture("portable");
  const [file] = renderForgejo(f.spec, f.jobs, f.specFile);
  expect(file.path).toBe(".forgejo/workflows/tf.yml");
  expect(file.text.split("\n").slice(1, 3)).toEqual([
    '# Forgejo Actions has no deployment environments: "production", "production-us" dropped;',
    "# the chant-wave gate (approve with chant-wave approve) stands in for them.",
  ]);
  const doc = parse(file.text) as {
    jobs: Record<string, { environment?: unknown; steps: { uses?: string }[] }>;
  };
  const uses = Object.values(doc.jobs).flatMap((job) =>
    job.steps.flatMap((step) => step.uses ?? [])
  );
  expect(new Set(uses)).toEqual(
    new Set([
      "actions/checkout@v4",
      "forgejo/upload-artifact@v4",
      "forgejo/download-artifact@v4",
    ]),
  );
  expect(Object.values(doc.jobs).some((job) => "environment" in job)).toBe(
    false,
  );
});

Deno.test("renderForgejo() writes no environment note when no wave names one", () => {
  const f = specOf({
    name: "s",
    plan: ["p", "{plan}"],
    apply: ["a", "{plan}"],
    waves: [{ name: "a", runs: ["x"] }],
  });
  const [file] = renderForgejo(f.spec, f.jobs, f.specFile);
  expect(file.text.split("\n")[1]).toBe("");
});

Deno.test("renderForgejo() refuses runner groups, naming each once", async () => {
  const f = await fixture("github_only");
  let error: unknown;
  try {
    renderForgejo(f.spec, f.jobs, f.specFile);
  } catch (caught) {
    error = caught;
  }
  expect(error).toMatchObject({
    message:
      'cannot render the Forgejo Actions pipeline: wave 1 "one": runner group "deployers" has no Forgejo equivalent; name runner labels instead',
    details: [
      'wave 2 "two": runner group "prod-runners" has no Forgejo equivalent; name runner labels instead',
      // The approve workflow's job runs on the spec's runner.
      'the spec: runner group "deployers" has no Forgejo equivalent; name runner labels instead',
    ],
    exitCode: 2,
  });
});
