// End to end through the binary, as an attacker would mount it: the change's
// plan command runs in the job's checkout and may rewrite its git (SPEC.md
// §4.12: code in the job can do what the job's credentials allow, but sealed
// approvals hold even then). A `git replace` that swaps the signers file at
// base for one listing the attacker's key changes nothing: the gate's reads of
// git are made before the first command of the change, and no replace ref ever
// swaps what an object id names.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  rollout,
  sealedApproveLine,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";

const SIGNERS = ".chant-wave/allowed_signers";
const PROD = { name: "prod", gate: "always", approval: "sealed", runs: ["eu"] };

Deno.test("a plan command that replaces the signers file in the checkout's git approves nothing", async () => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  const mallory = await makeKey(keys.path, "mallory");
  await using r = await rollout(specOf([PROD]), {
    files: { [SIGNERS]: signersFile({ "ann@example.com": ann }) },
  });
  // The change: its plan command first points the base's signers blob at one
  // that lists mallory too, then plans as usual.
  const forged = signersFile({
    "ann@example.com": ann,
    "mallory@evil.example": mallory,
  });
  await r.repo.commit("the change", {
    "evil.sh": [
      "set -e",
      `blob=$(git rev-parse "${r.base}:${SIGNERS}")`,
      `fake=$(printf '%s' '${forged}' | git hash-object -w --stdin)`,
      'git replace -f "$blob" "$fake"',
      `exec sh '${TOOL}' plan "$1" "$2"`,
      "",
    ].join("\n"),
    "waves.json": JSON.stringify(
      specOf([PROD], { plan: ["sh", "evil.sh", "{target}", "{plan}"] }),
      null,
      2,
    ) + "\n",
  });
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const signed = await r.run([
    ...sealedApproveLine(waiting.stderr),
    "--by",
    "mallory@evil.example",
    "--sign",
    mallory.path,
  ]);
  expect(signed.code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(/not counted: mallory@evil\.example \(/);
  expect(await r.applied()).toEqual([]);
});
