// End to end through the binary (issue 23, class 8, first half: "nothing
// secret is printed", SPEC.md §14): a token in a URL's user information or
// query (`?private_token=…`) reaches no line, no `--json` result and no record,
// whether it comes from the git ledger's remote, the CI environment, a note,
// a plan's summary or a step's output.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { BinaryResult } from "../_helpers/binary.ts";
import {
  approveLine,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const TOKENS = ["ci-s3cret", "glpat-s3cret", "pipeline-s3cret", "note-s3cret"];

/** Fails when any token shows in what a run printed. */
function expectNoToken(out: BinaryResult): void {
  for (const token of TOKENS) {
    expect(out.stdout).not.toContain(token);
    expect(out.stderr).not.toContain(token);
  }
}

Deno.test("a git ledger remote with a token in its URL is never printed with it", async (t) => {
  await using r = await rollout(specOf([PROD]));
  await r.repo.git(
    "remote",
    "add",
    "origin",
    "http://ci:ci-s3cret@127.0.0.1:1/x.git?private_token=glpat-s3cret&ref=main",
  );
  // git leaves the user information out of its message itself.
  const masked = "http://127.0.0.1:1/x.git?private_token=***&ref=***";
  const git = ["--ledger", "git"];
  const digest = `sha256:${"1".repeat(64)}`;
  const commands: [string, string[]][] = [
    ["run", ["run", ...SPEC, "--wave", "1", ...git]],
    ["run --json", ["run", ...SPEC, "--wave", "1", ...git, "--json"]],
    ["ledger pull", ["ledger", "pull", ...git]],
    ["ledger pull --json", ["ledger", "pull", ...git, "--json"]],
    [
      "approve --json",
      ["approve", "tf", "tf-wave-1", "--plan", digest, "--by", "ann", ...git]
        .concat("--json"),
    ],
  ];
  for (const [name, args] of commands) {
    await t.step(name, async () => {
      const out = await r.run(args);
      expect(out.code).not.toBe(0);
      expectNoToken(out);
      expect(out.stderr).toContain(`'${masked}'`);
      if (args.includes("--json")) {
        expect(JSON.parse(out.stdout).error).toContain(`'${masked}'`);
      }
    });
  }
});

Deno.test("tokens in CI URLs, notes, plans and step output reach no line, result or record", async (t) => {
  await using r = await rollout(specOf([PROD]));
  const remote = `${r.repo.root}/remote.git?private_token=glpat-s3cret`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", `file://${remote}`);
  await r.desire("eu", "see https://ci:ci-s3cret@tf.example/x?token=ci-s3cret");
  await r.control(
    "eu",
    "print",
    "fetching https://tf.example/mod?private_token=glpat-s3cret\n",
  );
  const ci = {
    GITLAB_CI: "true",
    CI_PIPELINE_ID: "7",
    CI_PIPELINE_URL:
      "https://gitlab.example/g/p/-/pipelines/7?private_token=pipeline-s3cret",
    GITLAB_USER_LOGIN: "carol",
  };
  const git = ["--ledger", "git"];

  await t.step("run, its log, its result and its records", async () => {
    const out = await r.run(
      ["run", ...SPEC, "--wave", "1", ...git, "--json"],
      ci,
    );
    expect(out.code).toBe(3);
    expectNoToken(out);
    expect(out.stderr).toContain(
      "[plan] eu | fetching https://tf.example/mod?private_token=***\n",
    );
    expect(out.stderr).toContain(
      "  eu: eu: see https://***@tf.example/x?token=***\n",
    );
    const decision = await Deno.readTextFile(
      `${r.path}/.chant/waves/tf/wave-1.json`,
    );
    expect(decision).toContain("see https://***@tf.example/x?token=***");
    expect(decision).not.toContain("s3cret");
  });

  await t.step("the GitHub job summary", async () => {
    const file = `${r.repo.root}/summary.md`;
    const out = await r.run(["run", ...SPEC, "--wave", "1", ...git], {
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: file,
    });
    expect(out.code).toBe(3);
    const summary = await Deno.readTextFile(file);
    // Masked, then escaped for Markdown (SPEC.md §14).
    expect(summary).toContain(
      "see https\\://\\*\\*\\*\\@&#8203;tf.example/x?token=\\*\\*\\*",
    );
    expect(summary).not.toContain("s3cret");
  });

  await t.step("approve --json, and the approval on the branch", async () => {
    const waiting = await r.run(["run", ...SPEC, "--wave", "1", ...git], ci);
    const out = await r.run([
      ...approveLine(waiting.stderr),
      "--by",
      "ann",
      "--note",
      "as agreed in https://chat.example/t?sig=note-s3cret",
      "--json",
    ], ci);
    expect(out.code).toBe(0);
    expectNoToken(out);
    const { record } = JSON.parse(out.stdout);
    expect(record).toMatchObject({
      url: "https://gitlab.example/g/p/-/pipelines/7?private_token=***",
      note: "as agreed in https://chat.example/t?sig=***",
    });
    expect(plannedDigest(waiting.stderr)).toBe(record.planDigest);
  });

  await t.step("nothing on the ledger branch holds a token", async () => {
    const files = await r.repo.gitIn(
      remote,
      "ls-tree",
      "-r",
      "--name-only",
      "chant/ledger",
    );
    const texts = await Promise.all(
      files.split("\n").map((file) =>
        r.repo.gitIn(remote, "show", `chant/ledger:${file}`)
      ),
    );
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const text of texts) expect(text).not.toContain("s3cret");
    expect(texts.join("\n")).toContain(
      '"url": "https://gitlab.example/g/p/-/pipelines/7?private_token=***"',
    );
  });

  await t.step("ledger log and show print none", async () => {
    for (
      const args of [
        ["ledger", "log", ...git],
        ["ledger", "log", ...git, "--json"],
        ["show", "tf", "tf-wave-1", ...git],
        ["status", ...SPEC, ...git, "--json"],
      ]
    ) {
      const out = await r.run(args);
      expect(out.code).toBe(0);
      expectNoToken(out);
    }
  });
});
