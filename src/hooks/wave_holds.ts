/**
 * Holds are policy (SPEC.md §11): the holds of a wave are the union of the
 * working copy's and those of the base waves that govern it (§4.4: same name,
 * same position, a shared target), so a change cannot remove a hold. Pure: the
 * specs at base are given; reading git is `read_base.ts`'s job.
 * @module
 */

import {
  type BaseSpec,
  governingWaves,
  type WaveRef,
} from "../gate/base_spec.ts";
import {
  type HoldHook,
  type Hook,
  HOOK_POINTS,
  type HookPoint,
  type Hooks,
} from "../spec/types.ts";

/** A hold and the point it stands at. */
export interface HoldAt {
  point: HookPoint;
  hook: HoldHook;
}

/** A hold found at base, and where. */
export interface BaseHold extends HoldAt {
  /** The base commit's full sha. */
  sha: string;
  /**
   * The governing base wave's number and name, or the base's top level (for a
   * wave no base wave governs).
   */
  from: { k: number; name: string } | "top level";
}

/**
 * Whether a hook is a hold.
 * @param hook A hook.
 * @returns True for `{ name, after }`.
 * @example
 * ```ts
 * isHold({ name: "infra", after: { name: "infra", gate: "infra-wave-1", applied: false } }); // true
 * ```
 */
export function isHold(hook: Hook): hook is HoldHook {
  return "after" in hook;
}

/**
 * Whether two holds wait for the same thing (their hook names aside).
 * @param a A hold.
 * @param b Another.
 * @returns True when they name the same rollout, gate and `applied`.
 * @example
 * ```ts
 * sameHold(a, { ...a, name: "renamed" }); // true
 * ```
 */
export function sameHold(a: HoldHook, b: HoldHook): boolean {
  return a.after.name === b.after.name && a.after.gate === b.after.gate &&
    a.after.applied === b.after.applied;
}

/**
 * The holds at base that govern a wave: those of every base wave that governs
 * it, at each base; for a wave no base wave governs (a new wave), those of the
 * base's top-level hooks, as for the approval rules. A spec absent or broken at
 * base holds nothing (its policy is then `always`, so a person approves the
 * wave anyway).
 * @param bases The base commits and the spec at each.
 * @param wave The wave of the change: number, name and every target it holds.
 * @returns The holds, in base order, each with where it was found.
 * @example
 * ```ts
 * holdsAtBase([{ sha, spec: { status: "absent" } }], { k: 1, name: "dev", targets: [] }); // []
 * ```
 */
export function holdsAtBase(
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: WaveRef,
): BaseHold[] {
  const found: BaseHold[] = [];
  for (const { sha, spec } of bases) {
    if (spec.status !== "parsed") continue;
    const governing = governingWaves(spec.spec.waves, wave).map((g) => g.wave);
    const sources: { hooks: Hooks; from: BaseHold["from"] }[] =
      governing.length > 0
        ? governing.map((g) => ({
          hooks: g.hooks,
          from: { k: g.k, name: g.name },
        }))
        : [{ hooks: spec.spec.hooks, from: "top level" }];
    for (const { hooks, from } of sources) {
      for (const point of HOOK_POINTS) {
        for (const hook of hooks[point]) {
          if (isHold(hook)) found.push({ point, hook, sha, from });
        }
      }
    }
  }
  return found;
}

/**
 * Adds holds to a wave's hooks, each at its point after the hooks there, unless
 * the same hold already stands at that point.
 * @param hooks The wave's hooks.
 * @param holds The holds to add.
 * @returns The hooks with the holds, and the holds that were added.
 * @example
 * ```ts
 * withHolds(wave.hooks, holdsAtBase(bases, ref)).added; // what the change removed
 * ```
 */
export function withHolds<H extends HoldAt>(
  hooks: Hooks,
  holds: readonly H[],
): { hooks: Hooks; added: H[] } {
  const out = Object.fromEntries(
    HOOK_POINTS.map((point) => [point, [...hooks[point]]]),
  ) as Hooks;
  const added: H[] = [];
  for (const hold of holds) {
    const list = out[hold.point];
    if (list.some((hook) => isHold(hook) && sameHold(hook, hold.hook))) {
      continue;
    }
    list.push(hold.hook);
    added.push(hold);
  }
  return { hooks: out, added };
}
