// End to end through the binary: `run --record-plans` (SPEC.md §13), the
// pull-request job, plans every wave at HEAD, records each wave's digest in one
// `recorded-plans` record that the ledger reads back, and records nothing else.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  errorLines,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const WAVES = [
  { name: "one", gate: "always", runs: ["eu"] },
  { name: "two", gate: "never", runs: ["us", "ap"] },
];

Deno.test("run --record-plans records every wave's digest at HEAD, and nothing else", async (t) => {
  await using r = await rollout(specOf(WAVES));
  const digests: string[] = [];
  for (const k of [1, 2]) {
    const out = await r.run(["run", ...SPEC, "--wave", String(k), "--dry-run"]);
    digests.push(plannedDigest(out.stderr));
  }
  let id = "";

  await t.step("it plans both waves and records them", async () => {
    const out = await r.run(
      ["run", ...SPEC, "--record-plans", "--json"],
      { GITHUB_ACTIONS: "true", GITHUB_RUN_ID: "88" },
    );
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    id = result.record;
    expect(result).toEqual({
      exitCode: 0,
      name: "tf",
      head: r.head,
      waves: [
        { wave: 1, name: "one", gate: "tf-wave-1", digest: digests[0] },
        { wave: 2, name: "two", gate: "tf-wave-2", digest: digests[1] },
      ],
      record: id,
    });
    expect(out.stderr).toContain(
      `chant-wave: recording the plans of tf at ${r.head.slice(0, 12)}\n`,
    );
    expect(out.stderr).toContain(`wave 1 "one": ${digests[0]}\n`);
    expect(out.stderr).toMatch(
      new RegExp(
        `^recorded the plans of 2 waves at ${
          r.head.slice(0, 12)
        } in directory ledger \\S+$`,
        "m",
      ),
    );
  });

  await t.step("the ledger reads the record back", async () => {
    const out = await r.run([
      "ledger",
      "log",
      "tf",
      "recorded-plans",
      "--json",
    ]);
    expect(out.code).toBe(0);
    const [gate] = JSON.parse(out.stdout).gates;
    expect(gate.problems).toEqual([]);
    expect(gate.records).toEqual([{
      version: 1,
      kind: "recorded-plans",
      id,
      name: "tf",
      gate: "recorded-plans",
      head: r.head,
      waves: [
        { wave: 1, name: "one", gate: "tf-wave-1", digest: digests[0] },
        { wave: 2, name: "two", gate: "tf-wave-2", digest: digests[1] },
      ],
      runId: "88",
      timestamp: gate.records[0].timestamp,
    }]);
    const log = await r.run(["ledger", "log", "tf", "recorded-plans"]);
    expect(log.stdout).toContain(
      `plans at ${r.head.slice(0, 12)}: wave 1 ${
        digests[0].slice(0, 19)
      }, wave 2 ${digests[1].slice(0, 19)}, run 88\n`,
    );
  });

  await t.step("nothing but the record was written", async () => {
    const gates = await r.run(["ledger", "log", "--json"]);
    expect(
      JSON.parse(gates.stdout).gates.map((g: { gate: string }) => g.gate),
    ).toEqual(["recorded-plans"]);
    await expect(Deno.stat(`${r.path}/.chant/waves`)).rejects.toThrow(
      Deno.errors.NotFound,
    );
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("run --record-plans in a GitLab merged results pipeline records the plans for the merge request's head", async () => {
  await using r = await rollout(specOf(WAVES));
  const out = await r.run(["run", ...SPEC, "--record-plans", "--json"], {
    GITLAB_CI: "true",
    CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: r.base,
  });
  expect(out.code).toBe(0);
  expect(JSON.parse(out.stdout).head).toBe(r.base);
  expect(out.stderr).toContain(
    `chant-wave: recording the plans of tf at ${r.base.slice(0, 12)} ` +
      `(planned at its merged result ${r.head.slice(0, 12)})\n`,
  );
});

Deno.test("run --record-plans records nothing when a wave fails to plan", async () => {
  await using r = await rollout(specOf(WAVES));
  await r.control("ap", "plan-exit", "5");
  const out = await r.run(["run", ...SPEC, "--record-plans"]);
  expect(out.code).toBe(1);
  expect(errorLines(out.stderr)).toContain(
    'error: wave 2 "two" did not plan; no plans recorded',
  );
  const log = await r.run(["ledger", "log", "--json"]);
  expect(JSON.parse(log.stdout).gates).toEqual([]);
});

Deno.test("run --record-plans refuses the flags of a wave's job", async () => {
  await using r = await rollout(specOf(WAVES));
  const out = await r.run(["run", ...SPEC, "--record-plans", "--wave", "1"]);
  expect(out).toEqual({
    code: 2,
    stdout: "",
    stderr: 'error: "--record-plans" plans every wave and takes no "--wave"\n',
  });
});
