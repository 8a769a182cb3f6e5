// End to end through the binary, issue 23 class 5: one plan applies once,
// whoever holds the decision (SPEC.md §10). Two share jobs in two checkouts hold
// one decision record (the artifact copied, as a re-run started while the first
// still runs would) and share one ledger. Both read the gate before either
// claims; exactly one applies, the other says who holds the claim.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type BinaryResult, runBinary } from "../_helpers/binary.ts";
import { pollUntil } from "../_helpers/poll.ts";
import { setDigest } from "../../src/digest/set_digest.ts";
import {
  formatPlanSet,
  planSetFileName,
} from "../../src/gate/plan_set_file.ts";
import {
  approveLine,
  rollout,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";

/**
 * The apply of this test: it notes the target in `../applies.log` (one file for
 * both checkouts), then waits while its checkout holds a file `hold-apply`.
 */
const APPLY = [
  "sh",
  "-c",
  'echo "$1" >> ../applies.log; while [ -e hold-apply ]; do sleep 0.01; done',
  "apply",
  "{target}",
];

/**
 * The plan of this test: while its checkout holds a file `lineup`, it first
 * notes that it is ready (`../ready-<pid>`) and waits for `../go`, so the jobs
 * of both checkouts go on together.
 */
const PLAN = [
  "sh",
  "-c",
  'if [ -e lineup ]; then touch ../ready-$$; while [ ! -e ../go ]; do sleep 0.01; done; fi; exec sh "$0" plan "$1" "$2"',
  TOOL,
  "{target}",
  "{plan}",
];

const SPEC_OF = specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
  plan: PLAN,
  apply: APPLY,
});

const RECORD = ".chant/waves/tf/wave-1.json";

async function appliesOf(root: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${root}/applies.log`).catch(() => "");
  return text.split("\n").filter(Boolean);
}

/**
 * Decides wave 1 in `first` (waits, is approved, decides again) and copies the
 * decision record to `second`.
 * @returns The decision's id.
 */
async function decideAndCopy(
  first: string,
  second: string,
  env: Record<string, string>,
): Promise<string> {
  const decide = () =>
    runBinary(["run", ...SPEC, "--wave", "1", "--decide"], { cwd: first, env });
  const waiting = await decide();
  expect(waiting.code).toBe(3);
  const approved = await runBinary(approveLine(waiting.stderr), {
    cwd: first,
    env,
  });
  expect(approved.code).toBe(0);
  expect((await decide()).code).toBe(0);
  await Deno.mkdir(`${second}/.chant/waves/tf`, { recursive: true });
  await Deno.copyFile(`${first}/${RECORD}`, `${second}/${RECORD}`);
  return JSON.parse(await Deno.readTextFile(`${first}/${RECORD}`)).decisionId;
}

/**
 * Records, in the directory ledger at `root`, an old approval of a digest whose
 * plan set has 60,000 members: every job reads and checks that set after the
 * gate's claims and before it claims, which takes far longer than two jobs that
 * go on together start apart.
 */
async function slowApproval(root: string): Promise<void> {
  const gateDir = `${root}/gates/tf/tf-wave-1`;
  const members = Array.from({ length: 60_000 }, (_, i) => ({
    target: `filler-${i}`,
    planDigest: `sha256:${"0".repeat(64)}`,
  }));
  const digest = setDigest(members);
  await Deno.mkdir(`${gateDir}/sets`, { recursive: true });
  await Deno.writeTextFile(
    `${gateDir}/sets/${planSetFileName(digest)}`,
    formatPlanSet(digest, members),
  );
  const id = "f".repeat(32);
  await Deno.writeTextFile(
    `${gateDir}/20260101T000000.000Z-approval-${id}.json`,
    JSON.stringify({
      version: 1,
      kind: "approval",
      id,
      name: "tf",
      gate: "tf-wave-1",
      planDigest: digest,
      by: "filler",
      timestamp: "2026-01-01T00:00:00.000Z",
    }),
  );
}

/** The line of a job that lost the claim to a job still applying. */
function claimedLine(decisionId: string): string {
  return `eu: already claimed under this approval by decision ${decisionId} (claim `;
}

/**
 * Exactly one job applied; the other names the claim it lost to (exit 1), or,
 * when the winner had finished, skips the plan as applied (exit 0).
 */
function expectOneApplied(
  outs: BinaryResult[],
  decisionId: string,
  applies: string[],
): void {
  expect(applies).toEqual(["eu"]);
  const won = outs.filter((out) => out.stderr.includes("applied 1 run"));
  expect(won).toHaveLength(1);
  expect(won[0].code).toBe(0);
  const lost = outs.find((out) => out !== won[0])!;
  if (lost.code === 1) expect(lost.stderr).toContain(claimedLine(decisionId));
  else expect(lost.stderr).toContain("skipped: eu: already applied\n");
}

Deno.test("two jobs holding one decision record apply its plan once: the directory ledger", async (t) => {
  await using r = await rollout(SPEC_OF);
  const root = r.repo.root;
  const second = `${root}/second`;
  await r.repo.gitIn(root, "clone", "-q", r.path, second);
  // Both jobs plan until `go` exists, then read the gate and claim.
  const env = { CHANT_WAVE_LEDGER: `${root}/ledger` };
  await slowApproval(`${root}/ledger`);
  for (const round of [1, 2, 3]) {
    await t.step(`round ${round}`, async () => {
      for (const file of ["go", "applies.log"]) {
        await Deno.remove(`${root}/${file}`).catch(() => {});
      }
      for (const cwd of [r.path, second]) {
        await Deno.remove(`${cwd}/lineup`).catch(() => {});
        await Deno.mkdir(`${cwd}/desired`, { recursive: true });
        await Deno.writeTextFile(`${cwd}/desired/eu`, `round ${round}`);
      }
      const decisionId = await decideAndCopy(r.path, second, env);
      for (const cwd of [r.path, second]) {
        await Deno.writeTextFile(`${cwd}/lineup`, "");
      }
      const jobs = [r.path, second].map((cwd) =>
        runBinary(["run", ...SPEC, "--wave", "1", "--share", "1"], {
          cwd,
          env,
        })
      );
      await pollUntil("both jobs to plan", async () => {
        let ready = 0;
        for await (const entry of Deno.readDir(root)) {
          if (entry.name.startsWith("ready-")) ready++;
        }
        return ready >= 2 * round;
      });
      await Deno.writeTextFile(`${root}/go`, "");
      const outs = await Promise.all(jobs);
      expectOneApplied(outs, decisionId, await appliesOf(root));
    });
  }
});

Deno.test("two jobs holding one decision record apply its plan once: the git ledger", async () => {
  await using r = await rollout(SPEC_OF);
  const root = r.repo.root;
  const remote = `${root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", "main");
  const second = `${root}/second`;
  await r.repo.gitIn(root, "clone", "-q", "-b", "main", remote, second);
  const env = { CHANT_WAVE_LEDGER: "git" };
  const decisionId = await decideAndCopy(r.path, second, env);
  // The second checkout's pushes wait while `hold` exists (a slow link to the
  // remote): its job has read the gate and is pushing its claim.
  await Deno.writeTextFile(
    `${root}/slow-receive-pack`,
    `#!/bin/sh\ntouch ${root}/pushing\nwhile [ -e ${root}/hold ]; do sleep 0.01; done\nexec git-receive-pack "$@"\n`,
  );
  await Deno.chmod(`${root}/slow-receive-pack`, 0o755);
  await r.repo.gitIn(
    second,
    "config",
    "remote.origin.receivepack",
    `${root}/slow-receive-pack`,
  );
  await Deno.writeTextFile(`${root}/hold`, "");
  await Deno.writeTextFile(`${r.path}/hold-apply`, "");
  const run = (cwd: string) =>
    runBinary(["run", ...SPEC, "--wave", "1", "--share", "1"], { cwd, env });
  const pushing = run(second);
  await pollUntil(
    "the second job to push its claim",
    () => Deno.stat(`${root}/pushing`).then(() => true, () => false),
  );
  const applying = run(r.path);
  await pollUntil(
    "the first job to apply",
    async () => (await appliesOf(root)).length > 0,
  );
  await Deno.remove(`${root}/hold`);
  const lost = await pushing;
  await Deno.remove(`${r.path}/hold-apply`);
  const won = await applying;
  expect(await appliesOf(root)).toEqual(["eu"]);
  expect(won.code).toBe(0);
  expect(lost.code).toBe(1);
  expect(lost.stderr).toContain(claimedLine(decisionId));
});
