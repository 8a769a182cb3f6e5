// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  claimOfStatus,
  describeStatuses,
  formatPlansFile,
  plansFile,
  readPlansFile,
  statusContext,
} from "../../src/forge/plans_handoff.ts";

const HEAD = "a".repeat(40);
const D1 = "sha256:" + "1".repeat(64);
const D2 = "sha256:" + "2".repeat(64);
const PLANS = {
  name: "tf",
  head: HEAD,
  waves: [
    { wave: 1, name: "dev", digest: D1 },
    { wave: 2, name: "prod", digest: D2 },
  ],
};

Deno.test("plansFile(), statusContext() and describeStatuses() name the hand-off", () => {
  expect(plansFile("tf")).toBe(".chant/recorded-plans/tf.json");
  expect(statusContext("tf", 2)).toBe("chant-wave/tf/wave-2");
  expect(describeStatuses(PLANS)).toBe("2 commit statuses of aaaaaaaaaaaa");
  expect(describeStatuses({ ...PLANS, waves: [PLANS.waves[0]] })).toBe(
    "1 commit status of aaaaaaaaaaaa",
  );
});

Deno.test("readPlansFile() reads back what formatPlansFile() wrote", () => {
  const text = formatPlansFile(PLANS);
  expect(text.endsWith("}\n")).toBe(true);
  expect(readPlansFile(JSON.parse(text), "tf", "job 8's artifact")).toEqual({
    head: HEAD,
    claims: [
      { from: "job 8's artifact", wave: 1, digest: D1 },
      { from: "job 8's artifact", wave: 2, digest: D2 },
    ],
  });
});

Deno.test("readPlansFile() turns any file it cannot trust into one problem", async (t) => {
  const good = JSON.parse(formatPlansFile(PLANS));
  const cases: { name: string; body: unknown; problem: string }[] = [
    { name: "not an object", body: [1], problem: "it is not an object: [1]" },
    {
      name: "another version",
      body: { ...good, version: 2 },
      problem: "it is not a plans file of version 1",
    },
    {
      name: "another kind",
      body: { ...good, kind: "approval" },
      problem: "it is not a plans file of version 1",
    },
    {
      name: "another rollout's",
      body: { ...good, name: "other" },
      problem: 'it is not of "tf"',
    },
    {
      name: "a short head",
      body: { ...good, head: "abc" },
      problem: '"head" is not a full commit sha: "abc"',
    },
    {
      name: "too many waves",
      body: {
        ...good,
        waves: Array.from({ length: 501 }, (_, i) => ({
          wave: i + 1,
          digest: D1,
        })),
      },
      problem: '"waves" has 501 entries; at most 500',
    },
    {
      name: "a wave twice",
      body: { ...good, waves: [good.waves[0], good.waves[0]] },
      problem: '"waves[1].wave" appears twice: 1',
    },
    {
      name: "a digest that is not one",
      body: { ...good, waves: [{ wave: 1, digest: "sha256:XYZ" }] },
      problem:
        '"waves[0].digest" is not sha256:<64 lowercase hex>: "sha256:XYZ"',
    },
    {
      name: "a wave that is no number",
      body: { ...good, waves: [{ wave: "1", digest: D1 }] },
      problem: '"waves[0].wave" is not a whole number from 1 to 500: "1"',
    },
    {
      name: "a null wave",
      body: { ...good, waves: [null] },
      problem: '"waves[0]" is not an object: null',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(readPlansFile(c.body, "tf", "job 8's artifact")).toEqual({
        claims: [{ from: "job 8's artifact", problem: c.problem }],
      });
    });
  }
});

Deno.test("claimOfStatus() reads a status of the rollout's contexts, and nothing else", async (t) => {
  const status = (fields: Record<string, unknown>) => ({
    id: 17,
    context: "chant-wave/tf/wave-1",
    state: "success",
    description: D1,
    ...fields,
  });
  const cases: { name: string; item: unknown; want: unknown }[] = [
    {
      name: "a hand-off",
      item: status({}),
      want: { from: "status 17", wave: 1, digest: D1 },
    },
    {
      name: "the context in another case (forges ignore case)",
      item: status({ context: "Chant-Wave/TF/WAVE-1" }),
      want: { from: "status 17", wave: 1, digest: D1 },
    },
    {
      name: "another context",
      item: status({ context: "ci/build" }),
      want: undefined,
    },
    {
      name: "another rollout's",
      item: status({ context: "chant-wave/tfx/wave-1" }),
      want: undefined,
    },
    { name: "no context", item: { id: 1 }, want: undefined },
    { name: "not an object", item: "x", want: undefined },
    {
      name: "no wave number",
      item: status({ context: "chant-wave/tf/wave-01" }),
      want: { from: "status 17", problem: "its context names no wave" },
    },
    {
      name: "a failed status",
      item: status({ state: "failure" }),
      want: {
        from: "status 17",
        wave: 1,
        problem: 'its state is "failure", not "success"',
      },
    },
    {
      name: "a state that is no word",
      item: status({ state: "succ\u001bess" }),
      want: {
        from: "status 17",
        wave: 1,
        problem: 'its state is not a state, not "success"',
      },
    },
    {
      name: "a description that is not exactly a digest",
      item: status({ description: `${D1} ` }),
      want: {
        from: "status 17",
        wave: 1,
        problem: "its description is not a set digest",
      },
    },
    {
      name: "Forgejo's state field",
      item: { ...status({}), state: undefined, status: "success" },
      want: { from: "status 17", wave: 1, digest: D1 },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const key = c.name === "Forgejo's state field" ? "status" : "state";
      expect(claimOfStatus(c.item, key, "tf")).toEqual(c.want);
    });
  }
});
