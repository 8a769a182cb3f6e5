// End to end through the binary: a fresh-eyed attack held a wave on a sealed
// gate of the same rollout (a hold `after` wave 1) and wrote an unsigned
// approval of wave 1's plans: wave 1's own gate refused it, but the hold
// counted it and wave 2 applied. A hold judges its gate's approvals by the
// rules of that gate's wave at base: only ann's signed approval lets wave 2 on.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";
import { approveAsAnn } from "../_helpers/sealed_rollout.ts";

Deno.test("a hold on a sealed gate counts only an approval that gate counts", async (t) => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  await using r = await rollout(
    specOf([
      { name: "canary", gate: "always", runs: ["eu"] },
      {
        name: "prod",
        gate: "never",
        runs: ["us"],
        hooks: {
          "before-apply": [
            {
              name: "canary-approved",
              after: { name: "tf", gate: "tf-wave-1" },
            },
          ],
        },
      },
    ], { approval: "sealed" }),
    {
      files: {
        ".chant-wave/allowed_signers": signersFile({ "ann@example.com": ann }),
      },
    },
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  await t.step("an unsigned approval does not pass it", async () => {
    const words = approveLine(waiting.stderr).filter((w) => w !== "--sign");
    expect((await r.run([...words, "--by", "mallory"])).code).toBe(0);
    const held = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(held.stderr).toMatch(
      /^hold before-apply "canary-approved" on tf \/ tf-wave-1: held: the plans sha256:[0-9a-f]{64} wait for an approval$/m,
    );
    expect(held.stderr).toMatch(
      /^wave 2 "prod" waits on tf \/ tf-wave-1; nothing in it applied\. Approve: chant-wave approve tf tf-wave-1 --plan sha256:[0-9a-f]{64} --sign$/m,
    );
    expect(held.code).toBe(3);
    expect(await r.applied()).toEqual([]);
  });
  await t.step("ann's signed approval does", async () => {
    await approveAsAnn(r, waiting.stderr, ann.path);
    const out = await r.run(["run", ...SPEC, "--wave", "2"]);
    expect(out.stderr).toMatch(
      /^hold before-apply "canary-approved" on tf \/ tf-wave-1: ok: approved by ann@example\.com for sha256:[0-9a-f]{64}$/m,
    );
    expect(out.code).toBe(0);
    expect(await r.applied()).toEqual(["us"]);
  });
});
