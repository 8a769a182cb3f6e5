/**
 * The plain form of a run target (SPEC.md §3.2, §4.4): a target is compared as
 * a string wherever it decides what governs a wave, so one place written two
 * ways (`prod-eu`, `./prod-eu`, `prod-eu/`, `../live/prod-eu`) would be two
 * targets to the gate and one to a tool that makes a path of it. A target
 * therefore has no empty, `.` or `..` path segment: no leading, trailing or
 * doubled `/`. Pure.
 * @module
 */

import { quote } from "../quote.ts";

/**
 * Why a target is not in plain form, if it is not.
 * @param target The target as written.
 * @returns The problem, or `undefined` for a plain target.
 * @example
 * ```ts
 * targetFormProblem("live/prod/vpc"); // undefined
 * targetFormProblem("./prod-eu");
 * // 'target "./prod-eu" is not in plain form: no empty, "." or ".." path segments'
 * ```
 */
export function targetFormProblem(target: string): string | undefined {
  // An empty target is refused as empty, not as a path.
  const bad = target !== "" &&
    target.split("/").some((segment) =>
      segment === "" || segment === "." || segment === ".."
    );
  return bad
    ? `target ${
      quote(target)
    } is not in plain form: no empty, "." or ".." path segments`
    : undefined;
}
