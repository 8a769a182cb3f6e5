/**
 * Where a run's plan file lives (SPEC.md §4.2): a readable, injective file name per
 * target, so two targets such as `a/b` and `a_b` never share a file; the
 * directory they live in, made without following links; and a planned run
 * that names its plan file from them.
 * @module
 */

import { hashHex } from "../digest/hash.ts";
import { mkdir } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import { refuseLinks } from "../fs/refuse_links.ts";
import type { PlanFile } from "../plan/plan_file.ts";
import type { Run } from "../spec/types.ts";
import type { PlannedRun } from "./run_outcomes.ts";

/**
 * The plan file's name for a target: the target with every character outside
 * `[A-Za-z0-9._-]` replaced by `_` (cut to 48 characters), a dash, and the first
 * 12 hex digits of the SHA-256 of the exact target, then `.plan.json`.
 * @param target The run's target.
 * @returns The file name, without a directory.
 * @example
 * ```ts
 * planFileName("live/prod/vpc"); // "live_prod_vpc-<12 hex>.plan.json"
 * ```
 */
export function planFileName(target: string): string {
  const readable = target.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 48);
  const hash = hashHex("sha256", target).slice(0, 12);
  return `${readable}-${hash}.plan.json`;
}

/**
 * The directory of wave `k`'s plan files, relative to the working directory.
 * @param root `.chant` for real runs; a temporary directory for dry runs.
 * @param name The spec's `name`.
 * @param k The wave's number.
 * @returns `<root>/waves/<name>/wave-<k>`.
 */
export function planDir(root: string, name: string, k: number): string {
  return `${root}/waves/${name}/wave-${k}`;
}

/**
 * Makes wave `k`'s plan directory, refusing a symbolic link on the way when it
 * lies in the working directory (`.chant/waves/…`; SPEC.md §14).
 * @param root `.chant` for real runs; a temporary directory for dry runs.
 * @param name The spec's `name`.
 * @param k The wave's number.
 * @param cwd The working directory.
 * @returns The directory, as {@linkcode planDir} names it.
 * @throws {InputError} Exit 2 when a component is a symbolic link.
 */
export async function preparePlanDir(
  root: string,
  name: string,
  k: number,
  cwd: string,
): Promise<string> {
  const dir = planDir(root, name, k);
  if (!isAbsolute(dir)) refuseLinks(cwd, dir.split("/"), ".chant/waves");
  await mkdir(resolve(cwd, dir), { recursive: true });
  if (!isAbsolute(dir)) refuseLinks(cwd, dir.split("/"), ".chant/waves");
  return dir;
}

/**
 * A planned run whose plan file is `join(dir, planFileName(target))`, made
 * again when asked for rather than kept: a wave of 30,000 runs would hold a
 * path of 60 characters or so for each until it ends.
 * @param run The run.
 * @param plan Its plan.
 * @param dir Its wave's plan directory, as {@linkcode preparePlanDir} made it.
 * @returns The planned run.
 * @example
 * ```ts
 * plannedRun(run, plan, ".chant/waves/app/wave-1").planPath;
 * // ".chant/waves/app/wave-1/<target>-<12 hex>.plan.json"
 * ```
 */
export function plannedRun(run: Run, plan: PlanFile, dir: string): PlannedRun {
  return new PlannedInDir(run, plan, dir);
}

/** {@linkcode plannedRun}'s runs. */
class PlannedInDir implements PlannedRun {
  readonly target: string;
  constructor(
    readonly run: Run,
    readonly plan: PlanFile,
    private readonly dir: string,
  ) {
    this.target = run.target;
  }

  get planPath(): string {
    return join(this.dir, planFileName(this.run.target));
  }
}
