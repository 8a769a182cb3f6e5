/**
 * A stand-in for `parseSpec` in policy tests: parses JSONC, unwraps the
 * compatibility wrapper and, like the real parser, fills the default `gate`
 * ("always"), so the raw-`gate` detection is really exercised. Text containing
 * `INVALID` is rejected like a spec that parses as JSONC but fails validation.
 * @module
 */

// @ts-types="../../types/std/jsonc.d.ts"
import { parse } from "@std/jsonc";

/** The message the stand-in throws for the `INVALID` marker (two lines). */
export function invalidMessage(file: string): string {
  return `${file}:2:3: wave 1 "dev": unknown field "INVALID"\n${file}:4:1: second problem`;
}

/**
 * Parses a spec the way the tests need.
 * @param text The spec's text.
 * @param file The file name for messages.
 * @returns The waves, each with a `gate` (the default filled in).
 * @throws {Error} On bad JSONC or the `INVALID` marker.
 */
export function standInParse(
  text: string,
  file: string,
): { waves: { name: string; gate: string }[] } {
  if (text.includes("INVALID")) throw new Error(invalidMessage(file));
  type RawSpec = { waves: { name: string; gate?: string }[] };
  const raw = parse(text) as unknown as RawSpec | { waves: RawSpec };
  const spec = Array.isArray(raw.waves) ? raw as RawSpec : raw.waves as RawSpec;
  return {
    waves: spec.waves.map((w) => ({ name: w.name, gate: w.gate ?? "always" })),
  };
}
