/**
 * A sqitch plan as a chant-wave plan file (SPEC.md §17): the changes a
 * database has not deployed, in plan order, with a digest over everything the
 * deploy executes or that decides how it runs (the database it connects to as
 * the spec names it, the project's `sqitch.conf` and plan file, the client and
 * whether verify runs, each pending change's deploy
 * script, the files it includes and, with verify, its verify script and
 * theirs), `destructive` from what those scripts do, the statements that make
 * each change destructive, and what the apply needs to deploy exactly these
 * changes the same way. Pure; running sqitch is `sqitch_steps.ts`'s.
 * @module
 */

import { hashHex } from "../digest/hash.ts";
import { ShapeError } from "../input/shape_error.ts";
import type { PlanChange } from "../plan/plan_file.ts";
import type { FileFinding, JudgedChange } from "./change_scripts.ts";
import type { ResolvedClient } from "./database_client.ts";

/** A change of a sqitch plan. */
export interface SqitchChange {
  /** The change id sqitch derives (40 lowercase hex digits). */
  id: string;
  /** Its name. */
  name: string;
}

/** A change the database has not deployed, with what it runs, judged. */
export interface PendingChange extends SqitchChange {
  judged: JudgedChange;
}

/** What the apply needs: where the database was, how far to deploy, and how. */
export interface SqitchState {
  /** The sqitch project. */
  project: string;
  /** The id of the last change the database had deployed at plan time, or null. */
  deployed: string | null;
  /** The id of the last pending change (`sqitch deploy --to`), or null when none. */
  deployTo: string | null;
  /** The sqitch program. */
  program: string;
  /** The absolute path of the client the deploy runs (`sqitch deploy --client`). */
  client: string;
  /** Whether the deploy runs verify scripts (`--verify` or `--no-verify`). */
  verify: boolean;
}

/** A pending change in the plan file, with the statements that make it destructive. */
export interface SqitchPlanChange extends PlanChange {
  /**
   * `<file>:<line>: <what>: <statement>`, at most {@linkcode MAX_STATEMENTS}
   * (and {@linkcode MAX_PLAN_STATEMENTS} over the plan).
   */
  statements?: string[];
}

/** The plan file of a sqitch plan (SPEC.md §4.2, §13.1, §17), with its apply state. */
export interface SqitchPlanFile {
  planDigest: string;
  destructive: boolean;
  empty: boolean;
  /** `2 changes to deploy; destructive: drop_note (ALTER TABLE … DROP COLUMN, line 2: "…")`. */
  summary: string;
  /** One `{ address: <change name>, action: "deploy" }` per pending change. */
  changes: SqitchPlanChange[];
  sqitch: SqitchState;
}

/** What a plan is made from. */
export interface SqitchPlanInput {
  project: string;
  /**
   * The database the deploy connects to, as the spec names it before the
   * run's values are filled in, its password removed
   * (`db:pg://app@db/tenant_{target}`, or a sqitch target's name).
   */
  target: string;
  /** The id of the database's last deployed change, or null. */
  deployed: string | null;
  /** The pending changes, in plan order. */
  pending: readonly PendingChange[];
  /** Whether a script's `-- chant-wave: not destructive` mark counts (the policy at base). */
  honourMarks: boolean;
  /** The sqitch program. */
  program: string;
  /** The client the deploy runs. */
  client: ResolvedClient;
  /** Whether verify scripts run. */
  verify: boolean;
  /** `sha256:` of the project's `sqitch.conf`, or null when it has none. */
  config: string | null;
  /** `sha256:` of the project's plan file. */
  plan: string;
}

const MAX_NAMED = 3;
/** The most statements a change lists in the plan file. */
export const MAX_STATEMENTS = 20;
/** The most statements the plan file lists in all (it must stay under 1 MiB). */
export const MAX_PLAN_STATEMENTS = 200;
/** The most characters of one listed statement. */
const MAX_STATEMENT_LINE = 400;

/**
 * The changes after the database's last deployed one, in plan order.
 * @param plan Every change of the plan, in order.
 * @param deployed The id of the database's last change, or null for none.
 * @returns The pending changes.
 * @throws {ShapeError} When `deployed` is not in the plan: `the database's last
 *   change 1a2b3c4d5e6f is not in the plan; is it this project's database?`.
 * @example
 * ```ts
 * pendingChanges([{ id: a, name: "users" }, { id: b, name: "emails" }], a);
 * // [{ id: b, name: "emails" }]
 * ```
 */
export function pendingChanges(
  plan: readonly SqitchChange[],
  deployed: string | null,
): SqitchChange[] {
  if (deployed === null) return [...plan];
  const at = plan.findIndex((change) => change.id === deployed);
  if (at < 0) {
    throw new ShapeError(
      "",
      `the database's last change ${
        deployed.slice(0, 12)
      } is not in the plan; is it this project's database?`,
    );
  }
  return plan.slice(at + 1);
}

/**
 * Makes the plan file of the pending changes.
 *
 * - `planDigest`: `sha256:` and the SHA-256 of
 *   `{"kind":"sqitch-plan","version":3,"project","target","deployed","client":{"path","sha256"},"verify","config","plan","changes":[{"id","name","files":[{"path","sha256"}]}]}`
 *   (JSON, no whitespace, keys in that order; `files` in the order psql runs
 *   them): two databases of one spec target (`tenant_{target}`) at the same
 *   change of the same project get the same digest; another target in the spec, an edit to any file the deploy runs,
 *   to `sqitch.conf` or the plan file, another client or verify, or a
 *   database that moved gets another.
 * - `destructive`: some pending change has a finding, unless its deploy
 *   script is marked not destructive and `honourMarks` is set.
 * - `empty`: nothing is pending.
 * @param input The project, the database's change, the pending changes judged,
 *   whether marks count, and how the deploy runs.
 * @returns The plan file.
 * @example
 * ```ts
 * sqitchPlanFile({ ...input, pending: [dropOld] }).summary;
 * // '1 change to deploy; destructive: drop_old (DROP TABLE, line 1: "DROP TABLE old")'
 * ```
 */
export function sqitchPlanFile(input: SqitchPlanInput): SqitchPlanFile {
  const covered = {
    kind: "sqitch-plan",
    version: 3,
    project: input.project,
    target: input.target,
    deployed: input.deployed,
    client: { path: input.client.path, sha256: input.client.sha256 },
    verify: input.verify,
    config: input.config,
    plan: input.plan,
    changes: input.pending.map(({ id, name, judged }) => ({
      id,
      name,
      files: judged.files.map(({ path, sha256 }) => ({ path, sha256 })),
    })),
  };
  const planDigest = `sha256:${hashHex("sha256", JSON.stringify(covered))}`;
  const flagged = input.pending.filter((c) => c.judged.findings.length > 0);
  const cleared = flagged.filter((c) => c.judged.marked && input.honourMarks);
  const destructive = flagged.filter((c) => !cleared.includes(c));
  const last = input.pending[input.pending.length - 1];
  return {
    planDigest,
    destructive: destructive.length > 0,
    empty: input.pending.length === 0,
    summary: summaryOf(input.pending.length, destructive, cleared),
    changes: listedChanges(input.pending),
    sqitch: {
      project: input.project,
      deployed: input.deployed,
      deployTo: last ? last.id : null,
      program: input.program,
      client: input.client.path,
      verify: input.verify,
    },
  };
}

/** Each pending change, with its statements while the plan's budget lasts. */
function listedChanges(pending: readonly PendingChange[]): SqitchPlanChange[] {
  let budget = MAX_PLAN_STATEMENTS;
  return pending.map(({ name, judged }) => {
    const take = Math.min(MAX_STATEMENTS, budget, judged.findings.length);
    budget -= take;
    const statements = judged.findings.slice(0, take).map((f) =>
      `${f.file}:${f.line}: ${f.what}: ${f.statement}`.slice(
        0,
        MAX_STATEMENT_LINE,
      )
    );
    return {
      address: name,
      action: "deploy",
      ...(statements.length > 0 ? { statements } : {}),
    };
  });
}

/** `N changes to deploy`, then the destructive ones (each with its first statement) and the cleared ones. */
function summaryOf(
  count: number,
  destructive: readonly PendingChange[],
  cleared: readonly PendingChange[],
): string {
  let summary = `${count} change${count === 1 ? "" : "s"} to deploy`;
  if (destructive.length) {
    summary += `; destructive: ${
      named(destructive.map(({ name, judged }) => {
        const [first] = judged.findings;
        const more = judged.findings.length > 1
          ? `, and ${judged.findings.length - 1} more`
          : "";
        const mark = judged.marked ? "; its mark is ignored" : "";
        return `${name} (${
          shownFinding(first, judged.files[0]?.path)
        }${more}${mark})`;
      }))
    }`;
  }
  if (cleared.length) {
    summary += `; marked not destructive: ${
      named(cleared.map(({ name }) => name))
    }`;
  }
  return summary;
}

/** `DROP TABLE, line 3: "DROP TABLE a"`, naming the file when it is not the deploy script. */
function shownFinding(finding: FileFinding, deployScript?: string): string {
  const where = finding.file === deployScript
    ? `line ${finding.line}`
    : `${finding.file} line ${finding.line}`;
  const statement = finding.statement === ""
    ? ""
    : `: ${JSON.stringify(finding.statement)}`;
  return `${finding.what}, ${where}${statement}`;
}

/** The first few entries, then how many more. */
function named(entries: readonly string[]): string {
  const shown = entries.slice(0, MAX_NAMED).join(", ");
  return entries.length > MAX_NAMED
    ? `${shown} and ${entries.length - MAX_NAMED} more`
    : shown;
}
