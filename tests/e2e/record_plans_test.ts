// End to end through the binary: `run --record-plans` (SPEC.md §13), the
// pull-request job, plans every wave at HEAD and hands each wave's digest over
// without writing the ledger: the plans file `.chant/recorded-plans/<name>.json`
// (GitLab's artifact) and, on GitHub and Forgejo, one commit status of the head
// per wave on the fake forge. It writes no ledger record, takes no `--ledger`,
// and fails when the forge refuses the statuses.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { fakeForge } from "../_helpers/fake_forge.ts";
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

Deno.test("run --record-plans hands every wave's digest at HEAD to the forge, and writes no ledger", async (t) => {
  await using r = await rollout(specOf(WAVES));
  await using fake = fakeForge("github");
  const digests: string[] = [];
  for (const k of [1, 2]) {
    const out = await r.run(["run", ...SPEC, "--wave", String(k), "--dry-run"]);
    digests.push(plannedDigest(out.stderr));
  }
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_RUN_ID: "88",
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_TOKEN: fake.token,
  };

  await t.step("it plans both waves and posts their statuses", async () => {
    const out = await r.run(["run", ...SPEC, "--record-plans", "--json"], env);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      exitCode: 0,
      name: "tf",
      head: r.head,
      waves: [
        { wave: 1, name: "one", digest: digests[0] },
        { wave: 2, name: "two", digest: digests[1] },
      ],
      file: ".chant/recorded-plans/tf.json",
      handed: `2 commit statuses of ${r.head.slice(0, 12)}`,
    });
    expect(out.stderr).toContain(
      `chant-wave: recording the plans of tf at ${r.head.slice(0, 12)}\n`,
    );
    expect(out.stderr).toContain(`wave 1 "one": ${digests[0]}\n`);
    expect(out.stderr).toContain(
      `handed the plans to github as 2 commit statuses of ${
        r.head.slice(0, 12)
      }\n`,
    );
    expect(fake.state.statuses.get(r.head)).toEqual([
      {
        id: 1,
        state: "success",
        context: "chant-wave/tf/wave-1",
        description: digests[0],
        targetUrl: "https://github.example/octo/hello/actions/runs/88",
      },
      {
        id: 2,
        state: "success",
        context: "chant-wave/tf/wave-2",
        description: digests[1],
        targetUrl: "https://github.example/octo/hello/actions/runs/88",
      },
    ]);
    expect(fake.protocolErrors).toEqual([]);
  });

  await t.step("the plans file names the head and each wave", async () => {
    expect(await r.readJson(".chant/recorded-plans/tf.json")).toEqual({
      version: 1,
      kind: "recorded-plans",
      name: "tf",
      head: r.head,
      waves: [
        { wave: 1, name: "one", digest: digests[0] },
        { wave: 2, name: "two", digest: digests[1] },
      ],
    });
  });

  await t.step("nothing else was written: no ledger, no decision", async () => {
    const gates = await r.run(["ledger", "log", "--json"]);
    expect(JSON.parse(gates.stdout).gates).toEqual([]);
    await expect(Deno.stat(`${r.path}/.chant/ledger`)).rejects.toThrow(
      Deno.errors.NotFound,
    );
    await expect(Deno.stat(`${r.path}/.chant/waves`)).rejects.toThrow(
      Deno.errors.NotFound,
    );
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("run --record-plans in a GitLab merged results pipeline records the plans for the merge request's head, as the job's artifact", async () => {
  await using r = await rollout(specOf(WAVES));
  const out = await r.run(["run", ...SPEC, "--record-plans", "--json"], {
    GITLAB_CI: "true",
    CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: r.base,
  });
  expect(out.code).toBe(0);
  expect(JSON.parse(out.stdout)).toMatchObject({
    head: r.base,
    file: ".chant/recorded-plans/tf.json",
  });
  expect(JSON.parse(out.stdout).handed).toBeUndefined();
  expect(out.stderr).toContain(
    `chant-wave: recording the plans of tf at ${r.base.slice(0, 12)} ` +
      `(planned at its merged result ${r.head.slice(0, 12)})\n`,
  );
  expect(out.stderr).toContain(
    `recorded the plans of 2 waves at ${
      r.base.slice(0, 12)
    } in .chant/recorded-plans/tf.json (the job's artifact)\n`,
  );
  expect((await r.readJson(".chant/recorded-plans/tf.json")).head).toBe(
    r.base,
  );
});

Deno.test("run --record-plans fails when the forge refuses the statuses or no token is set", async (t) => {
  await using r = await rollout(specOf(WAVES));
  await using fake = fakeForge("github");
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_API_URL: fake.apiUrl,
  };
  await t.step("no token", async () => {
    const out = await r.run(["run", ...SPEC, "--record-plans"], env);
    expect(out.code).toBe(1);
    expect(errorLines(out.stderr)).toEqual([
      "error: cannot hand the plans to github: no forge token: set CHANT_WAVE_FORGE_TOKEN or GITHUB_TOKEN or GH_TOKEN",
    ]);
  });
  await t.step("a read-only token (a fork's)", async () => {
    fake.fail({
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    const out = await r.run(["run", ...SPEC, "--record-plans"], {
      ...env,
      GITHUB_TOKEN: fake.token,
    });
    expect(out.code).toBe(1);
    expect(errorLines(out.stderr)[0]).toMatch(
      /^error: cannot hand the plans to github: POST .*\/statuses\/[0-9a-f]{40}: HTTP 403: Resource not accessible by integration \(pull requests from forks get a read-only token\)$/,
    );
  });
});

Deno.test("run --record-plans records nothing when a wave fails to plan", async () => {
  await using r = await rollout(specOf(WAVES));
  await r.control("ap", "plan-exit", "5");
  const out = await r.run(["run", ...SPEC, "--record-plans"]);
  expect(out.code).toBe(1);
  expect(errorLines(out.stderr)).toContain(
    'error: wave 2 "two" did not plan; no plans recorded',
  );
  await expect(Deno.stat(`${r.path}/.chant/recorded-plans`)).rejects.toThrow(
    Deno.errors.NotFound,
  );
});

Deno.test("run --record-plans refuses the flags of a wave's job, and --ledger", async (t) => {
  await using r = await rollout(specOf(WAVES));
  for (
    const [flags, name] of [[["--wave", "1"], "wave"], [
      ["--ledger", "git"],
      "ledger",
    ]] as const
  ) {
    await t.step(name, async () => {
      const out = await r.run(["run", ...SPEC, "--record-plans", ...flags]);
      expect(out).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `error: "--record-plans" plans every wave and takes no "--${name}"\n`,
      });
    });
  }
});
