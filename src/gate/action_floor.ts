/**
 * One forge action approves once (SPEC.md §13.1): the rules that bind a click
 * path's approval record to the action it names, whatever the record says.
 * Two records naming one action (a record the change's code wrote beside the
 * real one, a replay of a spent one) are both refused; and an action a revoke
 * ended, as every action up to the highest id it names, never counts again.
 * Forge ids of approve runs and jobs only grow, so a revoke ends them all with
 * two numbers. Pure.
 * @module
 */

import type { ActionsThrough, ApprovalRecord } from "./records.ts";

/** Compares two forge ids (digit strings without leading zeros). */
function compareIds(a: string, b: string): number {
  return a.length !== b.length
    ? a.length - b.length
    : a < b
    ? -1
    : a > b
    ? 1
    : 0;
}

/**
 * What a revoke ends of the forge's actions: the highest run and job ids its
 * approvals name, and those the revoke before it ended.
 * @param approvals The approvals it ends.
 * @param before The newest earlier revoke's `actionsThrough`.
 * @returns The ids, or `undefined` when it ends none.
 * @example
 * ```ts
 * actionsThrough([{ ...approval, via: "https://github.com/o/r/actions/runs/9" }]);
 * // { run: "9" }
 * ```
 */
export function actionsThrough(
  approvals: readonly Pick<ApprovalRecord, "via">[],
  before: ActionsThrough = {},
): ActionsThrough | undefined {
  const out: ActionsThrough = { ...before };
  for (const { via } of approvals) {
    const target = via === undefined ? undefined : viaTarget(via);
    if (target === undefined) continue;
    const seen = out[target.kind];
    if (seen === undefined || compareIds(target.id, seen) > 0) {
      out[target.kind] = target.id;
    }
  }
  return out.run === undefined && out.job === undefined ? undefined : out;
}

/**
 * The higher of two floors, kind by kind: what two revokes end together.
 * @param a One revoke's `actionsThrough`.
 * @param b Another's.
 * @returns The highest run and job ids either names, or `undefined` for none.
 * @example
 * ```ts
 * higherActions({ run: "9" }, { run: "12", job: "3" }); // { run: "12", job: "3" }
 * ```
 */
export function higherActions(
  a: ActionsThrough | undefined,
  b: ActionsThrough | undefined,
): ActionsThrough | undefined {
  const out: ActionsThrough = { ...a };
  for (const kind of ["run", "job"] as const) {
    const id = b?.[kind];
    const seen = out[kind];
    if (id !== undefined && (seen === undefined || compareIds(id, seen) > 0)) {
      out[kind] = id;
    }
  }
  return out.run === undefined && out.job === undefined ? undefined : out;
}

/**
 * Whether an approval names a forge action that a revoke's `actionsThrough`
 * does not end: one whose record must stay where the newest revoke's floor
 * cannot vouch for it (compaction keeps it).
 * @param approval The approval.
 * @param ended The revoke's `actionsThrough`.
 * @returns `true` when it names an approve run or job above the floor (or
 *   there is no floor); `false` when it names none, or one the floor ended.
 * @example
 * ```ts
 * namesUnendedAction({ via: "https://github.com/o/r/actions/runs/9" }, { run: "9" }); // false
 * namesUnendedAction({ via: "https://github.com/o/r/actions/runs/9" }, undefined); // true
 * ```
 */
export function namesUnendedAction(
  approval: Pick<ApprovalRecord, "via">,
  ended: ActionsThrough | undefined,
): boolean {
  const target = approval.via === undefined
    ? undefined
    : viaTarget(approval.via);
  if (target === undefined) return false;
  const through = ended?.[target.kind];
  return through === undefined || compareIds(target.id, through) > 0;
}

/**
 * Why each approval naming a forge action cannot count, whatever the forge
 * says of the action: it names one another approval names too, or one the
 * gate's newest revoke ended.
 * @param approvals The gate's unsigned counting approvals.
 * @param ended The newest revoke's `actionsThrough`.
 * @returns The refusals, by approval id.
 * @example
 * ```ts
 * actionRefusals([a, b], undefined).get(a.id);
 * // "run 9 is named by another approval record too; one action approves once"
 * ```
 */
export function actionRefusals(
  approvals: readonly ApprovalRecord[],
  ended: ActionsThrough | undefined,
): Map<string, string> {
  const targets = approvals.map((approval) =>
    approval.via === undefined ? undefined : viaTarget(approval.via)
  );
  const named = new Map<string, number>();
  for (const target of targets) {
    if (target === undefined) continue;
    const key = `${target.kind} ${target.id}`;
    named.set(key, (named.get(key) ?? 0) + 1);
  }
  const refusals = new Map<string, string>();
  approvals.forEach((approval, i) => {
    const target = targets[i];
    if (target === undefined) return;
    const key = `${target.kind} ${target.id}`;
    const through = ended?.[target.kind];
    if ((named.get(key) ?? 0) > 1) {
      refusals.set(
        approval.id,
        `${key} is named by another approval record too; one action approves once`,
      );
    } else if (through !== undefined && compareIds(target.id, through) <= 0) {
      refusals.set(
        approval.id,
        `${key} was ended by the gate's newest revoke (it ended every ${target.kind} up to ${through})`,
      );
    }
  });
  return refusals;
}

/**
 * The id a record's `via` names: the run of `…/actions/runs/<n>` (GitHub: the
 * run id; Forgejo: the run number), or the job of `…/-/jobs/<n>` (GitLab).
 * @param via The record's `via` URL.
 * @returns The kind and the id, or `undefined` when it names neither.
 * @example
 * ```ts
 * viaTarget("https://github.com/o/r/actions/runs/7"); // { kind: "run", id: "7" }
 * ```
 */
export function viaTarget(
  via: string,
): { kind: "run" | "job"; id: string } | undefined {
  let path: string;
  try {
    path = new URL(via).pathname;
  } catch {
    return undefined;
  }
  const run = /\/actions\/runs\/([1-9]\d{0,19})(?:\/attempts\/\d+)?\/?$/.exec(
    path,
  );
  if (run) return { kind: "run", id: run[1] };
  const job = /\/-\/jobs\/([1-9]\d{0,19})\/?$/.exec(path);
  return job ? { kind: "job", id: job[1] } : undefined;
}
