// End to end through the binary: the `next:` line of `status` follows the same
// judgement as the job (issue 24): a wave short of approvers still waits, a wave
// completed at an older commit is not complete at HEAD, and a plan claimed by a
// runner that died is named with the command that moves it on, which works as
// printed.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { killMidApply } from "../_helpers/kill_mid_apply.ts";
import {
  approveLine,
  plannedDigest,
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const PROD = { name: "prod", runs: ["eu"] };

/** The last line `status` prints, and its exit code. */
async function nextLine(r: Rollout): Promise<string> {
  const out = await r.run(["status", ...SPEC]);
  expect(out.code).toBe(0);
  return out.stdout.trimEnd().split("\n").at(-1)!;
}

/** The command after the last `: ` of a next line, as argv after `chant-wave`. */
function printedCommand(line: string, marker: string): string[] {
  const at = line.lastIndexOf(marker);
  expect(at).toBeGreaterThan(-1);
  return line.slice(at + marker.length).split(" ").slice(1);
}

/** Runs the wave, approves it as printed by `by`, runs it again: applied at HEAD. */
async function applyWave(r: Rollout, by: string): Promise<void> {
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  expect((await r.run([...approveLine(waiting.stderr), "--by", by])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
}

/** A new commit with a new desired state for eu: its plan differs. */
async function nextChange(r: Rollout, text: string): Promise<string> {
  await r.desire("eu", text);
  return await r.repo.commit(`change: ${text}`);
}

Deno.test("status: a wave with 1 of 2 approvals still waits for approvers", async () => {
  await using r = await rollout(specOf([PROD], { approvers: { required: 2 } }));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  expect(
    (await r.run([...approveLine(waiting.stderr), "--by", "ann@example.com"]))
      .code,
  ).toBe(0);
  const line = await nextLine(r);
  expect(line).toBe(
    `next: review and approve wave 1 "prod" (1 of 2 approvals of ${
      digest.slice(0, 19)
    }: ann@example.com): chant-wave show --spec waves.json --wave 1, then chant-wave approve --spec waves.json --wave 1`,
  );
  const approve = printedCommand(line, ", then ");
  expect((await r.run([...approve, "--by", "bob@example.com"])).code).toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  expect(await nextLine(r)).toBe(
    `next: nothing waits for an approval, and every wave has completed at ${
      r.head.slice(0, 12)
    }`,
  );
});

Deno.test("status: a wave completed at an older commit is run again at HEAD, as printed", async () => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["eu"] }]),
  );
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  const head = await nextChange(r, "v2");
  const line = await nextLine(r);
  expect(line).toBe(
    `next: run wave 1 "dev" (completed at ${r.head.slice(0, 12)}, not at HEAD ${
      head.slice(0, 12)
    }): chant-wave run --spec waves.json --wave 1`,
  );
  const run = await r.run(printedCommand(line, "): "));
  expect(run.code).toBe(0);
  expect(await nextLine(r)).toBe(
    `next: nothing waits for an approval, and every wave has completed at ${
      head.slice(0, 12)
    }`,
  );
});

Deno.test("status and run: a plan claimed by a runner that died is named with the approve command that moves it on", async (t) => {
  await using r = await rollout(specOf([PROD]));
  await applyWave(r, "ann");
  const first = r.head;
  const head = await nextChange(r, "v2");
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  await killMidApply(r, "eu");

  await t.step("status: not complete at HEAD, one plan unsettled", async () => {
    const line = await nextLine(r);
    expect(line).toBe(
      `next: wave 1 "prod" has 1 plan claimed under the approval by ann with no outcome: if its job still runs, wait for it; if it died, approve the plan again: chant-wave approve --spec waves.json --wave 1 --plan ${digest}`,
    );
    expect(line).not.toContain(first.slice(0, 12));
  });

  await t.step(
    "run refuses the claimed plan and prints the approve command",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(
        /^failed: eu: already claimed under this approval by decision \S+ \(claim \S+ at \S+, no outcome yet\); if that job died, approve the plan again\nif that job died, then approve: chant-wave approve tf tf-wave-1 --plan sha256:[0-9a-f]{64}$/m,
      );
      // Not a bare "then approve:" line: a job that still runs must not be
      // approved away.
      expect(out.stderr).not.toMatch(/^then approve:/m);
      const approve = out.stderr.match(
        /^if that job died, then approve: chant-wave (.+)$/m,
      )![1].split(" ");
      expect(approve).toEqual([
        "approve",
        "tf",
        "tf-wave-1",
        "--plan",
        digest,
      ]);
      // Run as printed: the approver is git's user.email of this checkout.
      const approved = await r.run(approve);
      expect(approved.code).toBe(0);
      const applied = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(applied.code).toBe(0);
      expect(await r.applied()).toEqual(["eu", "eu"]);
    },
  );

  await t.step("status: every wave completed at HEAD", async () => {
    expect(await nextLine(r)).toBe(
      `next: nothing waits for an approval, and every wave has completed at ${
        head.slice(0, 12)
      }`,
    );
  });
});
