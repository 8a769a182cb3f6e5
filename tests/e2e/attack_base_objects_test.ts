// End to end through the binary (a fresh-eyed attack, this stop): the change's
// own plan command runs in the job's clone, and git does not hash an object
// again when it reads it. The plan command unpacks the clone's objects and
// overwrites the object file of the spec as committed at base with a copy
// whose sealed wave reads `ledger`, to have a plain ledger approval count.
// Every object read at a commit is read by its id from the commit down and
// hashed against it (tests/git/tree_file_test.ts: a rewritten object is
// refused, exit 2); what this job read before its plan stands: the wave stays
// sealed, the approval is not counted, nothing applies.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  rollout,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";

/**
 * When `ctl/<target>.swap` exists: the objects are unpacked and the base spec's
 * object file then holds a copy that says `ledger` (shell).
 */
const SWAP = 'if [ -e "ctl/$1.swap" ]; then rm "ctl/$1.swap"; ' +
  // Every pack unpacked into loose objects, the packs removed.
  "mkdir -p .git/x; for p in .git/objects/pack/*.pack; do " +
  '[ -e "$p" ] || continue; mv "$p" .git/x/; ' +
  'git unpack-objects -q < ".git/x/${p##*/}"; rm -f "${p%.pack}.idx"; done; ' +
  "y=$(git rev-parse HEAD^1:waves.json); " +
  'z=$(git cat-file blob "$y" | sed "s/\\"sealed\\"/\\"ledger\\"/" | git hash-object -w --stdin); ' +
  'yp=.git/objects/$(echo "$y" | cut -c1-2)/$(echo "$y" | cut -c3-); ' +
  'zp=.git/objects/$(echo "$z" | cut -c1-2)/$(echo "$z" | cut -c3-); ' +
  'chmod u+w "$yp"; cp -f "$zp" "$yp"; fi; ';

Deno.test("a plan command that rewrites the base spec's object file loosens nothing", async () => {
  const waves = [
    { name: "dev", gate: "never", runs: ["d"], approval: "ledger" },
    { name: "prod", gate: "always", runs: ["eu"] },
  ];
  const plan = [
    "sh",
    "-c",
    `${SWAP}exec sh "$0" plan "$1" "$2"`,
    TOOL,
    "{target}",
    "{plan}",
  ];
  await using r = await rollout(
    specOf(waves, { approval: "sealed", plan, ledger: "git" }),
    // The change edits the spec, so its own copy is another object.
    {
      headSpec: specOf(waves, {
        approval: "sealed",
        plan,
        ledger: "git",
        heartbeat: "1h",
      }),
    },
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  // The job's clone holds its objects in a pack, as a fresh clone does.
  await r.repo.git("gc", "-q");
  // A GitHub push of the change: the base is the commit before the push.
  const event = `${r.repo.root}/event.json`;
  await Deno.writeTextFile(
    event,
    JSON.stringify({ before: r.base, after: r.head, ref: "refs/heads/main" }),
  );
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "push",
    GITHUB_EVENT_PATH: event,
    GITHUB_SHA: r.head,
    GITHUB_REF: "refs/heads/main",
    GITHUB_REPOSITORY: "o/r",
    GITHUB_RUN_ID: "1",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_ACTOR: "mallory",
  };
  const run = () => r.run(["run", ...SPEC, "--wave", "2"], env);
  const waiting = await run();
  expect(waiting.code).toBe(3);
  // A plain ledger approval: it counts only if the wave's mode reads `ledger`.
  const approve = approveLine(waiting.stderr).filter((w) => w !== "--sign");
  const approved = await r.run([...approve, "--by", "mallory"]);
  expect(approved.stderr).toContain("this approval will not count: not signed");
  await r.control("eu", "swap");
  const out = await run();
  expect(out.stderr).toContain('approval of wave 2 "prod": sealed by');
  expect(out.stderr).toContain("not counted: mallory (not signed)");
  expect(out.code).toBe(3);
  expect(await r.applied()).toEqual([]);
});
