// End to end through the binary against a fake GitHub and a fake Forgejo
// (real HTTP, SPEC.md §13.1): a wave under `approval: "forge"` waits (exit 3);
// the approve workflow's job, its step as `chant-wave pipeline` rendered it,
// records the dispatcher's approval via the run and resumes the waiting job.
// On GitHub a writer's dispatch then applies: the waiting job's re-run
// confirms the run through the API. Each of these does not count, and the
// re-run still waits and says why: a bot's dispatch, the change's author's
// under `selfApproval: false`, a record naming a run that asked for another
// digest, a record naming a run the forge does not know, a run that did not
// succeed. On Forgejo, whose runs never show their run-name, even a writer's
// dispatch is reported and ignored (as the README says). With two approvers
// on GitHub each dispatch is one approver's: the first ends green waiting for
// another approver and resumes nothing, the same person again records
// nothing new, and the second approver's resumes the run, which applies.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type ClickWorld, clickWorld } from "../_helpers/click_world.ts";
import { plannedDigest } from "../_helpers/rollout.ts";

const PROD = [{
  name: "prod",
  gate: "always",
  runs: ["eu"],
  approval: "forge",
  approvers: { selfApproval: false },
}];
const OTHER = `sha256:${"b".repeat(64)}`;
const SERVER = {
  github: "https://github.com",
  forgejo: "https://forgejo.example",
} as const;
const FORGEJO =
  "a Forgejo run is titled with its workflow's name, not with its run-name, so the wave and digest it asked for cannot be confirmed";

/**
 * The waiting job runs again: it still waits, and its tally says why `by`'s
 * approval does not count (a refusal by the forge is also logged on its own).
 */
async function stillWaits(
  w: ClickWorld,
  by: string,
  why: string,
  byForge = true,
) {
  const out = await w.waveJob();
  expect({ code: out.code, applied: await w.r.applied() }).toEqual({
    code: 3,
    applied: [],
  });
  const tally = out.stderr.match(/^ {2}0 of 1 approval of .*$/m)?.[0];
  expect(tally).toContain(`not counted: `);
  expect(tally).toContain(`${by} (${why})`);
  if (byForge) {
    expect(out.stderr).toContain(
      `gate tf-wave-1: the approval by ${by} does not count: ${why}\n`,
    );
  }
  expect(w.fake.protocolErrors).toEqual([]);
}

for (const forge of ["github", "forgejo"] as const) {
  const github = forge === "github";
  Deno.test(`the approve workflow's dispatch on ${forge}: only a writer's, confirmed by the forge, approves`, async (t) => {
    await using w = await clickWorld(forge, PROD);
    const run = (id: string) =>
      `${SERVER[forge]}/octo/hello/actions/runs/${id}`;
    const waiting = await w.waveJob();
    expect(waiting.code).toBe(3);
    const digest = plannedDigest(waiting.stderr);
    const ledgerApprove = (by: string, via: string) =>
      w.approve([
        "approve",
        "tf",
        "tf-wave-1",
        "--plan",
        digest,
        "--by",
        by,
        "--via",
        via,
        "--ledger",
        "git",
      ]);

    await t.step("a bot's dispatch does not count", async () => {
      const bot = github ? "github-actions[bot]" : "forgejo-actions";
      const out = await w.dispatch({
        id: "11",
        actor: bot,
        wave: "1",
        digest,
        run: { bot: true },
      });
      expect(out.code).toBe(0);
      await stillWaits(w, bot, `run 11: ${bot} is a bot`);
    });

    await t.step(
      "the change's author's dispatch does not count under selfApproval: false",
      async () => {
        const out = await w.dispatch({
          id: "12",
          actor: "eve",
          wave: "1",
          digest,
        });
        expect(out.code).toBe(0);
        const why = github
          ? "started the job that ran this change"
          : `run 12: ${FORGEJO}`;
        expect(out.stderr).toContain(
          `warning: this approval will not count: ${why} (the rules at `,
        );
        // Short of approvals, the approve job resumes nothing, and says so.
        const tally = out.stderr.match(/^0 of 1 approval of .*$/m)?.[0];
        expect(tally).toMatch(
          new RegExp(`^0 of 1 approval of ${digest}; not counted: `),
        );
        expect(tally).toContain(
          `eve (${why}); waiting for another approver`,
        );
        expect(out.stderr).not.toContain("resumed");
        await stillWaits(w, "eve", why, !github);
      },
    );

    await t.step(
      "a dispatch for another digest approves that one; a record naming it for this one does not count",
      async () => {
        const out = await w.dispatch({
          id: "13",
          actor: "ann",
          wave: "1",
          digest: OTHER,
        });
        expect(out.code).toBe(0);
        expect(out.stderr).toContain(
          `warning: gate "tf-wave-1" waits for ${digest}, not ${OTHER}; this approval covers only the plans of ${OTHER}\n`,
        );
        const forged = await ledgerApprove("ann", run("13"));
        expect(forged.code).toBe(0);
        // The forged record names the run the real one names: one action
        // approves once, so neither counts, whatever the run asked for.
        await stillWaits(
          w,
          "ann",
          "run 13 is named by another approval record too; one action approves once",
        );
      },
    );

    await t.step(
      "a record naming a run the forge does not know does not count",
      async () => {
        expect((await ledgerApprove("ann", run("999"))).code).toBe(0);
        await stillWaits(
          w,
          "ann",
          "it names run 999, which the forge does not know",
        );
      },
    );

    await t.step("a run that did not succeed does not count", async () => {
      const out = await w.dispatch({
        id: "14",
        actor: "ann",
        wave: "1",
        digest,
        run: { conclusion: "failure" },
      });
      expect(out.code).toBe(0);
      await stillWaits(w, "ann", "run 14 did not succeed");
    });

    await t.step(
      github
        ? "a writer's dispatch approves, resumes the waiting run, and its re-run applies"
        : "a writer's dispatch is reported and ignored: Forgejo cannot confirm what it asked for",
      async () => {
        w.fake.state.reruns.length = 0;
        const out = await w.dispatch({
          id: "15",
          actor: "ann",
          wave: "1",
          digest,
        });
        expect(out.code).toBe(0);
        expect(out.stderr).toContain(
          `approved tf-wave-1 of tf for ${digest} by ann\n`,
        );
        expect(out.stderr).toContain(`  via ${run("15")}\n`);
        if (!github) {
          expect(out.stderr).toContain(
            `warning: this approval will not count: run 15: ${FORGEJO} (the rules at `,
          );
          expect(w.fake.state.dispatches).toEqual([]);
          await stillWaits(w, "ann", `run 15: ${FORGEJO}`);
          return;
        }
        expect(out.stderr).toContain(
          `note: the gate's CI job counts it once the forge confirms ${
            run("15")
          }\n`,
        );
        expect(out.stderr).toMatch(
          /^tf-wave-1 of tf: resumed: re-ran every job of run 5 \(attempt \d+\)$/m,
        );
        expect(w.fake.state.reruns).toEqual(["5 (every job)"]);
        const resumed = await w.waveJob();
        expect(resumed.code).toBe(0);
        expect(resumed.stderr).toContain(
          `gate tf-wave-1: approved by ann for ${digest} (the policy is "always")\n`,
        );
        expect(await w.r.applied()).toEqual(["eu"]);
        expect(w.fake.requests.map((r) => `${r.method} ${r.path}`))
          .toContain("GET /repos/octo/hello/actions/runs/15");
        expect(w.fake.protocolErrors).toEqual([]);
      },
    );
  });
}

Deno.test("the approve workflow with two approvers on github: each dispatch is one approver's, the first ends green waiting, the last resumes", async (t) => {
  await using w = await clickWorld("github", [{
    ...PROD[0],
    approvers: { required: 2 },
  }]);
  const waiting = await w.waveJob();
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  const click = (id: string, actor: string) =>
    w.dispatch({ id, actor, wave: "1", digest });
  expect(waiting.stderr).toContain(
    `approve on GitHub: run the workflow "chant-wave tf approve" with wave 1 and digest ${digest}\n` +
      `then approve: chant-wave approve tf tf-wave-1 --plan ${digest} --ledger git\n`,
  );
  const approvals = async () =>
    (await w.r.repo.gitIn(
      w.r.repo.root,
      "--git-dir",
      `${w.r.repo.root}/remote.git`,
      "ls-tree",
      "-r",
      "--name-only",
      "chant/ledger",
    )).split("\n").filter((name) =>
      name.includes("-approval-") && !name.includes("/order/")
    ).length;

  await t.step(
    "ann's dispatch records her approval and ends green, resuming nothing",
    async () => {
      const out = await click("21", "ann");
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `1 of 2 approvals of ${digest}: ann; waiting for another approver\n` +
          `approve on GitHub: run the workflow "chant-wave tf approve" with wave 1 and digest ${digest}\n`,
      );
      expect(w.fake.state.reruns).toEqual([]);
      expect(await approvals()).toBe(1);
    },
  );

  await t.step(
    "ann's second dispatch records nothing new and says so",
    async () => {
      const out = await click("22", "ann");
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        new RegExp(
          `^ann approved ${digest} already at \\S+Z; 1 of 2 approvals$`,
          "m",
        ),
      );
      expect(out.stderr).not.toContain(`approved tf-wave-1 of tf`);
      expect(w.fake.state.reruns).toEqual([]);
      expect(await approvals()).toBe(1);
    },
  );

  await t.step(
    "bob's dispatch completes the tally and resumes the run, whose re-run confirms both and applies",
    async () => {
      const out = await click("23", "bob");
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `2 of 2 approvals of ${digest}: ann, bob\n`,
      );
      expect(out.stderr).toMatch(
        /^tf-wave-1 of tf: resumed: re-ran every job of run 5 \(attempt \d+\)$/m,
      );
      expect(w.fake.state.reruns).toEqual(["5 (every job)"]);
      const resumed = await w.waveJob();
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toContain(
        `gate tf-wave-1: approved by ann, bob for ${digest} (the policy is "always")\n`,
      );
      expect(await w.r.applied()).toEqual(["eu"]);
      const asked = w.fake.requests.map((r) => `${r.method} ${r.path}`);
      for (const id of ["21", "23"]) {
        expect(asked).toContain(`GET /repos/octo/hello/actions/runs/${id}`);
      }
      expect(w.fake.protocolErrors).toEqual([]);
    },
  );
});
