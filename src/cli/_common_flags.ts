/**
 * The flags several commands take, defined once: `--spec`, `--wave`, `--ledger`
 * and `--json`. A command that words one differently spreads it and overrides
 * the description or the default; its name and value stay the same everywhere.
 * @module
 */

import type { Flag } from "./_flags.ts";

/** `--spec F`: the waves file. */
export const SPEC_FLAG: Flag = {
  name: "spec",
  value: { name: "F", kind: "file" },
  description: "the waves file",
};

/** `--wave K`: one wave of the spec. */
export const WAVE_FLAG: Flag = {
  name: "wave",
  value: { name: "K" },
  description: "the wave, by number or name",
};

/** `--ledger L`: where the gate ledger is (`_open_ledger.ts` chooses it). */
export const LEDGER_FLAG: Flag = {
  name: "ledger",
  value: { name: "L", kind: "ledger" },
  description: "git[:remote] or a directory",
  default:
    '$CHANT_WAVE_LEDGER, else\nthe spec\'s "ledger" with --spec, else .chant/ledger',
};

/**
 * `--json`: the result as one JSON object on stdout (and `{ exitCode, error }`
 * on an error, which `main` prints).
 * @param description What it prints, as the command's help says it.
 * @returns The flag.
 * @example
 * ```ts
 * jsonFlag("print { name, waves: [...] } on stdout").name; // "json"
 * ```
 */
export function jsonFlag(description: string): Flag {
  return { name: "json", description };
}

/**
 * `--spec F` of the commands that name a gate as `NAME GATE` or as
 * `--spec F --wave K` (`_gate_target.ts`).
 */
export const GATE_SPEC_FLAG: Flag = {
  ...SPEC_FLAG,
  description:
    "with --wave: the gate of wave K of this spec, instead of NAME GATE",
};
