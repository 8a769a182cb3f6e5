// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  commentsOnRequests,
  forgeJobs,
  reviewsApprove,
} from "../../src/pipeline/_forge_jobs.ts";
import { fixture, reviewed } from "./_fixtures.ts";

Deno.test("forgeJobs() asks for a resume job with resume.schedule, and one request job for the plan comment, the recorded plans or both", async (t) => {
  const plain = await fixture("example");
  const resume = await fixture("forge_jobs");
  const quiet = <S extends typeof plain.spec>(spec: S) => ({
    ...spec,
    pullRequests: { comment: false },
  });
  const planJob = {
    name: "plan",
    branches: ["main"],
    command: ["chant-wave", "run", "--spec", "w.jsonc", "--pull-request"],
    comment: true,
  };
  await t.step("the plan comment only, by default", () => {
    expect(forgeJobs(plain.spec, "w.jsonc")).toEqual({ request: planJob });
    expect(reviewsApprove(plain.spec)).toBe(false);
    expect(commentsOnRequests(plain.spec)).toBe(true);
  });
  await t.step("nothing, with pullRequests.comment false", () => {
    expect(forgeJobs(quiet(plain.spec), "w.jsonc")).toEqual({});
    expect(commentsOnRequests(quiet(plain.spec))).toBe(false);
  });
  await t.step("resume", () => {
    expect(forgeJobs(quiet(resume.spec), "w.jsonc")).toEqual({
      resume: {
        schedule: "*/10 * * * *",
        command: ["chant-wave", "resume", "--spec", "w.jsonc"],
      },
    });
  });
  const waves = plain.spec.waves.map((wave, i) =>
    i === 1 ? { ...wave, approval: "forge" as const } : wave
  );
  await t.step("a wave approved by review, without the comment", () => {
    const spec = quiet({ ...plain.spec, waves });
    expect(reviewsApprove(spec)).toBe(true);
    expect(forgeJobs(spec, "w.jsonc")).toEqual({
      request: {
        name: "record-plans",
        branches: ["main"],
        command: ["chant-wave", "run", "--spec", "w.jsonc", "--record-plans"],
        comment: false,
        file: ".chant/recorded-plans/demo.json",
      },
    });
  });
  await t.step("a wave approved by review, with the comment: one job", () => {
    expect(forgeJobs({ ...plain.spec, waves }, "w.jsonc")).toEqual({
      request: {
        name: "record-plans",
        branches: ["main"],
        command: [
          ...["chant-wave", "run", "--spec", "w.jsonc"],
          ...["--pull-request", "--record-plans"],
        ],
        comment: true,
        file: ".chant/recorded-plans/demo.json",
      },
    });
  });
  await t.step("both", () => {
    const both = reviewed(resume);
    expect(Object.keys(forgeJobs(both.spec, both.specFile))).toEqual([
      "resume",
      "request",
    ]);
  });
});
