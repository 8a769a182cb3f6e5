/**
 * The hooks stage's first step (SPEC.md §11): a wave's hooks are its own (or the
 * spec's), plus every hold of the base waves that govern it, since holds are
 * policy and a change cannot remove one. Logs each hold kept from base.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { holdsAtBase, withHolds } from "../hooks/wave_holds.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import type { Hooks, Wave } from "../spec/types.ts";
import type { RunIo } from "./run_io.ts";

/**
 * Adds the holds at base to a wave's hooks and logs the ones added.
 * @param hooks The hooks so far (the wave's, or what an earlier call returned).
 * @param wave The wave (its number and name).
 * @param bases The base commits and the spec at each.
 * @param targets Every target the wave holds in this job (declared and planned).
 * @param io The log.
 * @returns The hooks with every hold at base.
 */
export function waveHooks(
  hooks: Hooks,
  wave: Pick<Wave, "k" | "name">,
  bases: readonly { sha: string; spec: BaseSpec }[],
  targets: Iterable<string>,
  io: Pick<RunIo, "stderr">,
): Hooks {
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const { hooks: all, added } = withHolds(hooks, holdsAtBase(bases, ref));
  const log = lineLog(io.stderr);
  for (const { point, hook, sha, from } of added) {
    const where = from === "top level"
      ? "its top level"
      : `wave ${from.k} "${from.name}"`;
    log(
      `hold ${point} "${hook.name}" on ${hook.after.name} / ${hook.after.gate}: ` +
        `read at ${
          sha.slice(0, 12)
        } (${where}); holds are policy, so it stands`,
    );
  }
  return all;
}
