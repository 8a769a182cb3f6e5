// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import { createDigest, hashHex } from "../../src/digest/hash.ts";

const oracle = (name: string, parts: (string | Uint8Array)[]) => {
  const hash = createHash(name);
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};

Deno.test("hashHex() and createDigest() give node:crypto's SHA-1 and SHA-256 of bytes and UTF-8 text", () => {
  const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) & 0xff);
  for (const name of ["sha1", "sha256"] as const) {
    expect(hashHex(name, "")).toBe(oracle(name, [""]));
    expect(hashHex(name, "wave ✓ ünïcode")).toBe(
      oracle(name, [new TextEncoder().encode("wave ✓ ünïcode")]),
    );
    expect(hashHex(name, bytes)).toBe(oracle(name, [bytes]));
    expect(
      createDigest(name).update("blob 3\0").update(bytes.subarray(0, 3)).hex(),
    ).toBe(oracle(name, ["blob 3\0", bytes.subarray(0, 3)]));
  }
  expect(hashHex("sha1", "")).toBe("da39a3ee5e6b4b0d3255bfef95601890afd80709");
});
