// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { forgeJobs, reviewsApprove } from "../../src/pipeline/_forge_jobs.ts";
import { fixture, reviewed } from "./_fixtures.ts";

Deno.test("forgeJobs() asks for a resume job with resume.schedule, a record-plans job with review approvals", async (t) => {
  const plain = await fixture("example");
  const resume = await fixture("forge_jobs");
  await t.step("neither", () => {
    expect(forgeJobs(plain.spec, plain.specFile)).toEqual({});
    expect(reviewsApprove(plain.spec)).toBe(false);
  });
  await t.step("resume only", () => {
    expect(forgeJobs(resume.spec, "w.jsonc")).toEqual({
      resume: {
        schedule: "*/10 * * * *",
        command: ["chant-wave", "resume", "--spec", "w.jsonc"],
      },
    });
  });
  await t.step("a wave approved by review", () => {
    const waves = plain.spec.waves.map((wave, i) =>
      i === 1 ? { ...wave, approval: "forge" as const } : wave
    );
    const spec = { ...plain.spec, waves };
    expect(reviewsApprove(spec)).toBe(true);
    expect(forgeJobs(spec, "w.jsonc")).toEqual({
      recordPlans: {
        branches: ["main"],
        command: ["chant-wave", "run", "--spec", "w.jsonc", "--record-plans"],
        file: ".chant/recorded-plans/demo.json",
      },
    });
  });
  await t.step("both", () => {
    const both = reviewed(resume);
    expect(Object.keys(forgeJobs(both.spec, both.specFile))).toEqual([
      "resume",
      "recordPlans",
    ]);
  });
});
