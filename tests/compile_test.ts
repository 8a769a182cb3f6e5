// What `deno task compile` says when `deno compile` fails (scripts/compile.ts).
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { denoCompileFailure } from "../scripts/compile.ts";

/** deno compile's stderr on a machine that cannot download its runtime. */
const NO_RUNTIME =
  `error: Writing deno compile executable to temporary file '/w/dist/chant-wave.tmp-40b09ac712f90a5d'

Caused by:
    0: Setting up base binary.
    1: error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip): client error (Connect): dns error: failed to lookup address information: Name or service not known
    2: client error (Connect)

Stack backtrace:
   0: <unknown>
`;

Deno.test("denoCompileFailure() says the fallback to bun in one plain line", async (t) => {
  await t.step("no runtime here: one line, no error, no backtrace", () => {
    expect(denoCompileFailure(NO_RUNTIME, true)).toEqual([
      "compile: deno compile cannot get its runtime here; bundling with bun",
    ]);
  });
  await t.step("another failure: deno's error, then the fallback", () => {
    expect(denoCompileFailure("error: Module not found\n", true)).toEqual([
      "error: Module not found",
      "compile: deno compile failed; bundling with bun",
    ]);
  });
  await t.step("DENORT_BIN set, no fallback: deno's error as it is", () => {
    expect(denoCompileFailure("error: bad denort\n", false)).toEqual([
      "error: bad denort",
    ]);
  });
});
