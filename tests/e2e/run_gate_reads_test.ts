// End to end through the binary: a share job reads its gate once before it
// claims (SPEC.md §4.4, §10), and reads it back once after writing the claim,
// which settles a race with another job. With the git ledger a command fetches
// the branch once and a write is a push: a stand-in git first on PATH notes
// each fetch and push of the branch in a log, and the job's hooks and apply
// command note where they run in the same log, so the log shows when the job
// read the ledger.
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
 * A `git` that notes `fetch` and `push` of the ledger branch in `log`, then runs
 * the real git (git's own options, `-c k=v` and `-C dir`, come first).
 */
const STAND_IN = (git: string, log: string) =>
  `#!/bin/sh
skip=
for arg; do
  if [ -n "$skip" ]; then skip=; continue; fi
  case $arg in
    -c|-C) skip=1 ;;
    -*) ;;
    fetch|push)
      case "$*" in *chant/ledger*) echo "$arg" >> '${log}' ;; esac
      break ;;
    *) break ;;
  esac
done
exec '${git}' "$@"
`;

/** A command that notes `<what>` in the log `$LEDGER_LOG`. */
function noting(what: string): string[] {
  return ["sh", "-c", `echo ${what} >> "$LEDGER_LOG"`];
}

const SPEC_FILE = specOf([{
  name: "prod",
  gate: "always",
  runs: ["t1", "t2"],
  shares: 2,
  hooks: {
    "before-plan": [{ name: "plan", run: noting("before-plan") }],
    "before-apply": [{ name: "apply", run: noting("before-apply") }],
  },
}], {
  apply: [
    "sh",
    "-c",
    'echo "apply $1" >> "$LEDGER_LOG"; exec sh "$0" apply "$1" "$2"',
    TOOL,
    "{target}",
    "{plan}",
  ],
});

Deno.test("run --share with the git ledger reads the gate once before it claims, and once after", async (t) => {
  await using r = await rollout(SPEC_FILE);
  const log = `${r.repo.root}/ledger.log`;
  const bin = `${r.repo.root}/bin`;
  await Deno.mkdir(bin);
  const git = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output())
      .stdout,
  ).trim();
  await Deno.writeTextFile(`${bin}/git`, STAND_IN(git, log));
  await Deno.chmod(`${bin}/git`, 0o755);
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const env = { LEDGER_LOG: log };
  const ledger = ["--ledger", "git"];
  const decide = ["run", ...SPEC, "--wave", "1", "--decide", ...ledger];
  const waiting = await r.run(decide, env);
  expect(waiting.code).toBe(3);
  const approve = [...approveLine(waiting.stderr), "--by", "ann"];
  expect((await r.run(approve, env)).code).toBe(0);
  expect((await r.run(decide, env)).code).toBe(0);
  /** Runs a share job with the stand-in git first on PATH; the log it left. */
  const shareJob = async (flags: string[]) => {
    await Deno.writeTextFile(log, "");
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "1",
      ...flags,
      ...ledger,
    ], {
      ...env,
      PATH: `${bin}:/usr/bin:/bin`,
    });
    expect(out.code).toBe(0);
    return (await Deno.readTextFile(log)).split("\n").filter(Boolean);
  };

  await t.step(
    "a base by the chain rule: the gate is read once for both",
    async () => {
      expect(await shareJob(["--share", "1"])).toEqual([
        // The gate, read once for the chain rule's base and the decision's
        // check (whose decision the claim stage takes); the job's mark is the
        // tip that read fetched, before any command of the change.
        "fetch",
        "before-plan",
        "before-apply",
        // The claim, pushed without force on the remote's tip, then read
        // back at that commit, which holds every claim pushed before it: of
        // claims racing for a plan, the first on the branch wins (a lost
        // race would fetch).
        "push",
        "apply t1",
        // The run's outcome and the wave's outcome.
        "push",
        "push",
      ]);
    },
  );

  await t.step(
    "a trusted base: the gate is read once, by the check",
    async () => {
      expect(await shareJob(["--share", "2", "--base", r.base])).toEqual([
        // The decision's check; the job's mark is the tip it fetched.
        "fetch",
        "before-plan",
        "before-apply",
        "push",
        "apply t2",
        "push",
        "push",
      ]);
    },
  );
  expect(await r.applied()).toEqual(["t1", "t2"]);
});
