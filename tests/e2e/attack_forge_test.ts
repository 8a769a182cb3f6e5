// Class 7 of issue 23, the forge half, as a pull request would mount it
// (SPEC.md §4.12, §12, §13): what the change's code writes does not approve it.
// The pull-request job runs the pull request's code. Before, its workflow held
// `contents: write`, it wrote the recorded plans into `chant/ledger`, and a
// `pr-review` gate counted any ledger approval; so the pull request's code
// could approve its own merge. Now the rendered pull-request pipelines get no
// credential that can write the ledger, a forge gate (`pr-review` is read as
// `forge`) counts an unsigned approval only when the forge confirms in the job
// the action it names, and the plans handed over through the forge are
// weighed against the plan made on the merged commit, never taken on trust.
// Each test is an attack that got through before.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { keepPlansArtifact } from "../_helpers/fake_forge.ts";
import { mergedPull } from "../_helpers/merged_pull.ts";
import {
  approveLine,
  listTree,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

/** The spec as repositories wrote it before `forge`: its old name. */
const REVIEWED = [{
  name: "prod",
  gate: "always",
  runs: ["eu", "us"],
  approval: "pr-review",
}];
const GATE_DIR = ".chant/ledger/gates/tf/tf-wave-1";

/** The digest wave 1 plans on the merged commit (a dry run asks nothing). */
async function mergedDigest(
  m: Awaited<ReturnType<typeof mergedPull>>,
): Promise<string> {
  const out = await m.r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
  return plannedDigest(out.stderr);
}

/** Writes a record into the directory ledger, as the pull request's code can. */
async function plantRecord(
  path: string,
  dir: string,
  record: Record<string, unknown>,
): Promise<void> {
  await Deno.mkdir(`${path}/${dir}`, { recursive: true });
  const name = `${
    new Date().toISOString().replace(/[:.]/g, "-")
  }-${record.kind}-${record.id}.json`;
  await Deno.writeTextFile(
    `${path}/${dir}/${name}`,
    JSON.stringify({
      version: 1,
      timestamp: new Date().toISOString(),
      ...record,
    }),
  );
}

Deno.test("attack: the pull-request job's code records a plain approval of the merged plan; the forge gate does not count it and says why", async () => {
  await using m = await mergedPull(specOf(REVIEWED));
  const waited = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(waited.code).toBe(3);
  // No review approves #12; the job's code (`chant-wave approve` in its plan
  // script) wrote this approval with whatever credential it held.
  const approve = await m.r.run([
    ...approveLine(waited.stderr),
    "--by",
    "mallory",
  ]);
  expect(approve.code).toBe(0);
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    "gate tf-wave-1: the approval by mallory does not count: a plain ledger approval: it names no action the forge confirms\n",
  );
  expect(out.stderr).toContain(
    "not counted: mallory (a plain ledger approval: it names no action the forge confirms)",
  );
  expect(await m.r.applied()).toEqual([]);
});

Deno.test("attack: an approval naming the review, written by the job's code, does not count when the forge shows no such approving review", async () => {
  await using m = await mergedPull(specOf(REVIEWED));
  const digest = await mergedDigest(m);
  m.approves("ann", m.r.base);
  const head12 = m.r.head.slice(0, 12);
  await plantRecord(m.r.path, GATE_DIR, {
    kind: "approval",
    id: "f".repeat(32),
    name: "tf",
    gate: "tf-wave-1",
    planDigest: digest,
    by: "mallory",
    note: `approved by the review of #12 at ${head12}: mallory`,
  });
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `gate tf-wave-1: the approval by mallory does not count: the forge does not confirm the review: stale review: ann approved #12 at ${
      m.r.base.slice(0, 12)
    }, but its head is ${head12}\n`,
  );
  expect(await m.r.applied()).toEqual([]);
});

Deno.test("attack: plans recorded in the ledger by the job's code do not stand in for the hand-off: a plan that moved after the review still waits", async () => {
  await using m = await mergedPull(specOf(REVIEWED));
  m.approves("ann", m.r.head);
  await m.r.desire("eu", "changed after the review");
  const now = await mergedDigest(m);
  // The job's code pushes "recorded plans" claiming the head planned what the
  // merged commit plans now (as the record-plans job used to write them).
  await plantRecord(m.r.path, ".chant/ledger/gates/tf/recorded-plans", {
    kind: "recorded-plans",
    id: "e".repeat(32),
    name: "tf",
    gate: "recorded-plans",
    head: m.r.head,
    waves: [{ wave: 1, name: "prod", gate: "tf-wave-1", digest: now }],
  });
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `gate tf-wave-1: no review approval: the plan moved after the review: #12 at ${
      m.r.head.slice(0, 12)
    } recorded `,
  );
  expect(out.stderr).toContain(`, but it plans ${now} now\n`);
  expect(await m.r.applied()).toEqual([]);
});

Deno.test("attack: a status forged beside the pull-request job's (another case of the same context) with another digest leaves the review approving nothing", async () => {
  await using m = await mergedPull(specOf(REVIEWED));
  m.approves("ann", m.r.head);
  const forged = "sha256:" + "6".repeat(64);
  const statuses = m.fake.state.statuses.get(m.r.head) ?? [];
  statuses.push({
    id: 99,
    state: "success",
    context: "Chant-Wave/TF/Wave-1",
    description: forged,
  });
  m.fake.state.statuses.set(m.r.head, statuses);
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    new RegExp(
      `^gate tf-wave-1: no review approval: the recorded plans of #12 at ${
        m.r.head.slice(0, 12)
      } disagree for wave 1 "prod": ${forged} \\(status 99\\), sha256:[0-9a-f]{64} \\(status 1\\)$`,
      "m",
    ),
  );
  expect(await m.r.applied()).toEqual([]);
  expect(
    (await m.r.records("tf-wave-1")).filter((r) => r.kind === "approval"),
  ).toEqual([]);
});

Deno.test("attack: on GitLab, an artifact of another pipeline of the merge request claiming the head with another digest leaves the review approving nothing", async () => {
  await using m = await mergedPull(specOf(REVIEWED), { forge: "gitlab" });
  m.approves("ann", m.r.head);
  const forged = "sha256:" + "7".repeat(64);
  const job = keepPlansArtifact(
    m.fake,
    12,
    m.r.base,
    ".chant/recorded-plans/tf.json",
    JSON.stringify({
      version: 1,
      kind: "recorded-plans",
      name: "tf",
      head: m.r.head,
      waves: [{ wave: 1, name: "prod", digest: forged }],
    }),
  );
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `gate tf-wave-1: no review approval: the recorded plans of #12 at ${
      m.r.head.slice(0, 12)
    } disagree for wave 1 "prod": ${forged} (job ${job}'s artifact), `,
  );
  expect(await m.r.applied()).toEqual([]);
});

for (const comment of [false, true]) {
  Deno.test(
    `attack: the rendered pull-request pipelines hold no credential that can write the ledger${
      comment ? ", with the plan comment" : ""
    }`,
    async (t) => {
      await using r = await rollout(specOf(REVIEWED, {
        pipeline: { install: "true" },
        pullRequests: { comment },
      }));
      for (const forge of ["github", "forgejo"] as const) {
        await t.step(forge, async () => {
          const out = await r.run(["pipeline", forge, "--spec", "waves.json"]);
          expect(out.code).toBe(0);
          const dir = forge === "github" ? ".github" : ".forgejo";
          const plans = parse(
            await Deno.readTextFile(`${r.path}/${dir}/workflows/tf.plans.yml`),
          ) as {
            permissions: Record<string, string>;
            jobs: Record<string, {
              permissions?: unknown;
              steps: {
                uses?: string;
                with?: Record<string, unknown>;
                run?: string;
              }[];
            }>;
          };
          expect(plans.permissions).toEqual({
            contents: "read",
            statuses: "write",
            // The comment: a pull request's issue comments, nothing else.
            ...(comment ? { "pull-requests": "write" } : {}),
          });
          for (const job of Object.values(plans.jobs)) {
            expect(job.permissions).toBeUndefined();
            const checkout = job.steps.find((step) =>
              step.uses?.includes("checkout")
            );
            expect(checkout?.with?.["persist-credentials"]).toBe(false);
            for (const step of job.steps) {
              expect(step.run ?? "").not.toContain("--ledger");
            }
          }
        });
      }
      await t.step("gitlab", async () => {
        const out = await r.run(["pipeline", "gitlab", "--spec", "waves.json"]);
        expect(out.code).toBe(0);
        const file = parse(
          await Deno.readTextFile(`${r.path}/tf.gitlab-ci.yml`),
        ) as Record<string, { script?: string[]; artifacts?: unknown }>;
        expect(file["record-plans"].script).toEqual([
          `chant-wave run --spec waves.json${
            comment ? " --pull-request" : ""
          } --record-plans`,
        ]);
        expect(file["record-plans"].artifacts).toEqual({
          paths: [".chant/recorded-plans/tf.json"],
        });
      });
      await t.step("the pull-request job writes no ledger", async () => {
        const out = await r.run([
          "run",
          ...SPEC,
          ...(comment ? ["--pull-request"] : []),
          "--record-plans",
        ]);
        expect(out.code).toBe(0);
        expect(
          (await listTree(`${r.path}/.chant`)).map((line) =>
            line.split(" ")[0]
          ),
        ).toEqual([".gitignore", "recorded-plans/", "recorded-plans/tf.json"]);
      });
    },
  );
}
