// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { childStateOf, clearGitlabChild } from "../../src/cli/_gitlab_child.ts";
import { InputError } from "../../src/errors.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import { selectJob } from "../../src/run/select_job.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { tempDir } from "../_helpers/binary.ts";
import { result } from "../notify/_spec.ts";

const SPEC = parseSpec(
  JSON.stringify({
    name: "tf",
    plan: ["p", "{target}", "{plan}"],
    apply: ["a", "{target}", "{plan}"],
    waves: [
      { name: "prod", runs: ["eu", "us"], shares: 2 },
      { name: "rest", runs: ["t1"], rest: true },
    ],
  }),
  "waves.json",
);

const waiting = {
  rules: "ledger, 3 distinct approvers",
  approvals: { counted: 1, required: 3 },
};

Deno.test("childStateOf() writes a child when the wave goes on or waits for an approval of its own", async (t) => {
  const decision = { status: "waiting" } as JobResult["decision"];
  const cases: [string, Partial<JobResult>, unknown][] = [
    ["done", { exitCode: 0 }, { waits: false }],
    [
      "waiting, one of three counted",
      { exitCode: 3, decision, waiting },
      { waits: true, first: 2, required: 3 },
    ],
    ["waiting for the wave before (no decision)", { exitCode: 3 }, undefined],
    [
      "waiting at a later rest wave",
      { exitCode: 3, decision, waiting, rest: [{ wave: 3, exitCode: 3 }] },
      undefined,
    ],
    ["a run failed", { exitCode: 1 }, undefined],
    ["a plan moved", { exitCode: 4 }, undefined],
  ];
  for (const [name, fields, state] of cases) {
    await t.step(name, () => {
      expect(childStateOf(result(fields))).toEqual(state);
    });
  }
  await t.step(
    "waiting, with a canary at base: decided again in the child",
    () => {
      expect(childStateOf(result({ exitCode: 3, decision, waiting }), true))
        .toEqual({ waits: true, first: 2, required: 3, canary: true });
    },
  );
  await t.step(
    "done, with a canary at base: the deciding job applied it",
    () => {
      expect(childStateOf(result({ exitCode: 0 }), true)).toEqual({
        waits: false,
      });
    },
  );
});

Deno.test("clearGitlabChild() removes an earlier child, and refuses a job that decides nothing", async (t) => {
  await using dir = await tempDir({
    ".chant/waves/tf/wave-1.gitlab-ci.yml": "stale: {}\n",
  });
  const job = (flags: { wave: string; decide?: boolean; share?: number }) => ({
    spec: SPEC,
    specFile: "waves.json",
    selection: selectJob(SPEC, "waves.json", { decide: false, ...flags }),
  });
  await t.step("a deciding job removes the earlier child", async () => {
    await clearGitlabChild(job({ wave: "1", decide: true }), false, {
      cwd: dir.path,
    });
    await expect(
      Deno.stat(`${dir.path}/.chant/waves/tf/wave-1.gitlab-ci.yml`),
    ).rejects.toThrow(Deno.errors.NotFound);
  });
  const refused: [string, Parameters<typeof job>[0], boolean, string][] = [
    [
      "a share job",
      { wave: "1", share: 1 },
      false,
      '"--gitlab-child" is for the job that decides a wave: a whole-wave or deciding job',
    ],
    [
      "a dry run",
      { wave: "1", decide: true },
      true,
      '"--gitlab-child" writes a file; a dry run writes none',
    ],
    [
      "a rest wave again",
      { wave: "3" },
      false,
      '"--gitlab-child" needs one of the spec\'s waves; wave 3 is its rest wave again',
    ],
  ];
  for (const [name, flags, dryRun, message] of refused) {
    await t.step(name, async () => {
      const error = await clearGitlabChild(job(flags), dryRun, {
        cwd: dir.path,
      }).catch((e) => e);
      expect(error).toBeInstanceOf(InputError);
      expect(error.message).toBe(message);
    });
  }
});
