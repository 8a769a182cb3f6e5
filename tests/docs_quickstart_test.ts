// The README's quick start ("Adopt it in ten minutes"), run end to end as a
// newcomer would: its spec saved as it says, its shell blocks run in a temp git
// repository with a bare origin under an empty environment (the compiled binary
// on PATH), and the GitHub workflow it renders run for each push as a runner
// would (tests/_helpers/actions_runner.ts), through the spec's own
// pipeline.install line. Stand-ins: `tofu` (a root module plans a change until
// it applied it once) and `curl` (the download links the binary built here).
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
// @ts-types="../types/std/jsonc.d.ts"
import { parse as parseJsonc } from "@std/jsonc";
import { parse as parseYaml } from "yaml";
import { type JobRun, runWorkflow } from "./_helpers/actions_runner.ts";
import {
  applies,
  blocksOf,
  quickstartRepo,
  readmeParts,
  runBlock,
} from "./_helpers/quickstart.ts";

const [SETUP, APPROVAL, RERUN] = await readmeParts(
  "## Adopt it in ten minutes",
);

/** Each job's status, and the output `waiting` where a job set it. */
function statuses(runs: Record<string, JobRun>) {
  return Object.fromEntries(
    Object.entries(runs).map(([name, run]) => [
      name,
      run.outputs.waiting === "true" ? "waiting" : run.status,
    ]),
  );
}

Deno.test("the README's quick start runs end to end: spec, check, pipeline, first approval, re-run", async (t) => {
  expect([SETUP, APPROVAL, RERUN].every((part) => part !== undefined)).toBe(
    true,
  );
  const [specBlock] = blocksOf(SETUP, "jsonc").filter((b) =>
    b.info[1] === "waves.jsonc"
  );
  const spec = parseJsonc(specBlock.text) as {
    name: string;
    waves: { runs: string[] }[];
  };
  const { repo, origin, originMain } = await quickstartRepo(
    specBlock.info[1],
    specBlock.text,
    spec.waves.flatMap((wave) => wave.runs),
  );
  await using _repo = repo;
  const root = repo.root;
  const runner = (before: string, attempt: number) =>
    runWorkflow(
      Deno.readTextFileSync(`${repo.path}/.github/workflows/${spec.name}.yml`),
      {
        remote: origin,
        scratch: `${root}/runner`,
        path: `${root}/runner-bin:/usr/bin:/bin`,
        before,
        attempt,
      },
    );

  let before = "";
  await t.step("the spec, check, jobs and the two pushes", async () => {
    const shown = blocksOf(SETUP, "text").find((b) =>
      b.text.startsWith("JOB ")
    );
    for (const block of blocksOf(SETUP, "sh")) {
      before = await originMain();
      const out = await runBlock(repo.path, root, block.text);
      expect({ line: block.line, code: out.code, stderr: out.stderr })
        .toMatchObject({ line: block.line, code: 0 });
      if (block.text.includes("chant-wave jobs")) {
        expect(out.stdout).toBe(shown!.text);
      }
    }
    expect(await originMain()).not.toBe(before);
  });

  await t.step(
    "the pipeline: dev and staging apply, prod waits, green",
    async () => {
      const runs = await runner(before, 1);
      expect(statuses(runs)).toEqual({
        "wave-1-dev": "ok",
        "wave-2-staging": "ok",
        "wave-3-prod-decide": "waiting",
        "wave-3-prod-eu": "skipped",
        "wave-3-prod-us": "skipped",
      });
      expect(await applies(root)).toEqual([
        "live/dev",
        "live/staging-eu",
        "live/staging-us",
      ]);
      for (const job of SETUP.match(/`wave-[a-z0-9-]+`/g) ?? []) {
        expect(Object.keys(runs)).toContain(job.slice(1, -1));
      }
      const approve = parseYaml(
        await Deno.readTextFile(
          `${repo.path}/.github/workflows/${spec.name}.approve.yml`,
        ),
      ) as { name: string };
      expect(APPROVAL).toContain(`"${approve.name}"`);
      expect(runs["wave-3-prod-decide"].summary).toContain(
        `run the workflow ${spec.name}.approve.yml`,
      );
    },
  );

  await t.step("the first approval, from a laptop", async () => {
    for (const block of blocksOf(APPROVAL, "sh")) {
      const out = await runBlock(repo.path, root, block.text);
      expect({ line: block.line, code: out.code, stderr: out.stderr })
        .toMatchObject({ line: block.line, code: 0 });
    }
  });

  await t.step(
    "the re-run applies prod, once; running it again applies nothing",
    async () => {
      const rerun = await runner(before, 2);
      expect(Object.values(statuses(rerun))).toEqual([
        "ok",
        "ok",
        "ok",
        "ok",
        "ok",
      ]);
      const all = [
        "live/dev",
        "live/prod-eu-1",
        "live/prod-eu-2",
        "live/prod-us-1",
        "live/staging-eu",
        "live/staging-us",
      ];
      expect(await applies(root)).toEqual(all);
      const again = await runner(before, 3);
      expect(Object.values(statuses(again))).toEqual([
        "ok",
        "ok",
        "ok",
        "ok",
        "ok",
      ]);
      expect(await applies(root)).toEqual(all);
    },
  );
});
