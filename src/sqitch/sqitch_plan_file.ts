/**
 * A sqitch plan as a chant-wave plan file: the changes a database has not
 * deployed, in plan order, with a digest over what deploying them does (the
 * project, the change the database is at, each pending change's name, id and
 * the SHA-256 of its deploy script), `destructive` from those scripts, and
 * what the apply needs to deploy exactly these changes. Pure; running sqitch
 * is `sqitch_steps.ts`'s.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { createHash } from "node:crypto";
import type { PlanChange } from "../plan/plan_file.ts";
import {
  destructiveStatements,
  type ScriptVerdict,
} from "./destructive_statements.ts";

/** A change of a sqitch plan. */
export interface SqitchChange {
  /** The change id sqitch derives (40 lowercase hex digits). */
  id: string;
  /** Its name. */
  name: string;
}

/** A deploy script, judged: its digest and what it destroys. */
export interface JudgedScript extends ScriptVerdict {
  /** The SHA-256 of its bytes, lowercase hex. */
  sha256: string;
}

/** A change the database has not deployed, with its judged deploy script. */
export interface PendingChange extends SqitchChange {
  script: JudgedScript;
}

/** What the apply needs: where the database was and how far to deploy. */
export interface SqitchState {
  /** The sqitch project. */
  project: string;
  /** The id of the last change the database had deployed at plan time, or null. */
  deployed: string | null;
  /** The id of the last pending change (`sqitch deploy --to`), or null when none. */
  deployTo: string | null;
}

/** The plan file of a sqitch plan (SPEC.md §4.2, §13.1), with its apply state. */
export interface SqitchPlanFile {
  planDigest: string;
  destructive: boolean;
  empty: boolean;
  /** `2 changes to deploy; destructive: drop_legacy (DROP TABLE, line 3)`. */
  summary: string;
  /** One `{ address: <change name>, action: "deploy" }` per pending change. */
  changes: PlanChange[];
  sqitch: SqitchState;
}

/** What a plan is made from. */
export interface SqitchPlanInput {
  project: string;
  /** The id of the database's last deployed change, or null. */
  deployed: string | null;
  /** The pending changes, in plan order. */
  pending: readonly PendingChange[];
  /** Whether a script's `-- chant-wave: not destructive` mark counts (the policy at base). */
  honourMarks: boolean;
}

const MAX_NAMED = 3;

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
 * Judges a deploy script: the SHA-256 of its bytes and its destructive
 * statements (read as UTF-8, invalid bytes replaced).
 * @param script The script's bytes.
 * @returns Its digest, findings and mark.
 * @example
 * ```ts
 * judgeScript(new TextEncoder().encode("TRUNCATE t;")).findings; // [{ what: "TRUNCATE", line: 1 }]
 * ```
 */
export function judgeScript(script: Uint8Array): JudgedScript {
  const sha256 = createHash("sha256").update(script).digest("hex");
  return {
    sha256,
    ...destructiveStatements(new TextDecoder().decode(script)),
  };
}

/**
 * Makes the plan file of the pending changes.
 *
 * - `planDigest`: `sha256:` and the SHA-256 of
 *   `{"kind":"sqitch-plan","project","deployed","changes":[{"id","name","deploy":"sha256:…"}]}`
 *   (JSON, no whitespace, keys in that order): two databases at the same change
 *   of the same plan get the same digest; an edited deploy script, an added
 *   change or a database that moved gets another.
 * - `destructive`: some pending script has a destructive statement, unless it
 *   is marked not destructive and `honourMarks` is set.
 * - `empty`: nothing is pending.
 * @param input The project, the database's change, the pending changes, and
 *   whether marks count.
 * @returns The plan file.
 * @example
 * ```ts
 * const script = judgeScript(new TextEncoder().encode("DROP TABLE old;"));
 * const plan = sqitchPlanFile({
 *   project: "flipr", deployed: null, honourMarks: false,
 *   pending: [{ id: "1".repeat(40), name: "drop_old", script }],
 * });
 * plan.summary; // "1 change to deploy; destructive: drop_old (DROP TABLE, line 1)"
 * ```
 */
export function sqitchPlanFile(input: SqitchPlanInput): SqitchPlanFile {
  const covered = {
    kind: "sqitch-plan",
    project: input.project,
    deployed: input.deployed,
    changes: input.pending.map(({ id, name, script }) => ({
      id,
      name,
      deploy: `sha256:${script.sha256}`,
    })),
  };
  const planDigest = `sha256:${
    createHash("sha256").update(JSON.stringify(covered), "utf8").digest("hex")
  }`;
  const flagged = input.pending.filter((c) => c.script.findings.length > 0);
  const cleared = flagged.filter((c) => c.script.marked && input.honourMarks);
  const destructive = flagged.filter((c) => !cleared.includes(c));
  const last = input.pending[input.pending.length - 1];
  return {
    planDigest,
    destructive: destructive.length > 0,
    empty: input.pending.length === 0,
    summary: summaryOf(input.pending.length, destructive, cleared),
    changes: input.pending.map((change) => ({
      address: change.name,
      action: "deploy",
    })),
    sqitch: {
      project: input.project,
      deployed: input.deployed,
      deployTo: last ? last.id : null,
    },
  };
}

/** `N changes to deploy`, then the destructive ones and the cleared ones, named. */
function summaryOf(
  count: number,
  destructive: readonly PendingChange[],
  cleared: readonly PendingChange[],
): string {
  let summary = `${count} change${count === 1 ? "" : "s"} to deploy`;
  if (destructive.length) {
    summary += `; destructive: ${
      named(destructive.map(({ name, script }) => {
        const [first] = script.findings;
        const more = script.findings.length > 1
          ? `, and ${script.findings.length - 1} more`
          : "";
        const mark = script.marked ? "; its mark is ignored" : "";
        return `${name} (${first.what}, line ${first.line}${more}${mark})`;
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

/** The first few entries, then how many more. */
function named(entries: readonly string[]): string {
  const shown = entries.slice(0, MAX_NAMED).join(", ");
  return entries.length > MAX_NAMED
    ? `${shown} and ${entries.length - MAX_NAMED} more`
    : shown;
}
