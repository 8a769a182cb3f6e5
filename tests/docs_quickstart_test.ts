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
import { BINARY } from "./_helpers/binary.ts";
import { type JobRun, runWorkflow } from "./_helpers/actions_runner.ts";
import { fencedBlocks, ROOT } from "./_helpers/markdown.ts";
import { tempRepo } from "./_helpers/temp_repo.ts";

const README = await Deno.readTextFile(`${ROOT}README.md`);
const SECTION = README.slice(README.indexOf("## Adopt it in ten minutes\n"))
  .split("\n## ")[0];
const [SETUP, APPROVAL, RERUN] = SECTION.split(/<!-- docs-test: [^>]+ -->/);
const PLANS = `${ROOT}tests/fixtures/terraform-plans/`;

/** A plan that creates one resource, and one of a module that has nothing to do. */
async function planDocuments(dir: string) {
  await Deno.copyFile(`${PLANS}deep_module.json`, `${dir}/change.json`);
  const noop = JSON.parse(await Deno.readTextFile(`${PLANS}moved_block.json`));
  delete noop.resource_changes[0].previous_address;
  await Deno.writeTextFile(`${dir}/noop.json`, JSON.stringify(noop));
}

/** Writes the stand-ins: the runner's `curl` and `tofu`, the laptop's `chant-wave`. */
async function standIns(root: string) {
  await Deno.mkdir(`${root}/runner-bin`, { recursive: true });
  await Deno.mkdir(`${root}/laptop-bin`, { recursive: true });
  await Deno.mkdir(`${root}/state`, { recursive: true });
  await planDocuments(`${root}/state`);
  await Deno.symlink(BINARY, `${root}/laptop-bin/chant-wave`);
  const curl = `#!/bin/sh
# curl -fsSLo FILE URL: "downloads" the release binary, which is the one built here.
out="" url=""
while [ $# -gt 0 ]; do
  case $1 in -*o) out=$2; shift ;; -*) ;; *) url=$1 ;; esac
  shift
done
case $url in https://*) ln -sf "${BINARY}" "$out" ;; *) echo "curl: bad URL $url" >&2; exit 3 ;; esac
`;
  const tofu = `#!/bin/sh
# tofu -chdir=DIR plan|show|apply: DIR plans a change until it applied it once.
set -eu
dir=.
case \${1-} in -chdir=*) dir=\${1#-chdir=}; shift ;; esac
command=$1; shift
last="" out=""
for arg in "$@"; do case $arg in -out=*) out=\${arg#-out=} ;; esac; last=$arg; done
state="${root}/state/$(printf %s "$dir" | tr / _).applied"
case $command in
  plan) if [ -f "$state" ]; then cp "${root}/state/noop.json" "$out"; else cp "${root}/state/change.json" "$out"; fi ;;
  show) cat "$last" ;;
  apply) [ -f "$last" ]; echo "$dir" >> "${root}/state/applies.log"; touch "$state"; echo "Apply complete!" ;;
esac
`;
  for (const [name, text] of [["curl", curl], ["tofu", tofu]]) {
    await Deno.writeTextFile(`${root}/runner-bin/${name}`, text, {
      mode: 0o755,
    });
  }
}

/** Runs one of the README's shell blocks in the laptop's clone. */
async function runBlock(cwd: string, root: string, text: string) {
  const out = await new Deno.Command("/usr/bin/env", {
    args: ["-i", `PATH=${root}/laptop-bin:/usr/bin:/bin`, "sh", "-ec", text],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: out.code,
    stdout: decode(out.stdout),
    stderr: decode(out.stderr),
  };
}

/** The blocks of one part of the quick start, by kind. */
function blocksOf(part: string, kind: string) {
  return fencedBlocks("README.md", part).filter((b) => b.info[0] === kind);
}

/** Each job's status, and the output `waiting` where a job set it. */
function statuses(runs: Record<string, JobRun>) {
  return Object.fromEntries(
    Object.entries(runs).map(([name, run]) => [
      name,
      run.outputs.waiting === "true" ? "waiting" : run.status,
    ]),
  );
}

async function applies(root: string): Promise<string[]> {
  const log = await Deno.readTextFile(`${root}/state/applies.log`).catch(() =>
    ""
  );
  return log.split("\n").filter(Boolean).sort();
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
  const targets = spec.waves.flatMap((wave) => wave.runs);
  await using repo = await tempRepo(
    Object.fromEntries(
      targets.map((target) => [`live/${target}/main.tf`, `# ${target}\n`]),
    ),
  );
  const root = repo.root;
  await standIns(root);
  const origin = `${root}/origin.git`;
  await repo.gitIn(root, "init", "--quiet", "--bare", "-b", "main", origin);
  await repo.git("remote", "add", "origin", origin);
  await repo.commit("the monorepo");
  await repo.git("push", "--quiet", "origin", "main");
  await Deno.writeTextFile(`${repo.path}/${specBlock.info[1]}`, specBlock.text);
  const originMain = () =>
    repo.gitIn(root, "--git-dir", origin, "rev-parse", "main");
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
