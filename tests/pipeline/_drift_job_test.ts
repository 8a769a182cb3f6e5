// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { driftJob, scheduleRule } from "../../src/pipeline/_drift_job.ts";
import { fixture } from "./_fixtures.ts";

Deno.test("driftJob() runs chant-wave drift on drift.schedule, with --record when it records", async (t) => {
  const f = await fixture("forge_jobs");
  await t.step("no drift", () => {
    expect(driftJob(f.spec, "w.jsonc")).toBeUndefined();
  });
  await t.step("reporting", () => {
    const spec = { ...f.spec, drift: { schedule: "0 6 * * *", record: false } };
    expect(driftJob(spec, "w.jsonc")).toEqual({
      schedule: "0 6 * * *",
      record: false,
      command: ["chant-wave", "drift", "--spec", "w.jsonc"],
    });
  });
  await t.step("recording", () => {
    const spec = { ...f.spec, drift: { schedule: "0 6 * * *", record: true } };
    expect(driftJob(spec, "w.jsonc")?.command).toEqual([
      "chant-wave",
      "drift",
      "--spec",
      "w.jsonc",
      "--record",
    ]);
  });
});

Deno.test("scheduleRule() tells the drift job's schedules from the resume job's only when both exist", () => {
  const drift = { schedule: "0 6 * * *", record: false };
  expect(scheduleRule("resume", {})).toBe('$CI_PIPELINE_SOURCE == "schedule"');
  expect(scheduleRule("resume", { drift })).toBe(
    '$CI_PIPELINE_SOURCE == "schedule" && $CHANT_WAVE_SCHEDULE != "drift"',
  );
  expect(scheduleRule("drift", { drift })).toBe(
    '$CI_PIPELINE_SOURCE == "schedule" && $CHANT_WAVE_SCHEDULE == "drift"',
  );
});
