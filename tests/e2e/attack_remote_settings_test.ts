// End to end through the binary: on a sealed gate of the git ledger, a
// fresh-eyed attack had the change's plan command point the clone's `origin`
// at a copy of the ledger (`git remote set-url`), so the job's claim and
// outcome (what spends the approval) went to the copy: one signed approval
// applied the wave on every later job. The clone's git settings are kept as
// the job found them before its first command; a fetch or push after it that
// finds them changed (a remote's URL, a `url.*.insteadOf`) stops the job,
// exit 2, before it claims: nothing applies, and nothing is written to the
// copy either.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { errorLines, SPEC, TOOL } from "../_helpers/rollout.ts";
import { sealedRollout } from "../_helpers/sealed_rollout.ts";

/** With `ctl/<target>.redirect` holding a git config line, the plan command runs it (shell). */
const REDIRECT = 'if [ -f "ctl/$1.redirect" ]; then ' +
  "real=$(git remote get-url origin); fake=$(mktemp -d)/ledger.git; " +
  'git clone -q --bare "$real" "$fake"; ' +
  '. "ctl/$1.redirect"; fi; ';

/** The plan command: it redirects, then plans as the test tool does. */
const PLAN = [
  "sh",
  "-c",
  `${REDIRECT}exec sh "$0" plan "$1" "$2"`,
  TOOL,
  "{target}",
  "{plan}",
];

Deno.test("a plan command that sends the ledger elsewhere stops the job before it claims", async (t) => {
  for (
    const [how, line] of [
      ["git remote set-url", 'git remote set-url origin "$fake"'],
      ["url.*.insteadOf", 'git config "url.$fake.insteadOf" "$real"'],
      // Round 57: a named pipe at .git/config answered the check the clean
      // text and the push another; the same text in a new file is refused.
      [
        "the same settings in a new file",
        "cp .git/config .git/cfg.new && mv .git/cfg.new .git/config",
      ],
    ]
  ) {
    await t.step(how, async () => {
      await using keys = await tempDir();
      await using r = await sealedRollout(keys.path, { plan: PLAN });
      await r.control("eu", "redirect", `${line}\n`);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      const errors = errorLines(out.stderr);
      expect(errors.length).toBe(1);
      expect(errors[0]).toMatch(
        /^error: cannot push the ledger branch chant\/ledger: the clone's git settings \(\.git\/config: a remote's URL, url\.\*\.insteadOf, a transport setting\) changed since this job opened the ledger/,
      );
      expect(out.code).toBe(2);
      expect(await r.applied()).toEqual([]);
      // The real ledger holds no claim: the approval is unspent there.
      const files = await r.repo.git(
        "--git-dir",
        `${r.repo.root}/remote.git`,
        "ls-tree",
        "-r",
        "--name-only",
        "chant/ledger",
      );
      expect(files).toContain("-approval-");
      expect(files).not.toContain("-claim-");
    });
  }
});
