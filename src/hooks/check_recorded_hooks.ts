/**
 * A decision record travels as a CI artifact, so a share or group job checks the
 * hooks it carries before running them (SPEC.md §11): its commands must be
 * exactly the working copy's (argv from an artifact would be code from outside
 * the repository, and dropping one would skip a check the spec asks for), and it
 * must hold every hold the job derives itself (the working copy's and those at
 * base: holds are policy). Extra holds only make it stricter. Pure.
 * @module
 */

import { type CommandHook, HOOK_POINTS, type Hooks } from "../spec/types.ts";
import { isHold, sameHold } from "./wave_holds.ts";
import { sameCommand } from "./commands_at_base.ts";

function commandsAt(hooks: Hooks, point: keyof Hooks): CommandHook[] {
  return hooks[point].filter((hook): hook is CommandHook => !isHold(hook));
}

function sameCommands(
  a: readonly CommandHook[],
  b: readonly CommandHook[],
): boolean {
  return a.length === b.length && a.every((hook, i) => sameCommand(hook, b[i]));
}

/**
 * Says how recorded hooks fall short of the expected ones.
 * @param recorded The hooks in the decision record.
 * @param expected The hooks the job derives: the working copy's, with the holds
 *   at base added.
 * @returns `undefined` when the record may be trusted, else one phrase.
 * @example
 * ```ts
 * recordedHooksProblem(recorded, expected);
 * // 'it lacks the hold "infra" (infra / infra-wave-2) at "before-apply"'
 * ```
 */
export function recordedHooksProblem(
  recorded: Hooks,
  expected: Hooks,
): string | undefined {
  for (const point of HOOK_POINTS) {
    if (
      !sameCommands(commandsAt(recorded, point), commandsAt(expected, point))
    ) {
      return `its "${point}" commands are not the spec's`;
    }
    for (const hold of expected[point]) {
      if (!isHold(hold)) continue;
      if (
        recorded[point].some((hook) => isHold(hook) && sameHold(hook, hold))
      ) {
        continue;
      }
      const { name, gate } = hold.after;
      return `it lacks the hold "${hold.name}" (${name} / ${gate}) at "${point}"`;
    }
  }
  return undefined;
}
