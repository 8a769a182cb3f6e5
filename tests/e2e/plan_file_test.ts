// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";

const PLANS = new URL("../fixtures/terraform-plans/", import.meta.url);

function fixture(name: string): string {
  return Deno.readTextFileSync(new URL(name, PLANS));
}

const TAINTED = {
  planDigest:
    "sha256:824b2271a2357a10f3e8c0355853ab3075965b30a935761e50553cc1125d7c5a",
  destructive: true,
  empty: false,
  summary:
    "1 to add, 0 to change, 1 to destroy (replace null_resource.example: tainted)",
  changes: [{ address: "null_resource.example", action: "replace" }],
};

Deno.test("chant-wave plan-file writes the plan file of a saved plan", async (t) => {
  await using dir = await tempDir({
    "show.json": fixture("action_reason.json"),
  });
  await t.step("as a file, with one line on stderr", async () => {
    const result = await runBinary(
      ["plan-file", "terraform", "show.json", "out/plan.json"],
      { cwd: dir.path },
    );
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr: `wrote "out/plan.json": ${TAINTED.summary}\n`,
    });
    const text = await Deno.readTextFile(`${dir.path}/out/plan.json`);
    expect(JSON.parse(text)).toEqual(TAINTED);
    expect(text.endsWith("}\n")).toBe(true);
  });
  await t.step("and on stdout with --json", async () => {
    const result = await runBinary(
      ["plan-file", "opentofu", "show.json", "plan.json", "--json"],
      { cwd: dir.path },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(TAINTED);
  });
});

Deno.test("chant-wave plan-file never prints a sensitive value", async () => {
  const doc = JSON.parse(fixture("110_sensitive_values.json"));
  doc.output_changes.foo.after = "hunter2-secret";
  await using dir = await tempDir({ "show.json": JSON.stringify(doc) });
  const result = await runBinary(
    ["plan-file", "opentofu", "show.json", "plan.json", "--json"],
    { cwd: dir.path },
  );
  expect(result.code).toBe(0);
  expect(result.stdout + result.stderr).not.toContain("hunter2");
  expect(await Deno.readTextFile(`${dir.path}/plan.json`)).not.toContain(
    "hunter2",
  );
});

Deno.test("chant-wave plan-file refuses bad input with one line and exit 2", async (t) => {
  await using dir = await tempDir({
    "show.json": "Error: No configuration files\n",
    "state.json": '{"format_version":"1.0","values":{}}',
    "plan.json": "the old plan file\n",
  });
  const cases: { name: string; args: string[]; stderr: string }[] = [
    {
      name: "not JSON",
      args: ["opentofu", "show.json", "plan.json"],
      stderr:
        'error: "show.json" is not JSON: unexpected character "E" at line 1, column 1\n',
    },
    {
      name: "a state",
      args: ["opentofu", "state.json", "plan.json"],
      stderr:
        'error: "state.json" is a state, not a plan: give it the output of "show -json" on the saved plan file\n',
    },
    {
      name: "a missing file",
      args: ["terraform", "nope.json", "plan.json"],
      stderr: 'error: cannot read "nope.json": no such file\n',
    },
    {
      name: "a directory",
      args: ["terraform", ".", "plan.json"],
      stderr: 'error: cannot read ".": it is not a regular file\n',
    },
    {
      name: "an unknown tool",
      args: ["opentofo", "show.json", "plan.json"],
      stderr:
        'error: unknown tool "opentofo": use opentofu, terraform or sqitch; did you mean "opentofu"?\n',
    },
    {
      name: "too few words",
      args: ["opentofu", "show.json"],
      stderr:
        'error: "plan-file" needs the tool, SHOW_JSON and PLAN_FILE (e.g. "chant-wave plan-file opentofu show.json plan.json"); got "opentofu show.json"\n',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const result = await runBinary(["plan-file", ...c.args], {
        cwd: dir.path,
      });
      expect(result).toEqual({ code: 2, stdout: "", stderr: c.stderr });
      expect(await Deno.readTextFile(`${dir.path}/plan.json`)).toBe(
        "the old plan file\n",
      );
    });
  }
  await t.step("a FIFO, without blocking on it", async () => {
    const mkfifo = new Deno.Command("mkfifo", {
      args: ["pipe.json"],
      cwd: dir.path,
    });
    expect((await mkfifo.output()).code).toBe(0);
    const result = await runBinary(
      ["plan-file", "opentofu", "pipe.json", "plan.json"],
      { cwd: dir.path },
    );
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: 'error: cannot read "pipe.json": it is not a regular file\n',
    });
  });
});

Deno.test("chant-wave plan-file --help shows an example", async () => {
  await using dir = await tempDir();
  const result = await runBinary(["plan-file", "--help"], { cwd: dir.path });
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(
    /^usage: chant-wave plan-file opentofu\|terraform SHOW_JSON PLAN_FILE/,
  );
  expect(result.stdout).toContain(
    'chant-wave plan-file opentofu prod.show.json "$CHANT_WAVE_PLAN"',
  );
  const overview = await runBinary(["--help"], { cwd: dir.path });
  expect(overview.stdout).toMatch(/^ {2}plan-file +turn an OpenTofu/m);
});
