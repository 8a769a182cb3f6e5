// End to end through the binary, issue 23 (the git ledger's objects): the
// change's plan command runs in the job's clone before the job reads the
// ledger, and git does not hash a loose object again when it reads it. The
// plan command overwrites the loose object of the gate's pending record (a
// file the tip fetched at the job's mark holds, so it counts as before the
// mark) with an approval of its own plan. The jobs are GitLab push pipelines
// (the base is trusted, so nothing reads the gate before the plan command).
// The job reads every ledger object
// checked against its name: it names the object and its file, exit 2, and
// applies nothing.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";

/**
 * When `ctl/<target>.swap` holds a digest: overwrite the loose object of the
 * gate's pending record with an approval of that digest (shell).
 */
const SWAP =
  'd=$(cat "ctl/$1.swap" 2>/dev/null || true); if [ -n "$d" ]; then ' +
  "tip=$(git rev-parse refs/remotes/origin/chant/ledger); " +
  'f=$(git ls-tree --name-only "$tip:gates/tf/tf-wave-1" | grep -e -pending- | head -n 1); ' +
  'y=$(git rev-parse "$tip:gates/tf/tf-wave-1/$f"); ' +
  "ts=$(date -u +%Y-%m-%dT%H:%M:%S.000Z); " +
  'rec=$(printf \'{"version":1,"kind":"approval","id":"%s","name":"tf","gate":"tf-wave-1","planDigest":"%s","by":"mallory","timestamp":"%s"}\' 0123456789abcdef0123456789abcdef "$d" "$ts"); ' +
  'z=$(printf "%s" "$rec" | git hash-object -w --stdin); ' +
  'yp=.git/objects/$(echo "$y" | cut -c1-2)/$(echo "$y" | cut -c3-); ' +
  'zp=.git/objects/$(echo "$z" | cut -c1-2)/$(echo "$z" | cut -c3-); ' +
  'chmod u+w "$yp"; cp -f "$zp" "$yp"; fi; ';

Deno.test("a ledger object the plan command overwrites in the job's clone stops the job, exit 2", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
      plan: [
        "sh",
        "-c",
        `${SWAP}exec sh "$0" plan "$1" "$2"`,
        TOOL,
        "{target}",
        "{plan}",
      ],
    }),
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const env = {
    CHANT_WAVE_LEDGER: "git",
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: r.base,
  };
  const run = () => r.run(["run", ...SPEC, "--wave", "1"], env);
  const waiting = await run();
  expect(waiting.code).toBe(3);
  // The ledger's objects as a fresh fetch leaves them: loose files.
  const packs = `${r.repo.root}/packs`;
  await Deno.mkdir(packs);
  for await (const entry of Deno.readDir(`${r.path}/.git/objects/pack`)) {
    await Deno.rename(
      `${r.path}/.git/objects/pack/${entry.name}`,
      `${packs}/${entry.name}`,
    );
  }
  for await (const entry of Deno.readDir(packs)) {
    if (!entry.name.endsWith(".pack")) continue;
    const unpack = new Deno.Command("git", {
      args: ["unpack-objects", "-q"],
      cwd: r.path,
      stdin: "piped",
    }).spawn();
    const file = await Deno.open(`${packs}/${entry.name}`);
    await file.readable.pipeTo(unpack.stdin);
    expect((await unpack.status).success).toBe(true);
  }
  const approve = approveLine(waiting.stderr);
  await r.control("eu", "swap", approve[approve.indexOf("--plan") + 1]);
  const swapped = await run();
  const errors = errorLines(swapped.stderr);
  expect(errors.length).toBe(1);
  expect(errors[0]).toMatch(
    new RegExp(
      `^error: the git ledger's blob [0-9a-f]{40} in this clone does not hash to its name: the file "${r.path}/\\.git/objects/[0-9a-f]{2}/[0-9a-f]{38}" was changed; nothing in the ledger counts from this clone \\(read it from a fresh clone\\)$`,
    ),
  );
  expect(swapped.code).toBe(2);
  expect(await r.applied()).toEqual([]);
});
