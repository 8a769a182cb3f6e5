// End to end through the binary: a wave's canary (SPEC.md §19): canary 1 of 5
// applies one run, the rest only after it succeeded, and nothing more when it
// failed; in a whole-wave job, and across a deciding job and its share jobs;
// the count read at base, never the change's own.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { killMidApply } from "../_helpers/kill_mid_apply.ts";
import {
  approveLine,
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

/** Five runs, the first in spec order not the first by target. */
const FIVE = ["eu-3", "eu-1", "eu-2", "us-1", "us-2"];

/** A whole wave of five runs, all applied at once but for the canary. */
const WHOLE = (wave: Record<string, unknown> = { canary: 1 }) =>
  specOf([{ name: "prod", gate: "never", runs: FIVE, ...wave }], {
    parallel: 5,
  });

function rule(r: Rollout): string {
  return `canary 1, read at ${r.base.slice(0, 12)}, wave 1 "prod"`;
}

function resultOf(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout);
}

Deno.test("run applies a whole wave's canary first, the rest only after it succeeded", async (t) => {
  await t.step(
    "canary 1 of 5: the first run in spec order, then the other 4",
    async () => {
      await using r = await rollout(WHOLE());
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
      expect(out.code).toBe(0);
      const applied = await r.applied();
      expect(applied[0]).toBe("eu-3");
      expect(applied.slice(1).sort()).toEqual(["eu-1", "eu-2", "us-1", "us-2"]);
      expect(resultOf(out.stdout)).toMatchObject({
        exitCode: 0,
        applied: ["eu-3", "eu-1", "eu-2", "us-1", "us-2"],
        failed: [],
        untried: [],
      });
      const lines = out.stderr.split("\n");
      const first = lines.indexOf(`canary: eu-3 applies first (${rule(r)})`);
      const then = lines.indexOf(
        "canary: eu-3 applied; the other 4 runs go on",
      );
      expect(first).toBeGreaterThan(-1);
      expect(then).toBeGreaterThan(first);
      // Every other run started only once the canary had applied.
      const started = (target: string) =>
        lines.findIndex((line) => line.endsWith(`| applying ${target}`));
      for (const target of FIVE.slice(1)) {
        expect(started(target)).toBeGreaterThan(then);
      }
    },
  );

  await t.step(
    "a failing canary: exit 1, no other run applied, the line printed",
    async () => {
      await using r = await rollout(WHOLE());
      await r.control("eu-3", "apply-exit", "1");
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
      expect(out.code).toBe(1);
      expect(await r.applied()).toEqual([]);
      expect(resultOf(out.stdout)).toMatchObject({
        exitCode: 1,
        applied: [],
        failed: ["eu-3"],
        untried: ["eu-1", "eu-2", "us-1", "us-2"],
      });
      expect(out.stderr).toContain(
        `canary: eu-3 failed; the 4 other runs of wave 1 "prod" are not applied (${
          rule(r)
        })\n`,
      );
      expect(out.stderr).not.toContain("untried after a failure");
      expect(out.stderr).not.toContain("applying eu-1");
    },
  );

  await t.step(
    "a change that removes its own canary still gets the base's",
    async () => {
      await using r = await rollout(WHOLE(), { headSpec: WHOLE({}) });
      await r.control("eu-3", "apply-exit", "1");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(await r.applied()).toEqual([]);
      expect(out.stderr).toContain(`canary: eu-3 applies first (${rule(r)})\n`);
    },
  );

  await t.step(
    "a change that puts a new run first and reverses the rest cannot choose its own canary",
    async () => {
      const head = specOf([{
        name: "prod",
        gate: "never",
        runs: ["aa-new", ...[...FIVE].reverse()],
        canary: 1,
      }], { parallel: 5 });
      await using r = await rollout(WHOLE(), { headSpec: head });
      await r.control("eu-3", "apply-exit", "1");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(`canary: eu-3 applies first (${rule(r)})\n`);
      expect(out.stderr).toContain(
        `canary: eu-3 failed; the 5 other runs of wave 1 "prod" are not applied (${
          rule(r)
        })\n`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "a change that moves the base's canary into a later wave waits until it is merged",
    async () => {
      const head = specOf([
        { name: "prod", gate: "never", runs: FIVE.slice(1), canary: 1 },
        { name: "late", gate: "never", runs: ["eu-3"] },
      ], { parallel: 5 });
      await using r = await rollout(WHOLE(), { headSpec: head });
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `canary: eu-3 is in another wave of this change (${
          rule(r)
        }); this wave runs once the change is merged\n`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "a canary that changed its target, then failed, has not passed on a retry whose plan is empty",
    async () => {
      await using r = await rollout(WHOLE());
      await r.control("eu-3", "apply-desire", "empty");
      await r.control("eu-3", "apply-fail-after", "1");
      const first = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(first.code).toBe(1);
      expect(await r.applied()).toEqual(["eu-3"]);
      await r.uncontrol("eu-3", "apply-fail-after");
      const retry = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(retry.code).toBe(1);
      expect(retry.stderr).toContain(
        `canary: eu-3 failed at ${
          r.head.slice(0, 12)
        } and plans no change now, so it has not passed: nothing more of wave 1 "prod" applies at this commit (${
          rule(r)
        }); push a fix as a new commit\n`,
      );
      expect(await r.applied()).toEqual(["eu-3"]);
    },
  );

  await t.step(
    "a canary that asks for a new plan did not apply as planned: no other run takes its place",
    async () => {
      await using r = await rollout(WHOLE());
      await r.control("eu-3", "apply-replan", "1");
      await r.control("eu-3", "replan-desire", "empty");
      const first = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(first.code).toBe(1);
      expect(first.stderr).toContain(
        "canary: eu-3 asked for a new plan, so it did not apply as planned: the job plans nothing again; fix it and run it again\n",
      );
      expect(await r.applied()).toEqual([]);
      const retry = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(retry.code).toBe(1);
      expect(retry.stderr).toContain("so it has not passed");
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "a dry run says what would apply first, and applies nothing",
    async () => {
      await using r = await rollout(WHOLE());
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `canary: eu-3 would apply first (${rule(r)})\n`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "no canary at base: every run at once, no canary line",
    async () => {
      await using r = await rollout(WHOLE({}), { headSpec: WHOLE() });
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).not.toContain("canary:");
    },
  );
});

/**
 * A wave of two shares: share 1 is a1, a2 and share 2 is b1, b2 (by target);
 * its canary is b2, the first in spec order.
 */
const SHARED = (gate: string) =>
  specOf([{
    name: "prod",
    gate,
    runs: ["b2", "a1", "a2", "b1"],
    shares: 2,
    canary: 1,
  }]);

function share(r: Rollout, i: number) {
  return r.run(["run", ...SPEC, "--wave", "1", "--share", String(i)]);
}

Deno.test("run: a share job never applies before the deciding job's canary applied, and applies after it", async (t) => {
  await t.step(
    "gated: the canary waits for the approval, the share jobs for the canary",
    async () => {
      await using r = await rollout(SHARED("always"));
      const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(waiting.code).toBe(3);
      expect(
        (await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code,
      )
        .toBe(0);
      // Approved since the decision: no job applied the canary yet.
      const early = await share(r, 1);
      expect(early.code).toBe(3);
      expect(early.stderr).toContain(
        `canary: waiting for b2 to apply first; the 2 runs of this job wait (${
          rule(r)
        })\n`,
      );
      expect(early.stderr).toContain(
        "the deciding job applies the canary once the wave stands approved; run it, then this job again: chant-wave run --spec waves.json --wave 1 --decide\n",
      );
      expect(await r.applied()).toEqual([]);

      const decided = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(decided.code).toBe(0);
      expect(decided.stderr).toContain(
        `canary: b2 applies first (${rule(r)})\n`,
      );
      expect(decided.stderr).toContain(
        "canary: b2 applied; the other 3 runs go on in the wave's other jobs\n",
      );
      expect(await r.applied()).toEqual(["b2"]);

      const one = await share(r, 1);
      expect(one.code).toBe(0);
      expect(one.stderr).toContain("canary: b2 applied; this job goes on\n");
      const two = await share(r, 2);
      expect(two.code).toBe(0);
      expect(two.stderr).toContain(
        "skipped: b2: applied first, as the canary\n",
      );
      expect(await r.applied()).toEqual(["b2", "a1", "a2", "b1"]);
    },
  );

  await t.step(
    "ungated: a failed canary stops the share jobs, exit 1; once it applied they go on",
    async () => {
      await using r = await rollout(SHARED("never"));
      await r.control("b2", "apply-exit", "1");
      const failed = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(
        `canary: b2 failed; the 3 other runs of wave 1 "prod" are not applied (${
          rule(r)
        })\n`,
      );
      expect(failed.stderr).toContain(
        "then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 1 --decide\n",
      );
      const refused = await share(r, 1);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `canary: b2 failed; the 2 runs of this job are not applied (${
          rule(r)
        })\n`,
      );
      expect(await r.applied()).toEqual([]);

      await r.uncontrol("b2", "apply-exit");
      expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
        .toBe(0);
      expect((await share(r, 1)).code).toBe(0);
      expect((await share(r, 2)).code).toBe(0);
      expect(await r.applied()).toEqual(["b2", "a1", "a2", "b1"]);
    },
  );

  await t.step(
    "ungated: a deciding job that died mid-canary leaves the share jobs waiting",
    async () => {
      await using r = await rollout(SHARED("never"));
      await killMidApply(r, "b2", { args: ["--decide"] });
      const out = await share(r, 2);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `canary: waiting for b2 to apply first; the 2 runs of this job wait (${
          rule(r)
        })\n`,
      );
      expect(await r.applied()).toEqual([]);
    },
  );
});
