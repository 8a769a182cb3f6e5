// End to end through the binary: approver rules (SPEC.md §12.1): N distinct
// approvers, allowed principals, no self-approval, all read at base; share jobs
// count the tally again from the ledger; the git ledger counts the same.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import {
  approveLine,
  errorLines,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { TEST_USER } from "../_helpers/temp_repo.ts";
import { killMidApply, settledTargets } from "../_helpers/kill_mid_apply.ts";

const PROD = { name: "prod", runs: ["eu", "us"] };

Deno.test("required: 2 waits for two distinct approvers", async (t) => {
  await using r = await rollout(specOf([PROD], { approvers: { required: 2 } }));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  const approve = (by: string) =>
    r.run([...approveLine(waiting.stderr), "--by", by]);
  expect(waiting.stderr).toContain(
    'approvers of wave 1 "prod": 2 distinct approvers, anyone, self-approval allowed (read as the approval above)\n',
  );

  await t.step("one approval: 1 of 2", async () => {
    const approved = await approve("ann@example.com");
    expect(approved.code).toBe(0);
    expect(approved.stderr).toContain(
      `1 of 2 approvals of ${digest}: ann@example.com; waiting for another approver\n`,
    );
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `  1 of 2 approvals of ${digest}: ann@example.com\n`,
    );
  });

  await t.step(
    "show counts under the rules at base: not approved yet",
    async () => {
      const out = await r.run(["show", "tf", "tf-wave-1"]);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(
        `not approved yet: 1 of 2 approvals of ${digest}: ann@example.com\n`,
      );
      expect(out.stdout).toMatch(/^then approve: chant-wave approve tf /m);
      const json = await r.run(["show", "tf", "tf-wave-1", "--json"]);
      expect(JSON.parse(json.stdout).approved).toBe(false);
    },
  );

  await t.step(
    "resume counts under the rules at base: not approved",
    async () => {
      const out = await r.run(["resume", ...SPEC]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `tf-wave-1 of tf: not-approved: 1 of 2 approvals of ${digest}: ann@example.com\n`,
      );
    },
  );

  await t.step(
    "the same person again, in another case: still 1 of 2",
    async () => {
      expect((await approve(" Ann@Example.COM")).code).toBe(0);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `  1 of 2 approvals of ${digest}: ann@example.com\n`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step("a second person: the wave applies", async () => {
    expect((await approve("bob@example.com")).code).toBe(0);
    const shown = await r.run(["show", "tf", "tf-wave-1"]);
    expect(shown.stdout).toContain(
      "approved by ann@example.com, bob@example.com: a job goes on with these plans\n",
    );
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `gate tf-wave-1: approved by ann@example.com, bob@example.com for ${digest}`,
    );
    expect((await r.applied()).sort()).toEqual(["eu", "us"]);
    const decision = await r.readJson(".chant/waves/tf/wave-1.json");
    expect(decision.approvedBy).toBe("ann@example.com, bob@example.com");
  });

  await t.step("status shows the tally", async () => {
    const status = await r.run(["status", ...SPEC]);
    expect(status.stdout).toContain(
      `  tally: 2 of 2 approvals of ${
        digest.slice(0, 19)
      }: ann@example.com, bob@example.com (approved)\n`,
    );
    expect(status.stdout).toContain(
      "  rules: ledger, 2 distinct approvers, anyone, self-approval allowed (read at ",
    );
    expect(status.stdout).toMatch(
      /^ {2}rules: ledger, .*\); any approval in the ledger counts, and its approver is whoever --by names: code the change runs in a job can write one, so use sealed or forge for production waves$/m,
    );
    const json = JSON.parse(
      (await r.run(["status", ...SPEC, "--json"])).stdout,
    );
    expect(json.waves[0].tally).toEqual({
      digest,
      approved: true,
      required: 2,
      counted: ["ann@example.com", "bob@example.com"],
      refused: [],
    });
  });
});

Deno.test("required: 2 after a runner died mid-apply: the plan needs two approvals not used for it before", async (t) => {
  await using r = await rollout(specOf([PROD], { approvers: { required: 2 } }));
  // eu applies and then plans empty, as with a real tool; us's apply hangs.
  await r.control("eu", "apply-desire", "empty");
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  for (const by of ["ann", "bob"]) {
    expect((await r.run([...approveLine(waiting.stderr), "--by", by])).code)
      .toBe(0);
  }
  await killMidApply(r, "us", {
    until: {
      what: "eu's outcome",
      check: async () => (await settledTargets(r, "tf-wave-1")).includes("eu"),
    },
  });
  const claimedLine =
    /^failed: us: already claimed under this approval by decision \S+ \(claim \S+ at \S+, no outcome yet\); if that job died, approve the plan again$/m;
  const after = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(after.code).toBe(1);
  expect(after.stderr).toMatch(claimedLine);
  const digest = plannedDigest(after.stderr);
  expect(after.stderr).toContain(
    `  to claim it again: 0 of 2 approvals of ${digest}; not counted: ann (used for us before), bob (used for us before)\n`,
  );
  const again = after.stderr.match(
    /^if that job died, then approve: chant-wave (.+)$/m,
  )![1].split(" ");

  await t.step("one fresh approval is 1 of 2: us is not applied", async () => {
    expect((await r.run([...again, "--by", "carol"])).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(claimedLine);
    expect(out.stderr).toContain(
      `  to claim it again: 1 of 2 approvals of ${digest}: carol; not counted: ann (used for us before), bob (used for us before)\n`,
    );
    expect(await r.applied()).toEqual(["eu"]);
  });

  await t.step("an old approver approving again counts afresh", async () => {
    expect((await r.run([...again, "--by", "ann"])).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `gate tf-wave-1: approved by carol, ann for ${digest}`,
    );
    expect(await r.applied()).toEqual(["eu", "us"]);
  });
});

Deno.test("an approver's clone without the waiting job's HEAD judges with it: fetched, or says what to fetch", async (t) => {
  await using r = await rollout(
    specOf([PROD], { approvers: { required: 2, selfApproval: false } }),
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", `${r.head}:refs/heads/main`);
  const approver = `${r.repo.root}/approver`;
  await r.repo.gitIn(
    r.repo.root,
    "clone",
    "-q",
    "-b",
    "main",
    remote,
    approver,
  );
  // dana's change: the runner's HEAD, which the approver's clone lacks.
  await r.desire("eu", "v2");
  await r.repo.git("add", "-A");
  await r.repo.git(
    "commit",
    "-q",
    "--author=Dana <dana@example.com>",
    "-m",
    "dana's change",
  );
  const head = await r.repo.git("rev-parse", "HEAD");
  const git = ["--ledger", "git"];
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  const inApprover = (args: string[]) => runBinary(args, { cwd: approver });
  const tally =
    `1 of 2 approvals of ${digest}: ann@example.com; not counted: dana@example.com (the change's author)`;

  await t.step(
    "the remote lacks it too: each says so, and what to fetch",
    async () => {
      const cannot = new RegExp(
        `the waiting job's HEAD ${
          head.slice(0, 12)
        } is not in this checkout, and fetching it from "origin" failed \\(.+\\); fetch it \\(git fetch origin ${head}\\) and run this again$`,
        "m",
      );
      const ann = await inApprover([
        ...approveLine(waiting.stderr),
        "--by",
        "ann@example.com",
      ]);
      expect(ann.code).toBe(0);
      expect(ann.stderr).toMatch(
        new RegExp(
          `^note: not checked against the rules at base: ${cannot.source}`,
          "m",
        ),
      );
      expect(ann.stderr).not.toMatch(/approvals of/);
      const shown = await inApprover(["show", ...SPEC, "--wave", "1", ...git]);
      expect(shown.stdout).toMatch(
        new RegExp(`^not judged here: ${cannot.source}`, "m"),
      );
      expect(shown.stdout).not.toContain("approved by");
      const status = await inApprover(["status", ...SPEC, ...git]);
      expect(status.stdout.trimEnd().split("\n").at(-1)).toMatch(
        new RegExp(
          `^next: wave 1 "prod" waits for ${
            digest.slice(0, 19)
          }, whose approvals cannot be judged here: ${cannot.source}`,
        ),
      );
    },
  );

  await t.step(
    "the remote has it: fetched, and the author is not counted",
    async () => {
      await r.repo.git("push", "-q", "origin", `${head}:refs/heads/change`);
      const dana = await inApprover([
        ...approveLine(waiting.stderr),
        "--by",
        "dana@example.com",
      ]);
      expect(dana.code).toBe(0);
      expect(dana.stderr).toContain(
        "warning: this approval will not count: the change's author (",
      );
      const shown = await inApprover(["show", ...SPEC, "--wave", "1", ...git]);
      expect(shown.stdout).toContain(`not approved yet: ${tally}\n`);
      const status = await inApprover(["status", ...SPEC, ...git]);
      expect(status.stdout).toContain(
        `  tally: 1 of 2 approvals of ${
          digest.slice(0, 19)
        }: ann@example.com; not counted: dana@example.com (the change's author)\n`,
      );
      expect(status.stdout).toMatch(/^next: review and approve wave 1 "prod"/m);
      const run = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`  ${tally}\n`);
    },
  );
});

Deno.test("allowed: an approver outside the patterns does not count, and is told so", async () => {
  await using r = await rollout(
    specOf([PROD], { approvers: { allowed: ["*@platform.example"] } }),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  const digest = plannedDigest(waiting.stderr);
  const outside = await r.run([
    ...approveLine(waiting.stderr),
    "--by",
    "ann@example.com",
  ]);
  expect(outside.code).toBe(0);
  expect(outside.stderr).toContain(
    "warning: this approval will not count: not in approvers.allowed (the rules at ",
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `  0 of 1 approval of ${digest}; not counted: ann@example.com (not in approvers.allowed)\n`,
  );
  await r.run([...approveLine(waiting.stderr), "--by", "Bob@Platform.Example"]);
  const applied = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(applied.code).toBe(0);
  expect(applied.stderr).toContain("approved by Bob@Platform.Example for");
  await using elsewhere = await tempDir();
  const outsider = await runBinary([
    ...approveLine(waiting.stderr),
    "--by",
    "ann@example.com",
    "--ledger",
    `${r.path}/.chant/ledger`,
  ], { cwd: elsewhere.path });
  expect(outsider.code).toBe(0);
  expect(outsider.stderr).toContain(
    `note: not checked against the rules at base: "${elsewhere.path}" is not in a git repository\n`,
  );
});

Deno.test("selfApproval: false: the change's author and the CI actor of a job that ran it do not count", async (t) => {
  await using r = await rollout(
    specOf([PROD], { approvers: { selfApproval: false } }),
  );
  const ci = {
    GITHUB_ACTIONS: "true",
    GITHUB_ACTOR: "carol",
    GITHUB_RUN_ID: "7",
  };
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"], ci);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  const pending = (await r.records("tf-wave-1"))
    .find((record) => record.kind === "pending");
  expect(pending).toMatchObject({ actor: "carol", head: r.head });

  await t.step("the author of the head commit", async () => {
    const mine = await r.run([
      ...approveLine(waiting.stderr),
      "--by",
      TEST_USER.email,
    ]);
    expect(mine.stderr).toContain(
      "warning: this approval will not count: the change's author (",
    );
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `  0 of 1 approval of ${digest}; not counted: ${TEST_USER.email} (the change's author)\n`,
    );
  });

  await t.step("the CI actor of the waiting job", async () => {
    await r.run([...approveLine(waiting.stderr), "--by", "carol"]);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      "carol (started the job that ran this change)",
    );
  });

  await t.step("another person counts", async () => {
    await r.run([...approveLine(waiting.stderr), "--by", "dave@example.com"]);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("approved by dave@example.com for");
  });
});

Deno.test("a change cannot lower the rules that guard it", async (t) => {
  await t.step("required lowered to 1 at HEAD: still 2", async () => {
    await using r = await rollout(
      specOf([{ ...PROD, approvers: { required: 2 } }]),
      { headSpec: specOf([{ ...PROD, approvers: { required: 1 } }]) },
    );
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
    await r.run([...approveLine(waiting.stderr), "--by", "ann"]);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain("  1 of 2 approvals of ");
  });

  await t.step(
    "selfApproval: false removed at HEAD: still refused",
    async () => {
      await using r = await rollout(
        specOf([PROD], { approvers: { selfApproval: false } }),
        { headSpec: specOf([PROD]) },
      );
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      await r.run([...approveLine(waiting.stderr), "--by", TEST_USER.name]);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `not counted: ${TEST_USER.name} (the change's author)\n`,
      );
    },
  );

  await t.step(
    "a renamed wave is still governed by the base wave's rules",
    async () => {
      await using r = await rollout(
        specOf([{ ...PROD, approvers: { required: 2 } }]),
        { headSpec: specOf([{ ...PROD, name: "production" }]) },
      );
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      await r.run([...approveLine(waiting.stderr), "--by", "ann"]);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain("  1 of 2 approvals of ");
    },
  );
});

Deno.test("a share job counts the tally from the ledger, not the decision record", async (t) => {
  await using r = await rollout(
    specOf([{ ...PROD, shares: 2 }], { approvers: { required: 2 } }),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(waiting.code).toBe(3);
  await r.run([...approveLine(waiting.stderr), "--by", "ann"]);
  const path = `${r.path}/.chant/waves/tf/wave-1.json`;

  await t.step(
    "a record forged to say approved is refused, exit 2",
    async () => {
      const decision = JSON.parse(await Deno.readTextFile(path));
      const ann = (await r.records("tf-wave-1"))
        .find((record) => record.kind === "approval")!;
      await Deno.writeTextFile(
        path,
        JSON.stringify({
          ...decision,
          status: "approved",
          approvedBy: "ann, bob",
          approvalId: ann.id,
        }),
      );
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
      expect(out.code).toBe(2);
      expect(errorLines(out.stderr)).toEqual([
        "error: the decision record .chant/waves/tf/wave-1.json does not match the ledger; run the deciding job again",
      ]);
      expect(out.stderr).toContain(
        `  the ledger does not approve its plans: 1 of 2 approvals of ${decision.digest}: ann\n`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step("with a second approver both shares apply", async () => {
    await r.run([...approveLine(waiting.stderr), "--by", "bob"]);
    expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
      .toBe(0);
    for (const share of ["1", "2"]) {
      const out = await r.run([
        "run",
        ...SPEC,
        "--wave",
        "1",
        "--share",
        share,
      ]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        'approvers of wave 1 "prod": 2 distinct approvers',
      );
    }
    expect((await r.applied()).sort()).toEqual(["eu", "us"]);
  });
});

Deno.test("the git ledger counts distinct approvers the same way, and records an approver once", async () => {
  await using r = await rollout(specOf([PROD], { approvers: { required: 2 } }));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const git = ["--ledger", "git"];
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  await r.run([...approveLine(waiting.stderr), "--by", "ann", ...git]);
  // ann again: her approval counts already, so nothing new is recorded.
  const again = await r.run([
    ...approveLine(waiting.stderr),
    "--by",
    "ann",
    ...git,
  ]);
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(
    new RegExp(
      `^ann approved ${digest} already at \\S+Z; 1 of 2 approvals$`,
      "m",
    ),
  );
  expect(again.stderr).not.toContain("approved tf-wave-1 of tf");
  const once = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  expect(once.code).toBe(3);
  expect(once.stderr).toContain(`  1 of 2 approvals of ${digest}: ann\n`);
  await r.run([...approveLine(waiting.stderr), "--by", "bob", ...git]);
  const out = await r.run(["run", ...SPEC, "--wave", "1", ...git]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(`approved by ann, bob for ${digest}`);
  const onRemote = await r.repo.gitIn(
    remote,
    "ls-tree",
    "-r",
    "--name-only",
    "chant/ledger",
  );
  // The record files, not their sequence numbers' entries beside them.
  expect(
    onRemote.split("\n").filter((f) =>
      f.includes("-approval-") && !f.includes("/order/")
    ),
  ).toHaveLength(2);
});

Deno.test("the specs of sealed approvals and approver rules in docs/approvals.md pass check", async (t) => {
  const page = await Deno.readTextFile(
    new URL("../../docs/approvals.md", import.meta.url),
  );
  for (const title of ["## Sealed approvals", "## Approver rules"]) {
    await t.step(title, async () => {
      const section = page.slice(page.indexOf(title));
      const spec = section.match(/```jsonc\n([\s\S]*?)```/)?.[1];
      expect(spec).toContain('"approval": "sealed"');
      await using dir = await tempDir({ "waves.jsonc": spec! });
      const out = await runBinary(["check", "--spec", "waves.jsonc"], {
        cwd: dir.path,
      });
      expect({ ...out, stderr: out.stderr.split("\n")[0] }).toEqual({
        code: 0,
        stdout: "",
        stderr: "ok: waves.jsonc: 2 waves, 3 runs",
      });
    });
  }
});
