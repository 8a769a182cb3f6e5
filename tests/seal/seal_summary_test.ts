// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { summariseSeal } from "../../src/seal/seal_summary.ts";
import { sshKeygen, testKeys } from "./_ssh_keygen.ts";

Deno.test("summariseSeal() names the seal's principal and key fingerprint", async (t) => {
  await using keys = await testKeys();
  const key = keys.keys.ed25519;
  await t.step("as ssh-keygen -l prints the fingerprint", async () => {
    const listed = await sshKeygen(["-l", "-f", `${key.path}.pub`]);
    const fingerprint = listed.stdout.split(" ")[1];
    expect(
      await summariseSeal({
        principal: " Ann@Example.com",
        publicKey: key.publicKey,
        signature: "",
      }),
    ).toEqual({ principal: "ann@example.com", fingerprint });
  });
  await t.step("a key that does not parse", async () => {
    expect(
      await summariseSeal({
        principal: "ann",
        publicKey: "ssh-ed25519 !!",
        signature: "",
      }),
    ).toEqual({ principal: "ann", fingerprint: "unreadable key" });
  });
});
