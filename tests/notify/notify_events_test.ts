// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { PLAN_MOVED, RUN_FAILED, WAITING } from "../../src/exit_codes.ts";
import { driftEvents, notifyEvents } from "../../src/notify/notify_events.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import { decision, DIGEST, result, SPEC } from "./_spec.ts";

const NOW = Date.UTC(2026, 10, 30, 9, 15, 2, 123);

function summaries(r: JobResult): string[] {
  return notifyEvents({ spec: SPEC, result: r, now: NOW }).map((e) =>
    `${e.event}: ${e.summary}`
  );
}

Deno.test("notifyEvents() writes the summary sentences of §8", async (t) => {
  const cases: { name: string; result: JobResult; want: string[] }[] = [
    {
      name: "whole wave applied",
      result: result({
        wave: 1,
        decision: decision(1, "approved", 3),
        applied: ["a", "b", "c"],
      }),
      want: ["applied: wave 1 (dev) of tf-apply, applied 3 runs"],
    },
    {
      name: "whole wave waiting",
      result: result({
        wave: 1,
        exitCode: WAITING,
        decision: decision(1, "waiting", 1),
      }),
      want: [
        "waiting: wave 1 (dev) of tf-apply, waits for an approval of 1 run",
      ],
    },
    {
      name: "deciding job waiting",
      result: result({
        exitCode: WAITING,
        job: { kind: "decide" },
        decision: decision(2, "waiting"),
      }),
      want: [
        "waiting: wave 2 (apply) of tf-apply, deciding job, waits for an approval of 2 runs",
      ],
    },
    {
      name: "deciding job free to apply: nothing to say",
      result: result({
        job: { kind: "decide" },
        decision: decision(2, "approved"),
      }),
      want: [],
    },
    {
      name: "share job waiting: not repeated",
      result: result({
        exitCode: WAITING,
        job: { kind: "share", share: 1 },
        decision: decision(2, "waiting"),
      }),
      want: [],
    },
    {
      name: "share job applied and refused",
      result: result({
        exitCode: PLAN_MOVED,
        job: { kind: "share", share: 2 },
        decision: decision(2, "approved"),
        applied: ["t3"],
        moved: ["t4", "t5"],
      }),
      want: [
        "applied: wave 2 (apply) of tf-apply, share 2 of 2, applied 1 run",
        "refused: wave 2 (apply) of tf-apply, share 2 of 2, refused 2 runs whose plans moved since the wave was decided",
      ],
    },
    {
      name: "group share refused (the example of §8)",
      result: result({
        exitCode: PLAN_MOVED,
        job: { kind: "group", share: 1, group: "prod" },
        decision: decision(2, "approved"),
        moved: ["prod-eu"],
      }),
      want: [
        "refused: wave 2 (apply) of tf-apply, share 1 of job group prod, refused 1 run whose plan moved since the wave was decided",
      ],
    },
    {
      name: "group failed with runs left untried",
      result: result({
        exitCode: RUN_FAILED,
        job: { kind: "group", group: "dev" },
        decision: decision(2, "approved"),
        applied: ["d1"],
        failed: ["d2"],
        untried: ["d3", "d4"],
      }),
      want: [
        "applied: wave 2 (apply) of tf-apply, job group dev, applied 1 run",
        "failed: wave 2 (apply) of tf-apply, job group dev, 1 run failed, 2 left untried",
      ],
    },
    {
      name: "planning failed before the decision",
      result: result({ exitCode: RUN_FAILED, failed: ["t1", "t2"] }),
      want: ["failed: wave 2 (apply) of tf-apply, 2 runs failed"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(summaries(c.result)).toEqual(c.want));
  }
});

Deno.test("notifyEvents() fills the body of §8", () => {
  const [waiting] = notifyEvents({
    spec: SPEC,
    result: result({
      exitCode: WAITING,
      job: { kind: "decide" },
      decision: decision(2, "waiting"),
    }),
    runUrl: "https://ci.example/run/7",
    now: NOW,
  });
  expect(waiting).toEqual({
    event: "waiting",
    name: "tf-apply",
    wave: 2,
    waveName: "apply",
    gate: "tf-apply-wave-2",
    digest: DIGEST,
    job: { kind: "decide" },
    summary:
      "wave 2 (apply) of tf-apply, deciding job, waits for an approval of 2 runs",
    reason: 'policy "always": read at 0123456789ab',
    approve: `chant-wave approve tf-apply tf-apply-wave-2 --plan ${DIGEST}`,
    runUrl: "https://ci.example/run/7",
    timestamp: "2026-11-30T09:15:02.123Z",
  });
  const [refused] = notifyEvents({
    spec: SPEC,
    result: result({
      exitCode: PLAN_MOVED,
      job: { kind: "group", share: 1, group: "prod" },
      decision: decision(2, "approved"),
      moved: ["prod-eu"],
    }),
    now: NOW,
  });
  expect(Object.keys(refused)).toEqual([
    "event",
    "name",
    "wave",
    "waveName",
    "gate",
    "digest",
    "job",
    "summary",
    "targets",
    "reason",
    "timestamp",
  ]);
  expect(refused.targets).toEqual(["prod-eu"]);
  expect(refused.job).toEqual({ kind: "group", share: 1, group: "prod" });
});

Deno.test("driftEvents() sends one drift event per drifted wave, information only unless recorded", async (t) => {
  const wave = {
    k: 2,
    name: "apply",
    gate: "tf-apply-wave-2",
    digest: DIGEST,
    runs: 3,
    drifted: [{ target: "eu", planDigest: DIGEST, changes: true }],
    status: "waiting" as const,
    approve: `chant-wave approve tf-apply tf-apply-wave-2 --plan ${DIGEST}`,
  };
  const still = { ...wave, k: 1, name: "dev", drifted: [] };
  const found = {
    exitCode: 5 as const,
    name: "tf-apply",
    revision: "a".repeat(40),
    recorded: false,
    waves: [still, wave],
    failed: [],
  };
  await t.step("not recorded", () => {
    expect(driftEvents({ spec: SPEC, result: found, now: NOW })).toEqual([{
      event: "drift",
      name: "tf-apply",
      wave: 2,
      waveName: "apply",
      gate: "tf-apply-wave-2",
      digest: DIGEST,
      job: { kind: "drift" },
      summary:
        "wave 2 (apply) of tf-apply, drift at aaaaaaaaaaaa, 1 run drifted",
      targets: ["eu"],
      reason: "information only: nothing was recorded or applied",
      timestamp: "2026-11-30T09:15:02.123Z",
    }]);
  });
  await t.step("recorded, waiting: the approve command", () => {
    const [event] = driftEvents({
      spec: SPEC,
      result: { ...found, recorded: true },
      runUrl: "https://ci.example/runs/7",
      now: NOW,
    });
    expect(event).toMatchObject({
      reason:
        "its plans are recorded as a pending fact: approve them, then run the wave",
      approve: wave.approve,
      runUrl: "https://ci.example/runs/7",
    });
  });
  await t.step("nothing drifted: no event", () => {
    expect(
      driftEvents({
        spec: SPEC,
        result: { ...found, exitCode: 0, waves: [still] },
        now: NOW,
      }),
    ).toEqual([]);
  });
});
