/**
 * The rules of `hooks` and `rest` (SPEC.md §11) that the schema cannot say: a
 * hook is a command or a hold, never both or neither; hook names are unique at
 * their point; a command hook's placeholders are the wave's (`{plans}` only from
 * `after-plan` on); a hold at `after-apply` would hold nothing back; `rest` is
 * for the last wave only, and not with `jobs`. Runs on the raw spec; values of
 * the wrong type are left to the schema.
 * @module
 */

import { quote } from "../quote.ts";
import type { Path } from "./_locate.ts";
import { asRecord, type Collector } from "./_problems.ts";
import { checkElement } from "./_template_checks.ts";
import { HOOK_POINTS, type HookPoint } from "./types.ts";

/** Placeholders of a hook command before there are plans. */
export const HOOK_PLACEHOLDERS = ["op", "wave", "k", "runs"] as const;

/** The placeholders a command hook at `point` gets. */
function placeholdersAt(point: HookPoint): readonly string[] {
  return point === "before-plan"
    ? HOOK_PLACEHOLDERS
    : [...HOOK_PLACEHOLDERS, "plans"];
}

/** Why a placeholder that is not known at `point` is not. */
function explainAt(point: HookPoint): (word: string) => string | undefined {
  return (word) => {
    if (word === "target" || word === "plan") {
      return "a hook runs once for the wave, not once per run";
    }
    if (word === "plans" && point === "before-plan") {
      return 'there are no plans before planning: use it from "after-plan" on';
    }
    return undefined;
  };
}

function checkHook(
  collector: Collector,
  path: Path,
  point: HookPoint,
  hook: Record<string, unknown>,
): void {
  const hasRun = Object.hasOwn(hook, "run");
  const hasAfter = Object.hasOwn(hook, "after");
  if (hasRun && hasAfter) {
    collector.add(
      [...path, "after"],
      'a hook has "run" (a command) or "after" (a hold), not both',
      { key: true, where: path },
    );
  } else if (!hasRun && !hasAfter) {
    collector.add(path, 'a hook needs "run" (a command) or "after" (a hold)');
  }
  if (hasAfter && point === "after-apply") {
    collector.add(
      [...path, "after"],
      'a hold at "after-apply" would hold nothing back: put it at "before-apply" or earlier',
      { key: true, where: path },
    );
  }
  if (Array.isArray(hook.run)) {
    hook.run.forEach((arg, i) =>
      checkElement(
        collector,
        [...path, "run", i],
        placeholdersAt(point),
        arg,
        explainAt(point),
      )
    );
  }
}

/** Checks one `hooks` object at `path` (the spec's, or a wave's). */
function checkHooks(collector: Collector, path: Path, raw: unknown): void {
  const hooks = asRecord(raw);
  if (!hooks) return;
  for (const point of HOOK_POINTS) {
    const list = hooks[point];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    list.forEach((item, i) => {
      const hook = asRecord(item);
      if (!hook) return;
      const at: Path = [...path, point, i];
      checkHook(collector, at, point, hook);
      if (typeof hook.name !== "string") return;
      if (seen.has(hook.name)) {
        collector.add(
          [...at, "name"],
          `hook name ${quote(hook.name)} appears twice at ${quote(point)}`,
          { where: at },
        );
      }
      seen.add(hook.name);
    });
  }
}

/** `rest` on the last wave only, and not with `jobs`. */
function checkRest(collector: Collector, waves: unknown[]): void {
  waves.forEach((raw, i) => {
    const wave = asRecord(raw);
    if (wave?.rest !== true) return;
    const path: Path = ["waves", i, "rest"];
    if (i !== waves.length - 1) {
      collector.add(
        path,
        'only the last wave may be "rest": it stands for every wave after it',
      );
    }
    if (Object.hasOwn(wave, "jobs")) {
      collector.add(
        path,
        '"rest" and "jobs" do not go together: the waves after it run as whole-wave jobs',
      );
    }
  });
}

/**
 * Adds the problems of every `hooks` object (the spec's and each wave's) and of
 * `rest`.
 * @param collector Holds the raw spec and receives the problems.
 */
export function checkHooksAndRest(collector: Collector): void {
  const spec = asRecord(collector.spec);
  if (!spec) return;
  checkHooks(collector, ["hooks"], spec.hooks);
  if (!Array.isArray(spec.waves)) return;
  spec.waves.forEach((wave, i) =>
    checkHooks(collector, ["waves", i, "hooks"], asRecord(wave)?.hooks)
  );
  checkRest(collector, spec.waves);
}
