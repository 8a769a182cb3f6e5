/**
 * The files a wave job's hooks use (SPEC.md §11): the hooks report every plan,
 * apply and hook command finds at `CHANT_WAVE_HOOKS`, rewritten atomically as
 * hooks finish and when the decision stands approved (only when it changed); and
 * the `{runs}` and `{plans}` files of hook commands. They live beside the job's
 * plan files.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import {
  type HookReportEntry,
  type HooksReport,
  hooksReportText,
} from "../hooks/hooks_report.ts";
import { setDigest } from "../digest/set_digest.ts";
import type { Run, Wave } from "../spec/types.ts";
import type { DecisionMember } from "../gate/decision.ts";
import { preparePlanDir } from "./plan_path.ts";

/** The hook files of one wave job, relative to the working directory. */
export interface HookFiles {
  /** The hooks report (`CHANT_WAVE_HOOKS`). */
  report: string;
  /** `{runs}` of hook commands. */
  runs: string;
  /** `{plans}` of hook commands, from after-plan on. */
  plans: string;
}

/** The hooks report of a job, kept in memory and on disk. */
export interface HooksReporter {
  /** Where the report is (the value of `CHANT_WAVE_HOOKS`). */
  readonly path: string;
  /** Starts a pass of the job: no hook has run in it yet. */
  startPass(): Promise<void>;
  /** Adds a hook's outcome. */
  add(entry: HookReportEntry): Promise<void>;
  /** Says whether the decision stands approved. */
  approved(approved: boolean): Promise<void>;
}

/**
 * Makes the wave's plan directory and names the job's hook files there.
 * @param root `.chant`, or a dry run's temporary directory.
 * @param name The spec's `name`.
 * @param k The wave's number.
 * @param jobTag Names the job's files (`wave`, `decide`, `share-2`, …).
 * @param cwd The working directory.
 * @returns The paths.
 * @throws {InputError} Exit 2 when the directory is reached through a link.
 */
export async function hookFiles(
  root: string,
  name: string,
  k: number,
  jobTag: string,
  cwd: string,
): Promise<HookFiles> {
  const dir = await preparePlanDir(root, name, k, cwd);
  return {
    report: join(dir, `${jobTag}.hooks.json`),
    runs: join(dir, `${jobTag}.hook-runs.json`),
    plans: join(dir, `${jobTag}.hook-plans.json`),
  };
}

/**
 * Opens the hooks report of a wave job and writes it (no hooks yet, not
 * approved), so every command finds it.
 * @param path The report's path, relative to `cwd`.
 * @param wave The wave.
 * @param cwd The working directory.
 * @returns The reporter.
 */
export async function openHooksReport(
  path: string,
  wave: Pick<Wave, "name" | "k">,
  cwd: string,
): Promise<HooksReporter> {
  const report: HooksReport = {
    wave: wave.name,
    k: wave.k,
    approved: false,
    hooks: [],
  };
  let written = "";
  const write = async () => {
    const text = hooksReportText(report);
    if (text === written) return;
    await writeFileAtomic(resolve(cwd, path), text);
    written = text;
  };
  await write();
  return {
    path,
    async startPass() {
      report.hooks = [];
      report.approved = false;
      await write();
    },
    async add(entry) {
      report.hooks.push(entry);
      await write();
    },
    async approved(approved) {
      report.approved = approved;
      await write();
    },
  };
}

/**
 * Writes the `{runs}` file of hook commands: `{ "runs": [{ "target", "op" }] }`.
 * @param path Where, relative to `cwd`.
 * @param runs The job's runs.
 * @param cwd The working directory.
 */
export async function writeHookRuns(
  path: string,
  runs: readonly Run[],
  cwd: string,
): Promise<void> {
  const list = runs.map(({ target, op }) => ({ target, op }));
  await writeFileAtomic(
    resolve(cwd, path),
    JSON.stringify({ runs: list }, null, 2) + "\n",
  );
}

/**
 * Writes the `{plans}` file of hook commands: `{ "digest", "members": [{ "target",
 * "planDigest", "op", "destructive"?, "empty"?, "summary"? }] }`, the members
 * sorted by target.
 * @param path Where, relative to `cwd`.
 * @param members The job's planned runs as decision members.
 * @param cwd The working directory.
 */
export async function writeHookPlans(
  path: string,
  members: readonly DecisionMember[],
  cwd: string,
): Promise<void> {
  const digest = setDigest(members);
  await writeFileAtomic(
    resolve(cwd, path),
    JSON.stringify({ digest, members }, null, 2) + "\n",
  );
}
