// End to end through the binary: a command reads git objects through one
// long-lived `git cat-file` (src/git/_cat_file_server.ts), and a process of the
// same user can open another's pipes under /proc/<pid>/fd. So before the
// change's own code runs (here a plan command), chant-wave ends those processes:
// the plan command lists chant-wave's children and finds no git among them.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { rollout, SPEC, specOf, TOOL } from "../_helpers/rollout.ts";

/** Writes the command lines of the plan's parent's children to `children.txt` (shell). */
const LIST_SIBLINGS = "for c in $(cat /proc/$PPID/task/*/children); do " +
  'tr "\\0" " " < "/proc/$c/cmdline" 2>/dev/null; echo; done >> children.txt; ';

Deno.test("no git process of chant-wave waits on a pipe while the change's plan command runs", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
      ledger: "git",
      plan: [
        "sh",
        "-c",
        `${LIST_SIBLINGS}exec sh "$0" plan "$1" "$2"`,
        TOOL,
        "{target}",
        "{plan}",
      ],
    }),
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(out.code).toBe(3);
  const children = await Deno.readTextFile(`${r.repo.path}/children.txt`);
  // The plan command itself is the one child.
  expect(children).toMatch(/\bsh -c /);
  expect(children).not.toMatch(/\bgit\b/);
});
