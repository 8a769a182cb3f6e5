// End to end through the binary: sealed approvals (SPEC.md §12): a sealed wave
// counts only approvals signed by a key listed in the signers file at base,
// `approve --sign` seals with the real ssh-keygen, and status and the ledger log
// name the signer.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  errorLines,
  plannedDigest,
  rollout,
  sealedApproveLine,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";

const PROD = { name: "prod", runs: ["eu"] };
const SIGNERS = ".chant-wave/allowed_signers";
const FINGERPRINT = /SHA256:[A-Za-z0-9+/]{43}/;

Deno.test("a sealed wave applies only under an approval signed by a key listed at base", async (t) => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  await using r = await rollout(specOf([PROD], { approval: "sealed" }), {
    files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) },
  });
  const sha12 = r.base.slice(0, 12);
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(3);
  const digest = plannedDigest(first.stderr);
  expect(first.stderr).toContain(
    `policy of wave 1 "prod": always (read at ${await r
      .readAt()}: wave 1 "prod" by name and position)\n`,
  );
  expect(first.stderr).toContain(
    `approval of wave 1 "prod": sealed by ${SIGNERS} (read as the policy above)\n`,
  );

  await t.step("an unsigned approval is recorded, with a warning", async () => {
    const out = await r.run([
      ...sealedApproveLine(first.stderr),
      "--by",
      "ann@example.com",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `approved tf-wave-1 of tf for ${digest} by ann@example.com\n`,
    );
    expect(out.stderr).toContain(
      `warning: this approval will not count: not signed (the rules at ${sha12}: sealed by ${SIGNERS}, 1 approver, anyone, self-approval allowed)\n`,
    );
  });

  await t.step("the wave waits on it and says why", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `  0 of 1 approval of ${digest}; not counted: ann@example.com (not signed)\n`,
    );
    expect(await r.applied()).toEqual([]);
  });

  await t.step("approve --sign seals it with the key", async () => {
    const out = await r.run([
      ...sealedApproveLine(first.stderr),
      "--by",
      "ann@example.com",
      "--sign",
      ann.path,
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(
      new RegExp(
        `^signed as ann@example\\.com with ${FINGERPRINT.source}$`,
        "m",
      ),
    );
    expect(out.stderr).not.toContain("warning:");
    const approvals = (await r.records("tf-wave-1"))
      .filter((record) => record.kind === "approval");
    expect(approvals[1].seal).toMatchObject({
      principal: "ann@example.com",
      publicKey: ann.publicKey,
    });
    expect(String((approvals[1].seal as { signature: string }).signature))
      .toMatch(/^-----BEGIN SSH SIGNATURE-----\n/);
  });

  await t.step("the wave applies under the sealed approval", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `gate tf-wave-1: approved by ann@example.com for ${digest}`,
    );
    expect(await r.applied()).toEqual(["eu"]);
  });

  await t.step("status and ledger log show who sealed it", async () => {
    const status = await r.run(["status", ...SPEC]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        `^  approval: ${
          digest.slice(0, 19)
        } by ann@example\\.com, sealed by ann@example\\.com \\(${FINGERPRINT.source}\\) at `,
        "m",
      ),
    );
    expect(status.stdout).toContain(
      `  approval: ${digest.slice(0, 19)} by ann@example.com at `,
    );
    expect(status.stdout).toContain(", not counted: not signed, plans: ");
    expect(status.stdout).toContain(
      `  tally: 1 of 1 approval of ${
        digest.slice(0, 19)
      }: ann@example.com (approved)\n`,
    );
    const json = JSON.parse(
      (await r.run(["status", ...SPEC, "--json"])).stdout,
    );
    expect(json.waves[0].rules).toMatchObject({
      mode: "sealed",
      signers: [SIGNERS],
      required: 1,
    });
    expect(json.waves[0].approvals[1].seal).toMatchObject({
      principal: "ann@example.com",
      verified: true,
    });
    const log = await r.run(["ledger", "log"]);
    expect(log.stdout).toMatch(
      new RegExp(
        `approval [0-9a-f]{12} sha256:[0-9a-f]{12} by ann@example\\.com, sealed by ann@example\\.com \\(${FINGERPRINT.source}\\)$`,
        "m",
      ),
    );
  });
});

Deno.test("a sealed gate refuses keys not listed at base, edited records and a missing signers file", async (t) => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  const bob = await makeKey(keys.path, "bob");

  await t.step(
    "a key listed only in the change's signers file is refused",
    async () => {
      await using r = await rollout(specOf([PROD], { approval: "sealed" }), {
        files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) },
      });
      await r.repo.commit("list bob's key", {
        [SIGNERS]: signersFile({
          "ann@example.com": ann,
          "bob@example.com": bob,
        }),
      });
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      const signed = await r.run([
        ...sealedApproveLine(waiting.stderr),
        "--by",
        "bob@example.com",
        "--sign",
        bob.path,
      ]);
      expect(signed.code).toBe(0);
      expect(signed.stderr).toContain(
        "warning: this approval will not count: key not listed for bob@example.com (",
      );
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        "; not counted: bob@example.com (key not listed for bob@example.com)\n",
      );
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "a signer who names another principal is refused",
    async () => {
      await using r = await rollout(specOf([PROD], { approval: "sealed" }), {
        files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) },
      });
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      await r.run([
        ...sealedApproveLine(waiting.stderr),
        "--by",
        "ann@example.com",
        "--sign",
        bob.path,
      ]);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        "not counted: ann@example.com (key not listed for ann@example.com)\n",
      );
    },
  );

  await t.step(
    "an approval record edited after signing does not verify",
    async () => {
      await using r = await rollout(specOf([PROD], { approval: "sealed" }), {
        files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) },
      });
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      await r.run([
        ...sealedApproveLine(waiting.stderr),
        "--by",
        "ann@example.com",
        "--note",
        "ok",
        "--sign",
        ann.path,
      ]);
      const dir = `${r.path}/.chant/ledger/gates/tf/tf-wave-1`;
      for await (const entry of Deno.readDir(dir)) {
        if (!entry.name.includes("-approval-")) continue;
        const record = JSON.parse(
          await Deno.readTextFile(`${dir}/${entry.name}`),
        );
        record.timestamp = new Date(Date.parse(record.timestamp) + 1)
          .toISOString();
        await Deno.writeTextFile(
          `${dir}/${entry.name}`,
          JSON.stringify(record, null, 2),
        );
      }
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        "not counted: ann@example.com (signature does not verify)\n",
      );
    },
  );

  await t.step(
    "with no signers file at base nothing counts, even when the change adds one",
    async () => {
      await using r = await rollout(specOf([PROD], { approval: "sealed" }));
      await r.repo.commit("add a signers file", {
        [SIGNERS]: signersFile({ "ann@example.com": ann }),
      });
      // The signers file is absent in every version the chain reads.
      const base = r.base;
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      const why =
        `the gate is sealed, and there is no signers file ${SIGNERS} at ${
          base.slice(0, 12)
        }`;
      expect(waiting.stderr).toContain(`warning: ${why}\n`);
      await r.run([
        ...sealedApproveLine(waiting.stderr),
        "--by",
        "ann@example.com",
        "--sign",
        ann.path,
      ]);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(`not counted: ann@example.com (${why})\n`);
    },
  );
});

Deno.test("a change that switches a sealed wave to ledger approvals is still sealed", async () => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  await using r = await rollout(
    specOf([{ ...PROD, approval: "sealed" }]),
    {
      headSpec: specOf([{ ...PROD, approval: "ledger" }]),
      files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) },
    },
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  expect(waiting.stderr).toContain(
    `policy of wave 1 "prod": always (read at ${r.base.slice(0, 12)}`,
  );
  expect(waiting.stderr).toContain(
    `approval of wave 1 "prod": sealed by ${SIGNERS} (read as the policy above)\n`,
  );
  await r.run([
    ...sealedApproveLine(waiting.stderr),
    "--by",
    "ann@example.com",
  ]);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain("not counted: ann@example.com (not signed)\n");
  const signed = await r.run([
    ...sealedApproveLine(waiting.stderr),
    "--by",
    "ann@example.com",
    "--sign",
    ann.path,
  ]);
  expect(signed.code).toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  expect(await r.applied()).toEqual(["eu"]);
});

Deno.test("approve --sign fails with one line when it cannot sign, and records nothing", async (t) => {
  await using r = await rollout(specOf([PROD], { approval: "sealed" }));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  const approve = [
    ...sealedApproveLine(waiting.stderr),
    "--by",
    "ann@example.com",
  ];
  const approvals = async () =>
    (await r.records("tf-wave-1")).filter((x) => x.kind === "approval");

  await t.step("no KEY, and git names no signing key", async () => {
    const out = await r.run([...approve, "--sign"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      'error: cannot tell which key signs: git\'s gpg.format is not set, not "ssh"',
    ]);
  });

  await t.step("a key file that does not exist", async () => {
    const out = await r.run([...approve, "--sign", `${r.path}/missing-key`]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      `error: cannot sign: key file "${r.path}/missing-key" does not exist`,
    ]);
  });

  await t.step("no ssh-keygen on PATH", async () => {
    await using keys = await tempDir();
    const ann = await makeKey(keys.path, "ann");
    await Deno.mkdir(`${keys.path}/bin`);
    await Deno.symlink("/usr/bin/git", `${keys.path}/bin/git`);
    const out = await r.run([...approve, `--sign=${ann.path}`], {
      PATH: `${keys.path}/bin`,
    });
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      'error: cannot sign: "ssh-keygen" was not found (install OpenSSH\'s ssh-keygen, or check PATH)',
    ]);
  });

  await t.step("nothing was recorded", async () => {
    expect(await approvals()).toEqual([]);
  });
});
