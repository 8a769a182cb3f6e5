/**
 * The bun the shipped binary is built with, for tests that run code under it
 * as the binary does (through `npx`, as `scripts/compile.ts` runs it).
 * @module
 */

const COMPILE_SCRIPT = new URL("../../scripts/compile.ts", import.meta.url);

/**
 * The bun that `scripts/compile.ts` builds the shipped binary with.
 * @returns Its npm name and version, e.g. `bun@1.4.5`.
 */
export async function bunOfCompileScript(): Promise<string> {
  const script = await Deno.readTextFile(COMPILE_SCRIPT);
  return /const BUN = "(bun@[^"]+)"/.exec(script)![1];
}
