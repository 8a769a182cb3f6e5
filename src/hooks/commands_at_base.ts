/**
 * Hook commands at base, for a rollout that runs no command of the change
 * (sqitch, SPEC.md §17: chant-wave plans and deploys, the change only brings
 * files). There a hook command the change adds would be the change's code,
 * run with the job's database credentials before the gate: so a wave's hook
 * command runs only when every base version holds the same command (same
 * point, name and argv) on a base wave that governs it (§4.4: same name, same
 * position, a shared target; for a wave no base wave governs, the base's
 * top-level hooks, as for holds). Any other is left out until the change is
 * merged. Holds are `wave_holds.ts`'s. Pure.
 * @module
 */

import {
  type BaseSpec,
  governingWaves,
  type WaveRef,
} from "../gate/base_spec.ts";
import type { Command } from "../spec/command_types.ts";
import {
  type CommandHook,
  HOOK_POINTS,
  type HookPoint,
  type Hooks,
} from "../spec/types.ts";

/** A hook command of the change that is not at base. */
export interface LeftOut {
  point: HookPoint;
  hook: CommandHook;
}

/**
 * Whether two hook commands are one: the same name and argv.
 * @param a A hook command.
 * @param b Another.
 * @returns True when they run the same.
 * @example
 * ```ts
 * sameCommand({ name: "a", run: ["x"] }, { name: "a", run: ["x"] }); // true
 * ```
 */
export function sameCommand(a: CommandHook, b: CommandHook): boolean {
  return a.name === b.name && a.run.length === b.run.length &&
    a.run.every((arg, i) => arg === b.run[i]);
}

/**
 * Keeps the wave's hook commands that every base version holds.
 * @param hooks The wave's hooks (the working copy's).
 * @param bases The base commits and the spec at each.
 * @param wave The wave of the change: number, name and every target it holds.
 * @returns The hooks with only those commands (holds untouched), and the
 *   commands left out.
 * @example
 * ```ts
 * commandsAtBase(wave.hooks, [{ sha, spec: { status: "absent" } }], ref).left; // every command
 * ```
 */
export function commandsAtBase(
  hooks: Hooks,
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: WaveRef,
): { hooks: Hooks; left: LeftOut[] } {
  const atBase = bases.map(({ spec }) => {
    if (spec.status !== "parsed") return [];
    const governing = governingWaves(spec.spec.waves, wave);
    return governing.length > 0
      ? governing.map((g) => g.wave.hooks)
      : [spec.spec.hooks];
  });
  const left: LeftOut[] = [];
  const kept = Object.fromEntries(HOOK_POINTS.map((point) => [
    point,
    hooks[point].filter((hook) => {
      if ("after" in hook) return true;
      const held = atBase.every((sources) =>
        sources.some((source) =>
          source[point].some((other) =>
            !("after" in other) && sameCommand(other, hook)
          )
        )
      );
      if (!held) left.push({ point, hook });
      return held;
    }),
  ])) as Hooks;
  return { hooks: kept, left };
}

/**
 * The hook commands a wave's jobs run: for a rollout that runs no command of
 * the change (the sqitch tool), those at base ({@linkcode commandsAtBase});
 * for any other (its plan command, its OpenTofu code are the change's own),
 * the working copy's.
 * @param plan The spec's `plan`.
 * @param hooks The wave's hooks (the working copy's).
 * @param bases The base commits and the spec at each.
 * @param wave The wave of the change.
 * @returns The hooks, and the commands left out.
 */
export function waveCommands(
  plan: Command,
  hooks: Hooks,
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: WaveRef,
): { hooks: Hooks; left: LeftOut[] } {
  return plan.kind === "tool" && plan.tool.kind === "sqitch"
    ? commandsAtBase(hooks, bases, wave)
    : { hooks, left: [] };
}
