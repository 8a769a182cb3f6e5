/**
 * What a plan changes, as the approver reads it (SPEC.md §13.1): the changes a
 * decision and a pending fact keep of each member (at most
 * {@linkcode MAX_KEPT_CHANGES}, the rest counted), and their one-line form
 * `prod-eu: ~ aws_instance.web (update), - aws_db_instance.old (delete)`.
 * Pure; escaping for the terminal or Markdown is the printer's.
 * @module
 */

import type { PlanChange } from "./plan_file.ts";

/** The most changes a decision member or a pending fact's plan keeps. */
export const MAX_KEPT_CHANGES = 200;

/** The changes a member keeps: the first ones, and how many more there were. */
export interface KeptChanges {
  /** At most {@linkcode MAX_KEPT_CHANGES}; absent when the plan lists none. */
  changes?: PlanChange[];
  /** How many changes were left out; absent when none were. */
  moreChanges?: number;
}

/**
 * Keeps the first {@linkcode MAX_KEPT_CHANGES} changes (each with the
 * statements it quotes and the attribute paths it changes) and counts the
 * rest.
 * @param changes A plan's changes, if it lists any.
 * @param more Changes already left out before (a plan set read back).
 * @returns The kept changes; nothing for a plan that lists none.
 * @example
 * ```ts
 * keepChanges([{ address: "a.b", action: "create" }]);
 * // { changes: [{ address: "a.b", action: "create" }] }
 * ```
 */
export function keepChanges(
  changes: readonly PlanChange[] | undefined,
  more = 0,
): KeptChanges {
  if (changes === undefined) return {};
  const kept = changes.slice(0, MAX_KEPT_CHANGES).map((change) => ({
    address: change.address,
    action: change.action,
    ...(change.statements?.length
      ? { statements: [...change.statements] }
      : {}),
    ...(change.attributes === undefined
      ? {}
      : { attributes: [...change.attributes] }),
  }));
  const left = changes.length - kept.length + more;
  return { changes: kept, ...(left > 0 ? { moreChanges: left } : {}) };
}

const SYMBOLS: Readonly<Record<string, string>> = {
  create: "+",
  update: "~",
  delete: "-",
  replace: "-/+",
  read: "<=",
  deploy: "+",
  revert: "-",
};

/**
 * The tool's symbol of an action.
 * @param action An action (`delete`).
 * @returns `-`, `+`, `~`, `-/+`, `<=`; `undefined` for an action of the tool's own.
 * @example
 * ```ts
 * changeSymbol("replace"); // "-/+"
 * ```
 */
export function changeSymbol(action: string): string | undefined {
  return Object.hasOwn(SYMBOLS, action) ? SYMBOLS[action] : undefined;
}

/**
 * One change as the approver reads it: the tool's symbol, the address, the action.
 * @param change The change.
 * @returns `~ aws_instance.web (update)`; an action of the tool's own gets `*`.
 * @example
 * ```ts
 * describeChange({ address: "aws_db_instance.old", action: "delete" });
 * // "- aws_db_instance.old (delete)"
 * ```
 */
export function describeChange(change: PlanChange): string {
  const symbol = changeSymbol(change.action) ?? "*";
  return `${symbol} ${change.address} (${change.action})`;
}

/**
 * A member's changes on one line, the first `max` of them, then how many more.
 * @param target The run's target.
 * @param kept Its kept changes.
 * @param max How many to name.
 * @returns `prod-eu: ~ a (update), - b (delete), and 3 more`; `undefined`
 *   when the plan lists no change.
 * @example
 * ```ts
 * changesLine("prod-eu", { changes: [{ address: "a", action: "update" }] }, 20);
 * // "prod-eu: ~ a (update)"
 * ```
 */
export function changesLine(
  target: string,
  kept: KeptChanges,
  max: number,
): string | undefined {
  const changes = kept.changes ?? [];
  if (changes.length === 0) return undefined;
  const named = changes.slice(0, max).map(describeChange);
  const more = changes.length - named.length + (kept.moreChanges ?? 0);
  if (more > 0) named.push(`and ${more} more`);
  return `${target}: ${named.join(", ")}`;
}

/**
 * The statements a plan's changes quote (what makes them destructive), one
 * line each: the change, then the statement as the tool quoted it.
 * @param kept The plan's kept changes.
 * @returns `drop_note: deploy/drop_note.sql:2: ALTER TABLE … DROP COLUMN:
 *   ALTER TABLE accounts DROP COLUMN note`, per statement, in order.
 * @example
 * ```ts
 * statementLines({ changes: [{ address: "drop_old", action: "deploy", statements: ["deploy/drop_old.sql:1: DROP TABLE: DROP TABLE old"] }] });
 * // ["drop_old: deploy/drop_old.sql:1: DROP TABLE: DROP TABLE old"]
 * ```
 */
export function statementLines(kept: KeptChanges): string[] {
  return (kept.changes ?? []).flatMap((change) =>
    (change.statements ?? []).map((statement) =>
      `${change.address}: ${statement}`
    )
  );
}
