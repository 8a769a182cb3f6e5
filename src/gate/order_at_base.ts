/**
 * Whether waves must run in order (SPEC.md §4.11), read at the base commit like
 * the gate, so a change cannot switch the check off. Pure: the spec at base in,
 * the setting and its reason out.
 * @module
 */

import type { Order } from "../spec/types.ts";
import type { BaseSpec } from "./base_spec.ts";

/**
 * Reads `order` from the spec at base; `strict` unless the spec there says `none`
 * (a spec absent or broken at base means `strict`).
 * @param base The base commit's sha and the spec there.
 * @returns The order and why.
 * @example
 * ```ts
 * orderAtBase({ sha, spec: { status: "absent" } });
 * // { order: "strict", reason: "the spec is not in 0123456789ab" }
 * ```
 */
export function orderAtBase(
  base: { sha: string; spec: BaseSpec },
): { order: Order; reason: string } {
  const sha12 = base.sha.slice(0, 12);
  if (base.spec.status === "absent") {
    return { order: "strict", reason: `the spec is not in ${sha12}` };
  }
  if (base.spec.status === "unparsable") {
    return { order: "strict", reason: `the spec at ${sha12} does not parse` };
  }
  return { order: base.spec.spec.order, reason: `read at ${sha12}` };
}
