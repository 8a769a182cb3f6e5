/**
 * A sealed rollout on the git ledger (a bare remote as `origin`), whose one
 * gated wave ann approved with her key: the start of the attacks on sealed
 * approvals that the change's own code can push to the ledger for.
 * @module
 */

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  type Rollout,
  rollout,
  sealedApproveLine,
  SPEC,
  specOf,
  type WaveJson,
} from "./rollout.ts";
import { makeKey, signersFile } from "./ssh_key.ts";

/** Where the spec's signers file is. */
export const SIGNERS = ".chant-wave/allowed_signers";

/**
 * Makes the rollout (wave 1 `prod`, gate `always`, run `eu`), runs it once to
 * wait, and records ann's signed approval of what it planned.
 * @param keys A directory for ann's key.
 * @param spec More of the spec (another `plan` command, say).
 * @returns The rollout.
 */
export async function sealedRollout(
  keys: string,
  spec: WaveJson = {},
): Promise<Rollout> {
  const ann = await makeKey(keys, "ann");
  const r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], {
      approval: "sealed",
      ledger: "git",
      ...spec,
    }),
    { files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) } },
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  await approveAsAnn(r, waiting.stderr, ann.path);
  return r;
}

/**
 * Runs the approve line a waiting job printed, as ann with her key.
 * @param r The rollout.
 * @param stderr What the waiting job printed.
 * @param key Ann's private key file.
 */
export async function approveAsAnn(
  r: Rollout,
  stderr: string,
  key: string,
): Promise<void> {
  const signed = await r.run([
    ...sealedApproveLine(stderr),
    "--by",
    "ann@example.com",
    "--sign",
    key,
  ]);
  expect(signed.code).toBe(0);
}
