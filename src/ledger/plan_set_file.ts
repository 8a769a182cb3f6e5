/**
 * The plan set of a pending fact (SPEC.md §10): the `(target, planDigest)` pairs a
 * set digest names, kept beside the gate's records as `sets/<hex>.json` so that an
 * approval of the digest covers exactly those plans. A plan set proves itself: its
 * pairs must hash to the digest in its name. Pure: text in, pairs out.
 * @module
 */

import { isDigest, setDigest } from "../digest/set_digest.ts";
import type { PlanPair } from "./records.ts";

/**
 * The file name of a digest's plan set: its hex and `.json`.
 * @param digest A set digest, `sha256:<64 hex>`.
 * @returns `<64 hex>.json`.
 * @throws {Error} When `digest` is not a set digest.
 * @example
 * ```ts
 * planSetFileName("sha256:" + "a".repeat(64)); // "aaaa….json"
 * ```
 */
export function planSetFileName(digest: string): string {
  if (!isDigest(digest)) throw new Error(`not a set digest: ${digest}`);
  return `${digest.slice("sha256:".length)}.json`;
}

/**
 * Serialises a plan set: the pairs sorted by target, one per line.
 * @param digest The set digest the pairs hash to.
 * @param pairs The members' targets and plan digests.
 * @returns The file's text.
 * @example
 * ```ts
 * formatPlanSet(d, [{ target: "eu", planDigest: p }]);
 * // '{"version":1,"digest":"sha256:…","members":[\n{"target":"eu","planDigest":"sha256:…"}\n]}\n'
 * ```
 */
export function formatPlanSet(
  digest: string,
  pairs: readonly PlanPair[],
): string {
  const sorted = [...pairs].sort((a, b) =>
    a.target < b.target ? -1 : a.target > b.target ? 1 : 0
  );
  const members = sorted.map(({ target, planDigest }) =>
    JSON.stringify({ target, planDigest })
  ).join(",\n");
  return `{"version":1,"digest":${
    JSON.stringify(digest)
  },"members":[\n${members}\n]}\n`;
}

/**
 * Reads a plan set back and checks that its pairs hash to `digest`.
 * @param text The file's text.
 * @param digest The digest the file is named for.
 * @returns The pairs.
 * @throws {Error} A one-line reason when the text is not a plan set of `digest`.
 * @example
 * ```ts
 * parsePlanSet(formatPlanSet(d, pairs), d); // pairs, sorted by target
 * ```
 */
export function parsePlanSet(text: string, digest: string): PlanPair[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`);
  }
  const set = value as { digest?: unknown; members?: unknown } | null;
  if (set?.digest !== digest || !Array.isArray(set.members)) {
    throw new Error(`is not the plan set of ${digest}`);
  }
  const pairs = set.members.map((m: unknown, i: number) => {
    const { target, planDigest } = (m ?? {}) as Record<string, unknown>;
    if (typeof target !== "string" || typeof planDigest !== "string") {
      throw new Error(`members[${i}] is not a target and a plan digest`);
    }
    return { target, planDigest };
  });
  let actual: string;
  try {
    actual = setDigest(pairs);
  } catch (error) {
    throw new Error((error as Error).message);
  }
  if (actual !== digest) {
    throw new Error(`its members hash to ${actual}, not ${digest}`);
  }
  return pairs;
}
