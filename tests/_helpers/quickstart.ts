/**
 * What the README's quick starts are run with, end to end, as a newcomer would
 * (tests/docs_quickstart_test.ts on GitHub, tests/docs_quickstart_gitlab_test.ts
 * on GitLab): a section of the README cut into its parts at its
 * `<!-- docs-test: … -->` marks, its blocks by kind, the monorepo they adopt
 * chant-wave in (pushed to a bare origin), its shell blocks run in the
 * laptop's clone under an empty environment (the compiled binary on PATH),
 * and the runner's stand-ins: `tofu` (a root module plans a change until it
 * applied it once, and logs each apply) and `curl` (the download links the
 * binary built here). Tests only.
 * @module
 */

import { BINARY } from "./binary.ts";
import { type TempRepo, tempRepo } from "./temp_repo.ts";
import { type FencedBlock, fencedBlocks, ROOT } from "./markdown.ts";

const PLANS = `${ROOT}tests/fixtures/terraform-plans/`;

/**
 * A section of the README, cut into its parts at its docs-test marks.
 * @param heading The section's heading, `## …`.
 * @returns The parts, in order.
 */
export async function readmeParts(heading: string): Promise<string[]> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const at = readme.indexOf(`${heading}\n`);
  if (at < 0) throw new Error(`README.md has no section "${heading}"`);
  return readme.slice(at).split("\n## ")[0].split(/<!-- docs-test: [^>]+ -->/);
}

/**
 * The blocks of one part of a quick start, by kind.
 * @param part The part's text.
 * @param kind The info string's first word (`sh`, `text`, `jsonc`).
 * @returns The blocks, in order.
 */
export function blocksOf(part: string, kind: string): FencedBlock[] {
  return fencedBlocks("README.md", part).filter((b) => b.info[0] === kind);
}

/** A plan that creates one resource, and one of a module that has nothing to do. */
async function planDocuments(dir: string) {
  await Deno.copyFile(`${PLANS}deep_module.json`, `${dir}/change.json`);
  const noop = JSON.parse(await Deno.readTextFile(`${PLANS}moved_block.json`));
  delete noop.resource_changes[0].previous_address;
  await Deno.writeTextFile(`${dir}/noop.json`, JSON.stringify(noop));
}

/**
 * Writes the stand-ins under `root`: the runner's `curl` and `tofu` in
 * `runner-bin`, the laptop's `chant-wave` in `laptop-bin`, and the modules'
 * state in `state`.
 * @param root The scratch directory.
 */
async function standIns(root: string): Promise<void> {
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

/**
 * Runs one of the README's shell blocks in the laptop's clone.
 * @param cwd The clone.
 * @param root The scratch directory (its `laptop-bin` is on PATH).
 * @param text The block.
 * @returns Its exit code and output.
 */
export async function runBlock(
  cwd: string,
  root: string,
  text: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
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

/**
 * The root modules `tofu` applied, one line per apply, sorted.
 * @param root The scratch directory.
 */
export async function applies(root: string): Promise<string[]> {
  const log = await Deno.readTextFile(`${root}/state/applies.log`).catch(() =>
    ""
  );
  return log.split("\n").filter(Boolean).sort();
}

/** The monorepo of a quick start, pushed to its bare origin, its spec saved. */
export interface QuickstartRepo {
  /** The laptop's clone (`await using` removes everything). */
  repo: TempRepo;
  /** The bare origin. */
  origin: string;
  /** Where origin's `main` is now. */
  originMain(): Promise<string>;
}

/**
 * Makes the monorepo a quick start adopts chant-wave in: a root module per
 * target of the spec under `live/`, committed and pushed to a bare origin,
 * the stand-ins beside it, and the spec saved as `file` (not committed: the
 * quick start's blocks do that).
 * @param file The spec's file name.
 * @param spec The spec's text.
 * @param targets Every run target of the spec.
 * @returns The clone, the origin and where its `main` is.
 */
export async function quickstartRepo(
  file: string,
  spec: string,
  targets: readonly string[],
): Promise<QuickstartRepo> {
  const repo = await tempRepo(
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
  await Deno.writeTextFile(`${repo.path}/${file}`, spec);
  return {
    repo,
    origin,
    originMain: () =>
      repo.gitIn(root, "--git-dir", origin, "rev-parse", "main"),
  };
}
