/**
 * The name of a wave's gate (SPEC.md §4.5): `<gate>-wave-<k>`, from the spec's
 * `gate` prefix and the wave's number. Pure; every stage, command and record
 * that names a gate takes it from here.
 * @module
 */

import type { Spec } from "../spec/types.ts";

/**
 * The gate of wave `k`: `<gate>-wave-<k>`.
 * @param spec The spec (its `gate` prefix).
 * @param k The wave's number.
 * @returns The gate's name.
 * @example
 * ```ts
 * gateName({ gate: "tf" }, 2); // "tf-wave-2"
 * ```
 */
export function gateName(spec: Pick<Spec, "gate">, k: number): string {
  return `${spec.gate}-wave-${k}`;
}
