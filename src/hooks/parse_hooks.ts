/**
 * Reads the hooks a decision record carries (SPEC.md §11, §4.6): the four points,
 * each a list of commands `{ name, run }` and holds `{ name, after }` (no hold at
 * `after-apply`, as in a spec). It checks
 * form only; whether the record may be trusted is `verify_hooks.ts`'s question.
 * Pure.
 * @module
 */

import { hasControlCharacter } from "../console/visible.ts";
import { type Hook, HOOK_POINTS, type Hooks } from "../spec/types.ts";

/** The most hooks a decision record may carry at one point. */
export const MAX_HOOKS_PER_POINT = 1000;

function fail(what: string): never {
  throw new Error(what);
}

function text(value: unknown, where: string): string {
  return typeof value === "string" && value !== "" && value.length <= 256 &&
      !hasControlCharacter(value)
    ? value
    : fail(`${where} is not a name`);
}

function hookOf(value: unknown, where: string): Hook {
  const hook = (value ?? {}) as Record<string, unknown>;
  const name = text(hook.name, `${where}.name`);
  if (hook.after !== undefined) {
    const after = (hook.after ?? {}) as Record<string, unknown>;
    return {
      name,
      after: {
        name: text(after.name, `${where}.after.name`),
        gate: text(after.gate, `${where}.after.gate`),
        applied: after.applied === true,
      },
    };
  }
  const run = hook.run;
  if (
    !Array.isArray(run) || run.length === 0 ||
    !run.every((arg) => typeof arg === "string")
  ) {
    fail(`${where} has neither "run" nor "after"`);
  }
  return { name, run: [...run] as string[] };
}

/**
 * Parses the `hooks` of a decision record; a record without them has none.
 * @param value The record's `hooks` value.
 * @returns The hooks at every point.
 * @throws {Error} A one-line reason (`hooks.before-plan[0] has neither "run" nor "after"`).
 * @example
 * ```ts
 * parseHooks(undefined)["before-plan"]; // []
 * ```
 */
export function parseHooks(value: unknown): Hooks {
  if (value !== undefined && (typeof value !== "object" || value === null)) {
    fail('"hooks" is not an object');
  }
  const raw = (value ?? {}) as Record<string, unknown>;
  const entries = HOOK_POINTS.map((point) => {
    const list = raw[point] ?? [];
    if (!Array.isArray(list) || list.length > MAX_HOOKS_PER_POINT) {
      fail(`hooks.${point} is not a list of at most ${MAX_HOOKS_PER_POINT}`);
    }
    const hooks = list.map((hook, i) => hookOf(hook, `hooks.${point}[${i}]`));
    if (point === "after-apply" && hooks.some((hook) => "after" in hook)) {
      fail("hooks.after-apply holds a hold, which would hold nothing back");
    }
    return [point, hooks];
  });
  return Object.fromEntries(entries) as Hooks;
}
