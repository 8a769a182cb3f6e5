// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { planDir, planFileName, plannedRun } from "../../src/run/plan_path.ts";

const plan = {
  planDigest: `sha256:${"a".repeat(64)}`,
  destructive: false,
  empty: false,
};

Deno.test("planFileName() is readable and tells apart targets that read alike", () => {
  const a = planFileName("a/b");
  const b = planFileName("a_b");
  expect(a).toMatch(/^a_b-[0-9a-f]{12}\.plan\.json$/);
  expect(b).toMatch(/^a_b-[0-9a-f]{12}\.plan\.json$/);
  expect(a).not.toBe(b);
});

Deno.test("plannedRun() names its plan file in the wave's directory, each time alike", () => {
  const dir = planDir(".chant", "app", 2);
  const run = { target: "live/prod/vpc", op: "tf" };
  const planned = plannedRun(run, plan, dir);
  expect(planned.target).toBe("live/prod/vpc");
  expect(planned.run).toBe(run);
  expect(planned.plan).toBe(plan);
  expect(planned.planPath).toBe(
    `.chant/waves/app/wave-2/${planFileName("live/prod/vpc")}`,
  );
  expect(planned.planPath).toBe(planned.planPath);
  const { target, planPath } = planned;
  expect([target, planPath]).toEqual([run.target, planned.planPath]);
});
