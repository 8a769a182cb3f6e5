// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { renderForgejo } from "../../src/pipeline/render_forgejo.ts";
import { renderGithub } from "../../src/pipeline/render_github.ts";
import { assertGolden, assertValidWorkflow, fixture } from "./_fixtures.ts";

interface Workflow {
  on: unknown;
  permissions: unknown;
  jobs: Record<string, { steps: { name?: string; run?: string }[] }>;
}

async function drifting(record: boolean) {
  const f = await fixture("forge_jobs");
  return {
    ...f,
    spec: { ...f.spec, drift: { schedule: "0 6 * * *", record } },
  };
}

Deno.test("renderGithub() and renderForgejo() write the drift workflow beside the rollout's, as golden files, valid for actionlint and GitHub's parser", async (t) => {
  for (
    const [forge, render, dir] of [
      ["github", renderGithub, ".github"],
      ["forgejo", renderForgejo, ".forgejo"],
    ] as const
  ) {
    await t.step(forge, async () => {
      const f = await drifting(false);
      const files = render(f.spec, f.jobs, f.specFile);
      const drift = files.find((file) =>
        file.path === `${dir}/workflows/rollout.drift.yml`
      );
      expect(drift).toBeDefined();
      await assertGolden(`forge_jobs/${forge}.drift.yml`, drift!.text);
      await assertValidWorkflow(f, drift!, 1);
      const w = parse(drift!.text) as Workflow;
      expect(w.on).toEqual({
        schedule: [{ cron: "0 6 * * *" }],
        workflow_dispatch: {},
      });
      expect(w.permissions).toEqual({ contents: "read" });
      expect(w.jobs.drift.steps.at(-1)?.run?.split("\n").at(-1)).toBe(
        "chant-wave drift --spec tests/fixtures/pipeline/forge_jobs.jsonc --ledger git",
      );
      // The rollout's own workflow is as without drift.
      const plain = await fixture("forge_jobs");
      expect(files[0].text).toBe(
        render(plain.spec, plain.jobs, plain.specFile)[0].text,
      );
    });
  }
  await t.step("recording: it may push the ledger", async () => {
    const f = await drifting(true);
    const drift = renderGithub(f.spec, f.jobs, f.specFile).find((file) =>
      file.path.endsWith(".drift.yml")
    )!;
    await assertValidWorkflow(f, drift, 1);
    const w = parse(drift.text) as Workflow;
    expect(w.permissions).toEqual({ contents: "write" });
    expect(w.jobs.drift.steps.at(-1)?.run?.split("\n").at(-1)).toBe(
      "chant-wave drift --spec tests/fixtures/pipeline/forge_jobs.jsonc --record --ledger git",
    );
  });
});
