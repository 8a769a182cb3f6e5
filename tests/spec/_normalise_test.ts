// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { lines } from "./_helpers.ts";

Deno.test("normalise() fills in the defaults of SPEC.md §3", () => {
  const spec = parseSpec(
    lines(
      "{",
      '  "name": "demo",',
      '  "plan": ["p", "{plan}"],',
      '  "apply": ["a", "{plan}"],',
      '  "waves": [{ "name": "dev", "runs": ["a"] }]',
      "}",
    ),
    "w.jsonc",
  );
  expect(spec).toStrictEqual({
    name: "demo",
    op: "demo",
    gate: "demo",
    plan: { kind: "per-run", argv: ["p", "{plan}"] },
    apply: { kind: "per-run", argv: ["a", "{plan}"] },
    parallel: 1,
    timeoutMs: 0,
    heartbeatMs: 60_000,
    pendingTtlMs: 48 * 3_600_000,
    branches: ["main"],
    order: "strict",
    approval: "ledger",
    signers: ".chant-wave/allowed_signers",
    approvers: { required: 1, selfApproval: true },
    hooks: {
      "before-plan": [],
      "after-plan": [],
      "before-apply": [],
      "after-apply": [],
    },
    destructiveOverrides: "ignore",
    soakMs: 0,
    freeze: [],
    waves: [{
      k: 1,
      name: "dev",
      runs: [{ target: "a", op: "demo" }],
      gate: "always",
      shares: 1,
      parallel: 1,
      timeoutMs: 0,
      discover: false,
      approval: "ledger",
      approvers: { required: 1, selfApproval: true },
      destructiveOverrides: "ignore",
      rules: [],
      soakMs: 0,
      freeze: [],
      rest: false,
      hooks: {
        "before-plan": [],
        "after-plan": [],
        "before-apply": [],
        "after-apply": [],
      },
    }],
  });
});

Deno.test("normalise() resolves each wave's approval mode and approver rules", async (t) => {
  const spec = parseSpec(
    JSON.stringify({
      name: "demo",
      plan: ["p", "{plan}"],
      apply: ["a", "{plan}"],
      approval: "sealed",
      signers: "keys/allowed",
      approvers: { required: 2, allowed: ["*@platform.example"] },
      waves: [
        { name: "dev", runs: ["a"], approval: "ledger" },
        { name: "prod", runs: ["b"], approvers: { selfApproval: false } },
        {
          name: "dr",
          runs: ["c"],
          approvers: { required: 3, allowed: ["ann@example.com"] },
        },
      ],
    }),
    "w.jsonc",
  );
  await t.step("the top level keeps its own", () => {
    expect(spec.approval).toBe("sealed");
    expect(spec.signers).toBe("keys/allowed");
    expect(spec.approvers).toEqual({
      required: 2,
      allowed: ["*@platform.example"],
      selfApproval: true,
    });
  });
  await t.step("a wave's mode overrides the top level's", () => {
    expect(spec.waves.map((wave) => wave.approval)).toEqual([
      "ledger",
      "sealed",
      "sealed",
    ]);
  });
  await t.step("a wave's approver fields override one by one", () => {
    expect(spec.waves.map((wave) => wave.approvers)).toEqual([
      { required: 2, allowed: ["*@platform.example"], selfApproval: true },
      { required: 2, allowed: ["*@platform.example"], selfApproval: false },
      { required: 3, allowed: ["ann@example.com"], selfApproval: true },
    ]);
  });
});

Deno.test("normalise() gives each wave its own hooks or the spec's", () => {
  const spec = parseSpec(
    JSON.stringify({
      name: "demo",
      plan: ["p", "{plan}"],
      apply: ["a"],
      hooks: {
        "before-plan": [{ name: "init", run: ["init", "{wave}"] }],
        "before-apply": [{
          name: "infra",
          after: { name: "infra", gate: "infra-wave-1" },
        }],
      },
      waves: [
        { name: "dev", runs: ["a"] },
        {
          name: "prod",
          runs: ["b"],
          rest: true,
          hooks: {
            "after-plan": [{
              name: "net",
              after: { name: "net", gate: "net-wave-2", applied: true },
            }],
          },
        },
      ],
    }),
    "w.json",
  );
  const [dev, prod] = spec.waves;
  expect(dev.hooks).toStrictEqual({
    "before-plan": [{ name: "init", run: ["init", "{wave}"] }],
    "after-plan": [],
    "before-apply": [{
      name: "infra",
      after: { name: "infra", gate: "infra-wave-1", applied: false },
    }],
    "after-apply": [],
  });
  expect(prod.hooks).toStrictEqual({
    "before-plan": [],
    "after-plan": [{
      name: "net",
      after: { name: "net", gate: "net-wave-2", applied: true },
    }],
    "before-apply": [],
    "after-apply": [],
  });
  expect([dev.rest, prod.rest]).toEqual([false, true]);
});

Deno.test("normalise() resolves ops and inherits top-level settings", () => {
  const spec = parseSpec(
    JSON.stringify({
      name: "demo",
      op: "deploy",
      gate: "gates",
      base: "origin/main",
      planWave: ["p", "{runs}", "{plans}"],
      applyWave: ["a", "{runs}"],
      parallel: 3,
      onFailure: "stop",
      timeout: "15m",
      heartbeat: 0,
      pendingTtl: "2h",
      branches: ["main", "release"],
      runner: ["self-hosted", "linux"],
      notify: { webhook: "HOOK", key: "KEY" },
      pipeline: {
        image: "alpine",
        setup: [{ uses: "a/b@v1", with: { x: 1 } }],
      },
      waves: [
        { name: "one", runs: ["a", { target: "b", op: "migrate" }] },
        {
          name: "two",
          runs: ["c", "d"],
          gate: "never",
          parallel: 1,
          onFailure: "continue",
          timeout: 0,
          jobs: [{ name: "g", runs: ["*"], shares: 2, runner: "big" }],
          environment: { name: "prod", url: "https://x" },
          variables: { A: "1" },
          idTokens: { TOKEN: "sts" },
          runner: { group: "prod" },
        },
        {
          name: "three",
          runs: [],
          discover: true,
          timeout: "1h30m",
          shares: 2,
        },
      ],
    }),
    "w.json",
  );
  expect(spec.op).toBe("deploy");
  expect(spec.gate).toBe("gates");
  expect(spec.base).toBe("origin/main");
  expect(spec.plan).toStrictEqual({
    kind: "whole-wave",
    argv: ["p", "{runs}", "{plans}"],
  });
  expect(spec.apply).toStrictEqual({
    kind: "whole-wave",
    argv: ["a", "{runs}"],
  });
  expect(spec.heartbeatMs).toBe(0);
  expect(spec.pendingTtlMs).toBe(7_200_000);
  expect(spec.timeoutMs).toBe(900_000);
  expect(spec.pipeline).toStrictEqual({
    image: "alpine",
    setup: [{ uses: "a/b@v1", with: { x: 1 } }],
    variables: {},
  });
  const [one, two, three] = spec.waves;
  expect(one.runs).toEqual([{ target: "a", op: "deploy" }, {
    target: "b",
    op: "migrate",
  }]);
  expect([one.k, one.parallel, one.onFailure, one.timeoutMs]).toEqual([
    1,
    3,
    "stop",
    900_000,
  ]);
  expect([two.k, two.parallel, two.onFailure, two.timeoutMs]).toEqual([
    2,
    1,
    "continue",
    0,
  ]);
  expect(two.jobs).toEqual([{
    name: "g",
    runs: ["*"],
    shares: 2,
    runner: "big",
  }]);
  expect(two.runner).toEqual({ group: "prod" });
  expect(one.runner).toBeUndefined();
  expect([three.k, three.discover, three.runs, three.shares, three.timeoutMs])
    .toEqual([3, true, [], 2, 5_400_000]);
});

Deno.test("normalise() reads the wrapper's options as pipeline", () => {
  const spec = parseSpec(
    lines(
      "{",
      '  "$schema": "./waves.schema.json",',
      '  "waves": {',
      '    "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"],',
      '    "waves": [{ "name": "dev", "runs": ["a"] }]',
      "  },",
      '  "options": { "install": "curl … | sh", "variables": { "X": "1" } }',
      "}",
    ),
    "w.jsonc",
  );
  expect(spec.name).toBe("demo");
  expect(spec.waves.map((wave) => wave.name)).toEqual(["dev"]);
  expect(spec.pipeline).toStrictEqual({
    install: "curl … | sh",
    setup: [],
    variables: { X: "1" },
  });
});

Deno.test("normalise() gives the tool shorthand its default program", async (t) => {
  const toolOf = (tool: Record<string, unknown>) => {
    const spec = parseSpec(
      JSON.stringify({
        name: "tf",
        tool,
        waves: [{ name: "dev", runs: ["a"] }],
      }),
      "w.json",
    );
    expect(spec.apply).toStrictEqual(spec.plan);
    return spec.plan.kind === "tool" ? spec.plan.tool : undefined;
  };
  await t.step("tofu for opentofu", () => {
    expect(toolOf({ kind: "opentofu", dir: "live/{target}" })).toStrictEqual({
      kind: "opentofu",
      dir: "live/{target}",
      binary: "tofu",
      args: [],
    });
  });
  await t.step("terraform for terraform", () => {
    expect(toolOf({ kind: "terraform", dir: "." })?.binary).toBe("terraform");
  });
  await t.step("the spec's own program and arguments", () => {
    expect(
      toolOf({
        kind: "terraform",
        dir: "stacks/{target}",
        binary: "/opt/tf/terraform",
        args: ["-var-file={target}.tfvars", "-lock-timeout=5m"],
      }),
    ).toStrictEqual({
      kind: "terraform",
      dir: "stacks/{target}",
      binary: "/opt/tf/terraform",
      args: ["-var-file={target}.tfvars", "-lock-timeout=5m"],
    });
  });
});

Deno.test("normalise() gives sqitch its default program, client and verify, and keeps its target", () => {
  const spec = parseSpec(
    JSON.stringify({
      name: "tenants",
      tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
      waves: [{ name: "dev", runs: ["a"] }],
    }),
    "w.json",
  );
  expect(spec.plan).toStrictEqual({
    kind: "tool",
    tool: {
      kind: "sqitch",
      dir: "db",
      target: "db:pg:tenant_{target}",
      binary: "sqitch",
      client: "psql",
      verify: false,
    },
  });
});

Deno.test("normalise() gives each wave destructiveOverrides: its own, else the spec's, else ignore", () => {
  const spec = parseSpec(
    JSON.stringify({
      name: "tenants",
      tool: { kind: "sqitch", dir: "db", target: "db:pg:t_{target}" },
      destructiveOverrides: "honour",
      waves: [
        { name: "dev", runs: ["a"] },
        { name: "prod", runs: ["b"], destructiveOverrides: "ignore" },
      ],
    }),
    "w.json",
  );
  expect(spec.destructiveOverrides).toBe("honour");
  expect(spec.waves.map((wave) => wave.destructiveOverrides)).toEqual([
    "honour",
    "ignore",
  ]);
  const plain = parseSpec(
    JSON.stringify({
      name: "tenants",
      tool: { kind: "sqitch", dir: "db", target: "db:pg:t_{target}" },
      waves: [{ name: "dev", runs: ["a"] }],
    }),
    "w.json",
  );
  expect(plain.waves[0].destructiveOverrides).toBe("ignore");
});

Deno.test("normalise() reads soak, freeze and canary: a wave's own, else the top level's; windows of both", () => {
  const spec = parseSpec(
    JSON.stringify({
      name: "timed",
      plan: ["plan", "{plan}"],
      apply: ["apply", "{plan}"],
      soak: "2h",
      canary: 2,
      freeze: [{
        days: ["fri"],
        hours: "16:00-24:00",
        timezone: "Europe/Berlin",
      }],
      waves: [
        { name: "dev", runs: ["a"] },
        {
          name: "prod",
          runs: ["b"],
          soak: "30m",
          canary: 1,
          freeze: [{
            from: "2026-12-24",
            to: "2026-12-27T08:00",
            reason: "holidays",
          }],
        },
      ],
    }),
    "waves.json",
  );
  expect(spec.waves[0].soakMs).toBe(7_200_000);
  expect(spec.waves[0].canary).toBe(2);
  expect(spec.waves[0].freeze).toEqual([{
    kind: "weekly",
    days: ["fri"],
    hours: { from: 960, to: 1440 },
    timezone: "Europe/Berlin",
  }]);
  expect(spec.waves[1].soakMs).toBe(1_800_000);
  expect(spec.waves[1].canary).toBe(1);
  expect(spec.waves[1].freeze.map((w) => w.kind)).toEqual(["dated", "weekly"]);
  expect(spec.waves[1].freeze[0]).toEqual({
    kind: "dated",
    from: "2026-12-24",
    to: "2026-12-27T08:00",
    timezone: "UTC",
    reason: "holidays",
  });
});
