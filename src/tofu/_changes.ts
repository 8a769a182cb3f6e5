/**
 * What an OpenTofu or Terraform plan changes, resource by resource, for the
 * approver (SPEC.md §13.1, §15): each `resource_changes` entry that does
 * something, as `{ address, action }` in the plan's order. Addresses only,
 * never a value (values may be sensitive). Pure.
 * @module
 */

import {
  MAX_CHANGE_ADDRESS,
  MAX_PLAN_CHANGES,
  type PlanChange,
} from "../plan/plan_file.ts";
import type { PlanDocument, ResourceChange } from "./_plan_document.ts";

/** The action of one resource change, or `undefined` when it does nothing. */
function actionOf(change: ResourceChange): string | undefined {
  const { actions } = change;
  if (actions.includes("delete") && actions.includes("create")) {
    return "replace";
  }
  const words = actions.filter((action) =>
    action !== "no-op" && action !== "open"
  );
  if (words.length === 0) {
    if (change.previousAddress !== undefined) return "move";
    return change.importing ? "import" : undefined;
  }
  return words.join("-").slice(0, 32);
}

/**
 * The changes of a checked plan document: at most
 * {@linkcode MAX_PLAN_CHANGES}, addresses cut to
 * {@linkcode MAX_CHANGE_ADDRESS} characters (a deposed object's address is
 * followed by ` (deposed <key>)`).
 * @param document A checked plan document.
 * @returns The changes, in the plan's order: `create`, `update`, `delete`,
 *   `replace` (a delete and a create, in either order), `read`, `forget`,
 *   `move` (moved without changes), `import` (imported without changes).
 * @example
 * ```ts
 * // resource_changes: web ["update"], old ["delete"], same ["no-op"]
 * // [{ address: "aws_instance.web", action: "update" },
 * //  { address: "aws_db_instance.old", action: "delete" }]
 * ```
 */
export function changesOf(document: PlanDocument): PlanChange[] {
  const out: PlanChange[] = [];
  for (const change of document.resources) {
    if (out.length >= MAX_PLAN_CHANGES) break;
    const action = actionOf(change);
    if (action === undefined) continue;
    const address = change.deposed === undefined
      ? change.address
      : `${change.address} (deposed ${change.deposed})`;
    out.push({ address: address.slice(0, MAX_CHANGE_ADDRESS), action });
  }
  return out;
}
