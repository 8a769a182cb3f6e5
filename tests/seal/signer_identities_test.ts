// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseAllowedSigners } from "../../src/seal/allowed_signers.ts";
import { signerIdentities } from "../../src/seal/signer_identities.ts";

/** An ed25519 key line whose 32 key bytes are all `n` (a valid key line). */
function key(n: number): string {
  const type = new TextEncoder().encode("ssh-ed25519");
  const blob = new Uint8Array(4 + type.length + 4 + 32);
  const view = new DataView(blob.buffer);
  view.setUint32(0, type.length);
  blob.set(type, 4);
  view.setUint32(4 + type.length, 32);
  blob.fill(n, 8 + type.length);
  return `ssh-ed25519 ${btoa(String.fromCharCode(...blob))}`;
}

const [A, B, C, D] = [1, 2, 3, 4].map(key);

/** The identities as sorted principal lists, one per group, sorted. */
function groups(
  text: string,
  signed: { key: string; principal: string }[] = [],
) {
  const ids = signerIdentities([parseAllowedSigners(text)], signed);
  const seen = new Map<string, string[]>();
  for (const identity of ids.values()) {
    seen.set(identity.id, [...identity.principals]);
  }
  return [...seen.values()].sort((x, y) =>
    (x[0] ?? "") < (y[0] ?? "") ? -1 : 1
  );
}

Deno.test("signerIdentities() groups keys and principals listed together", async (t) => {
  const cases: [
    string,
    string,
    { key: string; principal: string }[],
    string[][],
  ][] = [
    [
      "one key per person: one identity each",
      `ann@x ${A}\nbob@x ${B}\n`,
      [],
      [["ann@x"], ["bob@x"]],
    ],
    [
      "one key listed for two principals: one identity",
      `ann@x ${A}\nbob@x ${A}\n`,
      [],
      [["ann@x", "bob@x"]],
    ],
    [
      "one principal listed with two keys: one identity",
      `ann@x ${A}\nann@x ${B}\n`,
      [],
      [["ann@x"]],
    ],
    [
      "a chain of keys and principals: one identity",
      `ann@x,login:ann ${A}\nlogin:ann,a@corp ${B}\na@corp ${C}\nbob@x ${D}\n`,
      [],
      [["a@corp", "ann@x", "login:ann"], ["bob@x"]],
    ],
    [
      "a login and the bare name, both listed: one identity",
      `login:ann ${A}\nann ${B}\n`,
      [],
      [["ann", "login:ann"]],
    ],
    [
      "a negated pattern joins nothing",
      `*@x,!eve@x ${A}\neve@x ${B}\n`,
      [],
      [["*@x"], ["eve@x"]],
    ],
    [
      "two keys listed for one pattern: one identity",
      `*@x ${A}\n*@x ${B}\n`,
      [],
      [["*@x"]],
    ],
    [
      "a pattern's key signing as a listed person joins that person",
      `*@x ${A}\nann@x ${B}\n`,
      [{ key: A, principal: "ann@x" }],
      [["*@x", "ann@x"]],
    ],
    [
      "principals compare normalised",
      `Ann@X ${A}\nann@x ${B}\n`,
      [],
      [["ann@x"]],
    ],
  ];
  for (const [name, text, signed, want] of cases) {
    await t.step(name, () => expect(groups(text, signed)).toEqual(want));
  }
});

Deno.test("signerIdentities() names each identity by its smallest member, keys sorted", () => {
  const ids = signerIdentities(
    [parseAllowedSigners(`bob@x ${B}\n`), parseAllowedSigners(`bob@x ${A}\n`)],
    [],
  );
  const identity = ids.get(A)!;
  expect(ids.get(B)).toBe(identity);
  expect(identity).toEqual({
    id: `key:${[A, B].sort()[0]}`,
    keys: [A, B].sort(),
    principals: ["bob@x"],
  });
  expect(ids.get(C)).toBeUndefined();
});
