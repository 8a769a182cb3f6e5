// End to end through the binary: an error chant-wave did not expect (here a
// stdout on a full device, which no command maps to an input error) is exit 1
// with the headline "error: internal error: …", and a stack only with
// CHANT_WAVE_DEBUG=1 (STYLE.md, "Errors": the two families).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { BINARY } from "../_helpers/binary.ts";

/** Runs `chant-wave --version` with stdout on /dev/full, under `env -i`. */
async function versionToFullDevice(env: string[] = []) {
  const { code, stdout, stderr } = await new Deno.Command("/usr/bin/env", {
    args: [
      "-i",
      "PATH=/usr/bin:/bin",
      ...env,
      "sh",
      "-c",
      'exec "$0" --version > /dev/full',
      BINARY,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    lines: decoder.decode(stderr).split("\n").slice(0, -1),
  };
}

const HEADLINE = /^error: internal error: ENOSPC\b.*\bwrite\b/;

Deno.test("an internal error prints its headline and a hint, no stack, and exits 1", async () => {
  const { code, stdout, lines } = await versionToFullDevice();
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(HEADLINE);
  expect(lines[1]).toBe("  set CHANT_WAVE_DEBUG=1 for a stack trace");
});

Deno.test("CHANT_WAVE_DEBUG=1 prints the internal error's stack after its headline", async () => {
  const { code, lines } = await versionToFullDevice(["CHANT_WAVE_DEBUG=1"]);
  expect(code).toBe(1);
  expect(lines[0]).toMatch(HEADLINE);
  expect(lines[1]).toMatch(/^Error: ENOSPC\b/);
  const frames = lines.slice(2);
  expect(frames.length).toBeGreaterThan(0);
  for (const frame of frames) expect(frame).toMatch(/^ {4}at /);
  expect(lines).not.toContain("  set CHANT_WAVE_DEBUG=1 for a stack trace");
});
