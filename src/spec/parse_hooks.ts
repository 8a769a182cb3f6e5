/**
 * Reads the hooks a decision record carries (SPEC.md §11, §4.6): the four points,
 * each a list of commands `{ name, run }` and holds `{ name, after }` (no hold at
 * `after-apply`, as in a spec), with the input reader. It checks form only;
 * whether the record may be trusted is `run/verify_decision.ts`'s question. Pure.
 * @module
 */

import { JsonReader } from "../input/json_reader.ts";
import { type Hook, HOOK_POINTS, type Hooks } from "./types.ts";

/** The most hooks a decision record may carry at one point. */
export const MAX_HOOKS_PER_POINT = 1000;

/** The longest hook, rollout or gate name a record may carry. */
const MAX_NAME = 256;

function nameOf(reader: JsonReader): string {
  return reader.string({ nonEmpty: true, max: MAX_NAME, printable: true });
}

function hookOf(hook: JsonReader): Hook {
  hook.object();
  const name = nameOf(hook.get("name"));
  const held = hook.get("after");
  if (!held.absent) {
    held.object();
    return {
      name,
      after: {
        name: nameOf(held.get("name")),
        gate: nameOf(held.get("gate")),
        applied: held.get("applied").value === true,
      },
    };
  }
  const run = hook.get("run").value;
  if (
    !Array.isArray(run) || run.length === 0 ||
    !run.every((arg) => typeof arg === "string")
  ) {
    hook.fail('has neither "run" nor "after"');
  }
  return { name, run: [...run] };
}

/**
 * Reads the `hooks` of a decision record; a record without them has none.
 * @param hooks The record's `hooks`, as a reader; absent: none.
 * @returns The hooks at every point.
 * @throws {ShapeError} A one-line reason (`"hooks.before-plan[0]" has neither
 *   "run" nor "after"`).
 * @example
 * ```ts
 * parseHooks()["before-plan"]; // []
 * ```
 */
export function parseHooks(
  hooks: JsonReader = new JsonReader(undefined),
): Hooks {
  if (hooks.absent) {
    const none = HOOK_POINTS.map((point) => [point, []]);
    return Object.fromEntries(none) as unknown as Hooks;
  }
  hooks.object();
  const entries = HOOK_POINTS.map((point) => {
    const at = hooks.get(point);
    const list = at.absent ? [] : at.list(MAX_HOOKS_PER_POINT).map(hookOf);
    if (point === "after-apply" && list.some((hook) => "after" in hook)) {
      at.fail("holds a hold, which would hold nothing back");
    }
    return [point, list];
  });
  return Object.fromEntries(entries) as Hooks;
}
