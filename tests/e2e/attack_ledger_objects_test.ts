// End to end through the binary, issue 23 (the git ledger's objects): the
// change's plan command runs in the job's clone before the job reads the
// ledger for its decision, and git does not hash a loose object again when it
// reads it. The plan command overwrites a loose object of the gate (a file the
// tip fetched at the job's mark holds, so it counts as before the mark) with an
// approval of its own plan. The jobs are GitLab push pipelines. A job reads the
// gate's records before its first command (the last trusted decision, SPEC.md
// §4.4), and reads ahead what its decision reads (the gate from its newest
// revoke on, the plan sets of its approvals, and the whole gate when no
// approval came since that revoke), each checked against its name
// and kept: an object overwritten after that is never read again, so the
// forged approval counts for nothing. (An object first read after a command
// is checked there:
// attack_base_objects_test.ts and tests/ledger/git/_objects_test.ts show
// the exit 2 that names it.)
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
 * first file matching `pick` in the gate's folder `dir` with an approval of
 * that digest (shell).
 */
const swap = (dir: string, pick: string) =>
  'd=$(cat "ctl/$1.swap" 2>/dev/null || true); if [ -n "$d" ]; then ' +
  "tip=$(git rev-parse refs/remotes/origin/chant/ledger); " +
  `f=$(git ls-tree --name-only "$tip:${dir}" | grep -e ${pick} | head -n 1); ` +
  `y=$(git rev-parse "$tip:${dir}/$f"); ` +
  "ts=$(date -u +%Y-%m-%dT%H:%M:%S.000Z); " +
  'rec=$(printf \'{"version":1,"kind":"approval","id":"%s","name":"tf","gate":"tf-wave-1","planDigest":"%s","by":"mallory","timestamp":"%s"}\' 0123456789abcdef0123456789abcdef "$d" "$ts"); ' +
  'z=$(printf "%s" "$rec" | git hash-object -w --stdin); ' +
  'yp=.git/objects/$(echo "$y" | cut -c1-2)/$(echo "$y" | cut -c3-); ' +
  'zp=.git/objects/$(echo "$z" | cut -c1-2)/$(echo "$z" | cut -c3-); ' +
  'chmod u+w "$yp"; cp -f "$zp" "$yp"; fi; ';

/**
 * Runs the job once to wait (and, with `approved`, approves its plans; with
 * `revoked`, then revokes the gate), leaves
 * the ledger's objects loose (as a fresh fetch does), then runs it again with
 * the plan command overwriting one.
 */
async function swapped(
  dir: string,
  pick: string,
  approved = false,
  revoked = false,
) {
  const r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
      plan: [
        "sh",
        "-c",
        `${swap(dir, pick)}exec sh "$0" plan "$1" "$2"`,
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
  const approve = approveLine(waiting.stderr);
  if (approved) {
    expect((await r.run([...approve, "--by", "ann"], env)).code).toBe(0);
  }
  if (revoked) {
    expect((await r.run(["revoke", "tf", "tf-wave-1"], env)).code).toBe(0);
  }
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
  await r.control("eu", "swap", approve[approve.indexOf("--plan") + 1]);
  return { r, result: await run() };
}

Deno.test("a ledger record the plan command overwrites in the job's clone after the job read it counts for nothing", async () => {
  const { r, result } = await swapped("gates/tf/tf-wave-1", "-pending-");
  await using _ = r;
  expect(errorLines(result.stderr)).toEqual([]);
  expect(result.stderr).toContain(
    'gate "tf-wave-1" has no approval for sha256:',
  );
  expect(result.stderr).not.toContain("mallory");
  expect(result.code).toBe(3);
  expect(await r.applied()).toEqual([]);
  // The clone's copy of the pending record is the forged approval now.
  const shown = await new Deno.Command("sh", {
    args: [
      "-c",
      'git cat-file -p "$(git rev-parse refs/remotes/origin/chant/ledger):gates/tf/tf-wave-1/$(git ls-tree --name-only refs/remotes/origin/chant/ledger:gates/tf/tf-wave-1 | grep -e -pending- | head -n 1)"',
    ],
    cwd: r.path,
  }).output();
  expect(new TextDecoder().decode(shown.stdout)).toContain('"by":"mallory"');
});

Deno.test("a ledger object the plan command overwrites after the job read it ahead (an approved set) changes nothing", async () => {
  // The plan set of ann's approval is read with the gate before the plan
  // command runs (`LedgerStore.readAhead`): the forged object is never read,
  // and the plans ann approved apply.
  const { r, result } = await swapped("gates/tf/tf-wave-1/sets", "json", true);
  await using _ = r;
  expect(errorLines(result.stderr)).toEqual([]);
  expect(result.stderr).toMatch(
    /^gate tf-wave-1: approved by ann for sha256:/m,
  );
  expect(result.stderr).not.toContain("mallory");
  expect(result.code).toBe(0);
  expect(await r.applied()).toEqual(["eu"]);
});

Deno.test("a revoked approval the plan command overwrites after the job read the gate ahead changes nothing: the job waits and names it", async () => {
  // The gate since its newest revoke holds no approval: the decision waits
  // and reads the gate whole to say which approval was revoked. That whole
  // read is read ahead too, before the plan command runs, so the object it
  // overwrites (ann's revoked approval) is never read again.
  const { r, result } = await swapped(
    "gates/tf/tf-wave-1",
    "-approval-",
    true,
    true,
  );
  await using _ = r;
  expect(errorLines(result.stderr)).toEqual([]);
  expect(result.stderr).toMatch(
    /^ {2}the approval of sha256:\S+ by ann was revoked at \S+; approve again$/m,
  );
  expect(result.stderr).not.toContain("mallory");
  expect(result.code).toBe(3);
  expect(await r.applied()).toEqual([]);
});
