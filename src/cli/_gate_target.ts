/**
 * The gate a command acts on (`approve`, `revoke`, `show`): `NAME GATE` as
 * printed after `then approve:`, or `--spec F --wave K` so nobody types
 * `NAME NAME-wave-K`. It checks that the ledger knows the gate, suggesting the
 * nearest one it does know when it does not.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { gateName } from "../gate/gate_messages.ts";
import { suggest } from "../spec/did_you_mean.ts";
import type { ParsedFlags } from "./_flags.ts";
import { loadSpec } from "./_load_spec.ts";
import { type SpecsAtBase, specsAtBase } from "./_spec_at_base.ts";
import type { CliIo } from "./io.ts";
import type { Spec, Wave } from "../spec/types.ts";

/** A rollout's gate. */
export interface GateTarget {
  /** The spec's `name`. */
  name: string;
  /** The gate, `<gate>-wave-<k>`. */
  gate: string;
  /** The spec, when named with `--spec F --wave K`. */
  spec?: Spec;
  /** The spec file as named, its working copy and the spec at base, with `--spec F --wave K`. */
  named?: { file: string; spec: Spec; atBase: SpecsAtBase };
}

/**
 * Reads the gate from `NAME GATE`, or from `--spec F --wave K` (K a wave's number
 * or name).
 * @param command The command, for messages.
 * @param flags Its flags (positionals, `spec`, `wave`).
 * @param io Git, the working directory and the environment (the spec at base
 * is read too).
 * @returns The rollout's name and the gate.
 * @throws {InputError} Without either form, with both, for a wave not in the
 * spec, or when the spec at base names the gate otherwise.
 */
export async function gateTarget(
  command: string,
  flags: ParsedFlags,
  io: Pick<CliIo, "git" | "cwd" | "env">,
): Promise<GateTarget> {
  const { cwd } = io;
  const { spec: file, wave } = flags.strings;
  const byPosition = flags.positionals.length > 0;
  if (file !== undefined || wave !== undefined) {
    if (byPosition || file === undefined || wave === undefined) {
      throw new InputError(
        `"${command}" takes NAME GATE, or --spec F --wave K; not both, nor half of one`,
      );
    }
    const { spec } = await loadSpec(file, cwd);
    const found = findWave(spec, wave, file);
    const name = spec.name;
    const gate = gateName(spec, found.k);
    const atBase = await specsAtBase(file, io, { approver: true });
    refuseOtherGate({ file, wave, name, gate }, atBase);
    return { name, gate, spec, named: { file, spec, atBase } };
  }
  if (flags.positionals.length !== 2) {
    const got = flags.positionals.length
      ? `got "${flags.positionals.join(" ")}"`
      : "got none";
    throw new InputError(
      `"${command}" needs NAME and GATE (e.g. "chant-wave ${command} tf tf-wave-2") or --spec F --wave K; ${got}`,
    );
  }
  const [name, gate] = flags.positionals;
  return { name, gate };
}

/**
 * Refuses a rollout or gate the working copy names that a version of the spec
 * at base names otherwise (exit 2): on a laptop the working copy is the
 * change's, whose rename of the rollout or of a wave would send an approval or
 * a revoke to a gate no job reads, or approve another wave than the one asked
 * for. A version where the spec does not parse names no gate.
 */
function refuseOtherGate(
  asked: { file: string; wave: string; name: string; gate: string },
  atBase: SpecsAtBase,
): void {
  const { file, wave, name, gate } = asked;
  const others = new Set<string>();
  for (const spec of atBase.specs) {
    if (spec === undefined) continue;
    const found = spec.waves.find((w) =>
      String(w.k) === wave || w.name === wave
    );
    const there = found === undefined
      ? `no wave "${wave}"`
      : `"${gateName(spec, found.k)}" of "${spec.name}"`;
    if (
      spec.name !== name || found === undefined ||
      gateName(spec, found.k) !== gate
    ) others.add(there);
  }
  if (others.size === 0) return;
  throw new InputError(
    `${file}: this change makes wave "${wave}" the gate "${gate}" of "${name}"; ` +
      `the spec at base ${atBase.sha.slice(0, 12)} has ${
        [...others].join(", ")
      }: ` +
      `pass NAME GATE as the waiting job printed them`,
  );
}

/**
 * The wave `--wave` names: its number or its name.
 * @param spec The spec.
 * @param wave The flag's value.
 * @param file The spec file, for the message.
 * @returns The wave.
 * @throws {InputError} For a wave not in the spec, with the nearest name.
 */
export function findWave(spec: Spec, wave: string, file: string): Wave {
  const found = spec.waves.find((w) => String(w.k) === wave || w.name === wave);
  if (found !== undefined) return found;
  const near = suggest(wave, spec.waves.map((w) => w.name));
  throw new InputError(
    `wave "${wave}" is not in "${file}"${
      near ? `; did you mean "${near}"?` : ""
    }`,
    [`waves: ${spec.waves.map((w) => `${w.k} "${w.name}"`).join(", ")}`],
  );
}

/**
 * Refuses a gate the ledger holds no record of: a typo in the rollout or the gate
 * would otherwise record an approval nobody waits for.
 * @param target The rollout and gate.
 * @param ledger The ledger.
 * @throws {InputError} Exit 2 naming the nearest known gate, or the known ones.
 */
export async function requireKnownGate(
  target: GateTarget,
  ledger: Ledger,
): Promise<void> {
  const known = await ledger.listGates();
  if (known.some((g) => g.name === target.name && g.gate === target.gate)) {
    return;
  }
  const names = [...new Set(known.map((g) => g.name))];
  const where = ledger.describe();
  if (!names.includes(target.name)) {
    const near = suggest(target.name, names);
    throw new InputError(
      `rollout "${target.name}" has no gate in ${where}${
        near ? `; did you mean "${near}"?` : ""
      }`,
      [
        known.length
          ? `rollouts: ${names.join(", ")}`
          : "the ledger is empty: run the deciding job first, or pass the --ledger it used",
      ],
    );
  }
  const gates = known.filter((g) => g.name === target.name).map((g) => g.gate);
  const near = suggest(target.gate, gates);
  throw new InputError(
    `gate "${target.gate}" of "${target.name}" is not in ${where}${
      near ? `; did you mean "${near}"?` : ""
    }`,
    [`gates of "${target.name}": ${gates.join(", ")}`],
  );
}
