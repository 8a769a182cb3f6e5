/**
 * The `NAME GATE` positionals of `approve` and `revoke`.
 * @module
 */

import { InputError } from "../errors.ts";
import type { ParsedFlags } from "./_flags.ts";

/**
 * Reads exactly the two positionals NAME and GATE.
 * @throws {InputError} When there are not exactly two.
 */
export function nameAndGate(
  command: string,
  flags: ParsedFlags,
): { name: string; gate: string } {
  if (flags.positionals.length !== 2) {
    const got = flags.positionals.length
      ? `got "${flags.positionals.join(" ")}"`
      : "got none";
    throw new InputError(
      `"${command}" needs NAME and GATE (e.g. "chant-wave ${command} tf tf-wave-2"); ${got}`,
    );
  }
  const [name, gate] = flags.positionals;
  return { name, gate };
}
