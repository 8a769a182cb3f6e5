// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { assertGolden, fixture } from "./_fixtures.ts";
import { gitlabJobsRun } from "./_oracles.ts";

Deno.test({
  name:
    "renderGitlab() adds the drift job, run by gitlab-ci-local only in a schedule that sets CHANT_WAVE_SCHEDULE=drift, and the resume job only in the others",
  sanitizeResources: false,
}, async (t) => {
  const f = await fixture("forge_jobs");
  const spec = { ...f.spec, drift: { schedule: "0 6 * * *", record: false } };
  const [file] = renderGitlab(spec, f.jobs, f.specFile);
  await assertGolden("forge_jobs/gitlab.drift.yml", file.text);
  expect(file.text).toContain(
    '# The drift job runs in scheduled pipelines whose variable CHANT_WAVE_SCHEDULE is "drift" only:\n' +
      '# create a pipeline schedule "0 6 * * *" on the default branch with that variable; it fails\n',
  );
  await using repo = await tempRepo({ [file.path]: file.text });
  await repo.commit("pipeline");
  const waves = [
    "wave-1-staging",
    "wave-1-staging-gate",
    "wave-2-prod-decide",
    "wave-2-prod-gate",
  ];
  const cases = [
    { source: "push", variables: [], runs: waves },
    { source: "schedule", variables: [], runs: ["resume"] },
    {
      source: "schedule",
      variables: ["CHANT_WAVE_SCHEDULE=drift"],
      runs: ["drift"],
    },
  ];
  for (const c of cases) {
    await t.step(`${c.source} ${c.variables.join(" ")}`, async () => {
      const { listed, runs } = await gitlabJobsRun(
        file.path,
        repo,
        c.source,
        c.variables,
      );
      // The plan job of merge requests runs in none of these pipelines.
      expect(listed).toEqual([...waves, "resume", "plan", "drift"]);
      expect(runs).toEqual(c.runs);
    });
  }
});
