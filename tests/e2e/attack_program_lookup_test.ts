// End to end through the binary: a fresh-eyed attack (round 60) found two
// programs chant-wave had git or itself look up on `PATH` each time it ran
// them. A plan command of the change wrote an `ssh` into a directory first on
// `PATH` but outside the checkout (`~/.local/bin`), so the job's later pushes
// (its claim: what spends a sealed approval) went to a copy of the ledger and
// the approval applied again; and `approve --sign` ran an `ssh-keygen` the
// change committed into a checkout directory an approver's `PATH` named,
// handing it the approver's key. Both are now found once, when the command
// starts, on the absolute directories of `PATH` outside the checkout, and run
// by their path, as chant-wave's git is.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  errorLines,
  rollout,
  sealedApproveLine,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";
import { sealedRollout, SIGNERS } from "../_helpers/sealed_rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";

/** With `ctl/<target>.plant` present, the plan command runs it (shell) first. */
const PLAN = [
  "sh",
  "-c",
  'if [ -f "ctl/$1.plant" ]; then . "ctl/$1.plant"; fi; ' +
  'exec sh "$0" plan "$1" "$2"',
  TOOL,
  "{target}",
  "{plan}",
];

/** A stand-in for the runner's `ssh`: runs the remote command here. */
const SSH = `#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in -o|-p|-l|-i) shift 2 ;; -*) shift ;; *) break ;; esac
done
shift
exec sh -c "$*"
`;

Deno.test("an ssh a plan command writes first on PATH never carries the job's pushes", async (t) => {
  // Round 61: a pipeline's GIT_SSH_COMMAND, or the clone's core.sshCommand,
  // that names ssh by name found the planted one too.
  const ways: [string, Record<string, string>, string[]][] = [
    ["git's own ssh", {}, []],
    ["GIT_SSH_COMMAND=ssh", { GIT_SSH_COMMAND: "ssh" }, []],
    ["core.sshCommand = ssh", {}, ["config", "core.sshCommand", "ssh"]],
  ];
  for (const [how, env, config] of ways) {
    await t.step(how, async () => {
      await using keys = await tempDir();
      await using r = await sealedRollout(keys.path, { plan: PLAN });
      const remote = `${r.repo.root}/remote.git`;
      const bin = `${r.repo.root}/bin`;
      const plant = `${r.repo.root}/plant`;
      const mark = `${r.repo.root}/planted`;
      await Deno.mkdir(bin);
      await Deno.mkdir(plant);
      await Deno.writeTextFile(`${bin}/ssh`, SSH, { mode: 0o755 });
      await r.repo.git(
        "remote",
        "set-url",
        "origin",
        `ssh://ledgerhost${remote}`,
      );
      if (config.length > 0) await r.repo.git(...config);
      await r.control(
        "eu",
        "plant",
        `printf '#!/bin/sh\\necho planted >> ${mark}\\nexit 1\\n' > ${plant}/ssh; ` +
          `chmod +x ${plant}/ssh\n`,
      );
      const out = await r.run(["run", ...SPEC, "--wave", "1"], {
        PATH: `${plant}:${bin}:/usr/bin:/bin`,
        ...env,
      });
      expect(errorLines(out.stderr)).toEqual([]);
      expect(out.code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
      // The planted ssh was written, and never run for chant-wave's git.
      expect((await Deno.stat(`${plant}/ssh`)).isFile).toBe(true);
      expect(await Deno.readTextFile(mark).catch(() => "")).toBe("");
      // The claim reached the real ledger: the approval is spent there.
      const files = await r.repo.git(
        "--git-dir",
        remote,
        "ls-tree",
        "-r",
        "--name-only",
        "chant/ledger",
      );
      expect(files).toContain("-claim-");
    });
  }
});

Deno.test("approve --sign runs no ssh-keygen of the checkout, whatever PATH names", async () => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
      approval: "sealed",
    }),
    { files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) } },
  );
  const mark = `${keys.path}/taken`;
  await r.repo.commit("the change's ssh-keygen", {
    "bin/ssh-keygen": `#!/bin/sh\necho "$*" >> ${mark}\nexit 1\n`,
  });
  await Deno.chmod(`${r.path}/bin/ssh-keygen`, 0o755);
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  for (const dir of [`${r.path}/bin`, "bin", `${r.path}/./bin`]) {
    const signed = await r.run([
      ...sealedApproveLine(waiting.stderr),
      "--by",
      "ann@example.com",
      "--sign",
      ann.path,
    ], { PATH: `${dir}:/usr/bin:/bin` });
    expect(errorLines(signed.stderr)).toEqual([]);
    expect(signed.code).toBe(0);
  }
  expect(await Deno.readTextFile(mark).catch(() => "")).toBe("");
});
