// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { BINARY, runBinary, tempDir } from "../_helpers/binary.ts";

const VERSION = JSON.parse(
  await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
).version;
const EXAMPLE = await Deno.readTextFile(
  new URL("../../examples/waves.jsonc", import.meta.url),
);

const GOOD = `// a spec with comments
{
  "name": "tf",
  "plan": ["tool", "plan", "{target}", "{plan}"],
  "apply": ["tool", "apply", "{plan}"],
  "waves": [
    { "name": "dev", "runs": ["dev"] },
    { "name": "prod", "runs": ["eu", "us", "ap"], "shares": 2, },
  ],
}
`;

const BAD = `{
  "name": "tf",
  "plan": ["tool", "plan", "{target}", "{plan}"],
  "apply": ["tool", "apply", "{plan}"],
  "waves": [
    { "name": "dev", "runs": ["dev"], "share": 2 },
    { "name": "prod", "runs": ["eu", "us", "eu"] }
  ]
}
`;

Deno.test("the e2e environment has no deno on PATH and no HOME", async () => {
  await using dir = await tempDir();
  const probe = await new Deno.Command("/usr/bin/env", {
    args: [
      "-i",
      "PATH=/usr/bin:/bin",
      "sh",
      "-c",
      'command -v deno || echo "none"; echo "HOME=${HOME-unset}"',
    ],
    cwd: dir.path,
  }).output();
  expect(new TextDecoder().decode(probe.stdout)).toBe("none\nHOME=unset\n");
  expect((await Deno.stat(BINARY)).isFile).toBe(true);
});

Deno.test("chant-wave --version prints the version alone", async () => {
  await using dir = await tempDir();
  expect(await runBinary(["--version"], { cwd: dir.path })).toEqual({
    code: 0,
    stdout: `${VERSION}\n`,
    stderr: "",
  });
});

Deno.test("chant-wave --help lists every command; each command has --help", async (t) => {
  await using dir = await tempDir();
  const help = await runBinary(["--help"], { cwd: dir.path });
  expect(help.code).toBe(0);
  for (
    const name of [
      "run",
      "approve",
      "revoke",
      "status",
      "check",
      "jobs",
      "pipeline",
      "schema",
      "ledger",
    ]
  ) {
    await t.step(name, async () => {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
      const own = await runBinary([name, "--help"], { cwd: dir.path });
      expect(own.code).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^usage: chant-wave ${name}`));
    });
  }
});

Deno.test("chant-wave check accepts a good JSONC spec", async () => {
  await using dir = await tempDir({ "waves.jsonc": GOOD });
  const result = await runBinary(["check", "--spec", "waves.jsonc"], {
    cwd: dir.path,
  });
  const ledger =
    "approval ledger: any approval in the ledger counts, and its approver is whoever --by names: code the change runs in a job can write one, so use sealed or forge for production waves";
  expect(result).toEqual({
    code: 0,
    stdout: "",
    stderr: "ok: waves.jsonc: 2 waves, 4 runs\n" +
      `  wave 1 "dev": gate always, ${ledger}\n` +
      `  wave 2 "prod": gate always, ${ledger}\n` +
      `  a click on GitHub: run the workflow "chant-wave tf approve"; it uses its own GITHUB_TOKEN (actions: write): nothing to set\n` +
      "  a click on GitLab: play the wave's manual job wave-<k>-<name>-approve-<i> in the pipeline; a click needs no token\n" +
      `  a click on Forgejo: run the workflow "chant-wave tf approve"; it needs a token with the write:repository scope as the secret CHANT_WAVE_FORGE_TOKEN\n`,
  });
  const json = await runBinary(["check", "--spec", "waves.jsonc", "--json"], {
    cwd: dir.path,
  });
  expect(JSON.parse(json.stdout)).toEqual({
    ok: true,
    file: "waves.jsonc",
    waves: 2,
    runs: 4,
  });
});

Deno.test("chant-wave check names each wave's approvers and the token a click needs on each forge", async () => {
  const spec = JSON.stringify({
    name: "tf",
    plan: ["p", "{target}", "{plan}"],
    apply: ["a", "{target}", "{plan}"],
    waves: [
      { name: "dev", gate: "never", runs: ["dev"] },
      {
        name: "prod",
        runs: ["eu"],
        approval: "forge",
        approvers: { required: 2 },
      },
    ],
  });
  await using dir = await tempDir({ "waves.json": spec });
  const result = await runBinary(["check", "--spec", "waves.json"], {
    cwd: dir.path,
  });
  expect(result.code).toBe(0);
  expect(result.stderr.split("\n").slice(1, 5)).toEqual([
    '  wave 2 "prod": gate always, 2 distinct approvers, approval forge: only approvals the forge confirms, or sealed ones, count: code the change runs in a job cannot make one',
    '  a click on GitHub: run the workflow "chant-wave tf approve"; it uses its own GITHUB_TOKEN (actions: write): nothing to set',
    "  a click on GitLab: play the wave's manual job wave-<k>-<name>-approve-<i> in the pipeline; its forge gates' jobs confirm each click through the API with GITLAB_TOKEN (a project access token with read_api, as a masked variable)",
    '  a click on Forgejo: run the workflow "chant-wave tf approve"; it needs a token with the write:repository scope as the secret CHANT_WAVE_FORGE_TOKEN',
  ]);
});

Deno.test("chant-wave check reports every problem, located, and exits 2", async () => {
  await using dir = await tempDir({ "waves.jsonc": BAD });
  const result = await runBinary(["check", "--spec", "waves.jsonc"], {
    cwd: dir.path,
  });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe(
    'error: waves.jsonc:6:39: wave 1 "dev": unknown field "share"; did you mean "shares"?\n' +
      '  waves.jsonc:7:44: wave 2 "prod" runs[2]: target "eu" appears twice\n',
  );
  const json = await runBinary(["check", "--spec", "waves.jsonc", "--json"], {
    cwd: dir.path,
  });
  expect(json.code).toBe(2);
  expect(JSON.parse(json.stdout).problems).toHaveLength(2);
});

Deno.test("chant-wave check names a JSONC syntax error's line and column", async () => {
  await using dir = await tempDir({
    "waves.jsonc": '{\n  "name": "x",\n  "waves": [ }\n',
  });
  const result = await runBinary(["check", "--spec", "waves.jsonc"], {
    cwd: dir.path,
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^error: waves\.jsonc:3:14: /);
  expect(result.stderr).not.toMatch(/at .*\.ts:/);
});

Deno.test("chant-wave check on a missing file is one line and exit 2", async () => {
  await using dir = await tempDir();
  const result = await runBinary(["check", "--spec", "nope.jsonc"], {
    cwd: dir.path,
  });
  expect(result).toEqual({
    code: 2,
    stdout: "",
    stderr: 'error: cannot read spec "nope.jsonc": no such file\n',
  });
});

Deno.test("chant-wave jobs --json expands the bundled example", async () => {
  await using dir = await tempDir({ "examples/waves.jsonc": EXAMPLE });
  const result = await runBinary([
    "jobs",
    "--spec",
    "examples/waves.jsonc",
    "--json",
  ], { cwd: dir.path });
  expect(result.code).toBe(0);
  const jobs = JSON.parse(result.stdout);
  expect(jobs.map((job: { name: string }) => job.name)).toEqual([
    "wave-1-dev",
    "wave-2-staging-decide",
    "wave-2-staging-share-1",
    "wave-2-staging-share-2",
    "wave-3-prod",
  ]);
  expect(jobs[4].needs).toEqual([
    "wave-2-staging-share-1",
    "wave-2-staging-share-2",
  ]);
  const table = await runBinary(["jobs", "--spec", "examples/waves.jsonc"], {
    cwd: dir.path,
  });
  expect(table.stdout).toMatch(
    /^JOB +KIND +WAVE +SHARE +GROUP +NEEDS +COMMAND\n/,
  );
  expect(table.stdout).toMatch(
    /\nwave-2-staging-share-1 +share +2 staging +1\/2 +- +wave-2-staging-decide +chant-wave run/,
  );
});

Deno.test("chant-wave refuses unknown commands and flags with a suggestion", async (t) => {
  await using dir = await tempDir({ "waves.jsonc": GOOD });
  const cases = [
    {
      args: ["chek"],
      stderr: 'error: unknown command "chek"; did you mean "check"?\n',
    },
    {
      args: ["check", "--sepc", "waves.jsonc"],
      stderr:
        'error: unknown flag "--sepc" for "check"; did you mean "--spec"?\n',
    },
    { args: ["check"], stderr: 'error: "check" needs "--spec"\n' },
    {
      args: ["check", "--spec"],
      stderr: 'error: flag "--spec" needs a value\n',
    },
  ];
  for (const c of cases) {
    await t.step(c.args.join(" "), async () => {
      expect(await runBinary(c.args, { cwd: dir.path })).toEqual({
        code: 2,
        stdout: "",
        stderr: c.stderr,
      });
    });
  }
});

Deno.test("chant-wave schema prints a JSON Schema", async () => {
  await using dir = await tempDir();
  const result = await runBinary(["schema"], { cwd: dir.path });
  expect(result.code).toBe(0);
  const schema = JSON.parse(result.stdout);
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(Object.keys(schema.$defs.Spec.properties)).toContain("waves");
});
