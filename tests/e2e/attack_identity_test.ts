// End to end through the binary, as an attacker would try it (issue 23, class
// 4: "a person is a key, and commit metadata proves nothing", SPEC.md §12,
// §12.1). One key listed for two principals is one approver; an author who
// commits under a bot's name and starts the job herself cannot approve her own
// change, whether she signs with a key listed beside her forge login or names
// herself on a ledger gate.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  approveLine,
  plannedDigest,
  type Rollout,
  rollout,
  sealedApproveLine,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { makeKey } from "../_helpers/ssh_key.ts";

const PROD = { name: "prod", runs: ["eu"] };
const SIGNERS = ".chant-wave/allowed_signers";
/** The environment of a GitHub Actions job that `login` started. */
const startedBy = (login: string) => ({
  GITHUB_ACTIONS: "true",
  GITHUB_ACTOR: login,
  GITHUB_RUN_ID: "7",
});

/** Rewrites HEAD as authored and committed by a bot, as a pusher may. */
async function commitAsBot(r: Rollout): Promise<void> {
  const bot = { name: "release-bot", email: "bot@example.com" };
  const out = await new Deno.Command("git", {
    args: [
      "commit",
      "-q",
      "--amend",
      "--allow-empty",
      "--no-edit",
      "--reset-author",
    ],
    cwd: r.path,
    env: {
      ...r.repo.env,
      GIT_AUTHOR_NAME: bot.name,
      GIT_AUTHOR_EMAIL: bot.email,
      GIT_COMMITTER_NAME: bot.name,
      GIT_COMMITTER_EMAIL: bot.email,
    },
    clearEnv: true,
  }).output();
  expect(out.success).toBe(true);
  const who = await r.repo.git("log", "-1", "--format=%an <%ae> / %cn <%ce>");
  expect(who).toBe(
    "release-bot <bot@example.com> / release-bot <bot@example.com>",
  );
}

Deno.test("one key listed for two principals is one approver", async (t) => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  const cy = await makeKey(keys.path, "cy");
  await using r = await rollout(
    specOf([PROD], { approval: "sealed", approvers: { required: 2 } }),
    {
      files: {
        [SIGNERS]: `ann@example.com ${ann.publicKey}\n` +
          `bob@example.com ${ann.publicKey}\n` +
          `cy@example.com ${cy.publicKey}\n`,
      },
    },
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  const approve = (by: string, key: string) =>
    r.run([...sealedApproveLine(waiting.stderr), "--by", by, "--sign", key]);

  await t.step("signed as both principals: 1 of 2", async () => {
    expect((await approve("ann@example.com", ann.path)).code).toBe(0);
    expect((await approve("bob@example.com", ann.path)).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `  1 of 2 approvals of ${digest}: ann@example.com; not counted: bob@example.com (the same key as ann@example.com)\n`,
    );
    expect(await r.applied()).toEqual([]);
  });

  await t.step("status counts the same way", async () => {
    const status = await r.run(["status", ...SPEC]);
    expect(status.stdout).toContain(
      `  tally: 1 of 2 approvals of ${
        digest.slice(0, 19)
      }: ann@example.com; not counted: bob@example.com (the same key as ann@example.com)\n`,
    );
  });

  await t.step("a second person's key: the wave applies", async () => {
    expect((await approve("cy@example.com", cy.path)).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `gate tf-wave-1: approved by ann@example.com, cy@example.com for ${digest}`,
    );
    expect(await r.applied()).toEqual(["eu"]);
  });
});

Deno.test("an author who commits under a bot's name cannot approve her own change", async (t) => {
  await t.step(
    "sealed: her key is listed beside her forge login",
    async () => {
      await using keys = await tempDir();
      const dana = await makeKey(keys.path, "dana");
      const erin = await makeKey(keys.path, "erin");
      await using r = await rollout(
        specOf([PROD], {
          approval: "sealed",
          approvers: { selfApproval: false },
        }),
        {
          files: {
            [SIGNERS]: `dana@example.com,login:dana ${dana.publicKey}\n` +
              `erin@example.com ${erin.publicKey}\n`,
          },
        },
      );
      await commitAsBot(r);
      const waiting = await r.run(
        ["run", ...SPEC, "--wave", "1"],
        startedBy("dana"),
      );
      expect(waiting.code).toBe(3);
      const digest = plannedDigest(waiting.stderr);
      const signed = await r.run([
        ...sealedApproveLine(waiting.stderr),
        "--by",
        "dana@example.com",
        "--sign",
        dana.path,
      ]);
      expect(signed.code).toBe(0);
      expect(signed.stderr).toContain(
        "warning: this approval will not count: started the job that ran this change, as login:dana (",
      );
      const out = await r.run(
        ["run", ...SPEC, "--wave", "1"],
        startedBy("dana"),
      );
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `  0 of 1 approval of ${digest}; not counted: dana@example.com (started the job that ran this change, as login:dana)\n`,
      );
      expect(await r.applied()).toEqual([]);

      await r.run([
        ...sealedApproveLine(waiting.stderr),
        "--by",
        "erin@example.com",
        "--sign",
        erin.path,
      ]);
      const applied = await r.run(
        ["run", ...SPEC, "--wave", "1"],
        startedBy("dana"),
      );
      expect(applied.code).toBe(0);
      expect(applied.stderr).toContain("approved by erin@example.com for");
      expect(await r.applied()).toEqual(["eu"]);
    },
  );

  await t.step(
    "ledger: she approves while another actor's pending fact stands, then runs the job",
    async (t) => {
      await using r = await rollout(
        specOf([PROD], { approvers: { selfApproval: false } }),
      );
      await commitAsBot(r);
      const first = await r.run(
        ["run", ...SPEC, "--wave", "1"],
        startedBy("carol"),
      );
      expect(first.code).toBe(3);
      const digest = plannedDigest(first.stderr);
      for (const by of ["dana", "login:Dana"]) {
        expect((await r.run([...approveLine(first.stderr), "--by", by])).code)
          .toBe(0);
      }
      const out = await r.run(
        ["run", ...SPEC, "--wave", "1"],
        startedBy("dana"),
      );
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `  0 of 1 approval of ${digest}; not counted: dana (started the job that ran this change), login:Dana (started the job that ran this change)\n`,
      );
      expect(await r.applied()).toEqual([]);
      const pending = (await r.records("tf-wave-1"))
        .filter((record) => record.kind === "pending")
        .map((record) => record.actor);
      expect(pending).toEqual(["carol", "dana"]);

      await t.step(
        "a job another actor starts still refuses her: her job recorded her",
        async () => {
          const again = await r.run(
            ["run", ...SPEC, "--wave", "1"],
            startedBy("carol"),
          );
          expect(again.code).toBe(3);
          expect(again.stderr).toContain(
            "not counted: dana (started the job that ran this change)",
          );
        },
      );
    },
  );
});
