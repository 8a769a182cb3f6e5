/**
 * The one-line summary of a checked plan document, counted the way OpenTofu and
 * Terraform count their own `Plan:` line (a replace is one to add and one to
 * destroy), with the objects that get destroyed named after it. It holds
 * addresses, counts and reasons only, never a value, and shows control characters
 * of addresses as `\xHH` so the line is safe to print. Pure.
 * And what the plan changes, resource by resource, for the approver (§13.1):
 * each `resource_changes` entry that does something, as `{ address, action }`,
 * an update with the attribute paths it changes.
 * @module
 */

import { visible } from "../console/visible.ts";
import type { PlanDocument, ResourceChange } from "./_plan_document.ts";
import type { JsonObject } from "./_exact_json.ts";
import { changedAttributes } from "./_attribute_paths.ts";
import { ShapeError } from "../input/shape_error.ts";
import {
  MAX_CHANGE_ADDRESS,
  MAX_PLAN_CHANGES,
  type PlanChange,
} from "../plan/plan_file.ts";

/** How many destroyed objects the summary names before `and N more`. */
const NAMED = 3;

const REASONS: Record<string, string> = {
  replace_because_tainted: "tainted",
  replace_by_request: "requested",
  replace_by_triggers: "replace_triggered_by",
  replace_because_cannot_update: "cannot update in place",
  delete_because_no_resource_config: "not in the configuration",
  delete_because_wrong_repetition: "count or for_each changed",
  delete_because_count_index: "count index out of range",
  delete_because_each_key: "for_each key gone",
  delete_because_no_module: "module not in the configuration",
  delete_because_no_move_target: "moved to an address not in the configuration",
  delete_because_enabled_false: "enabled is false",
};

/** Shows text from the plan with its control characters visible, cut to `max`. */
function shown(text: string, max: number): string {
  return visible(text.length > max ? `${text.slice(0, max)}…` : text);
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `replace a.b: tainted`, `destroy deposed a.b`, … for a deleting change. */
function describe(change: ResourceChange): string {
  const verb = change.actions.includes("create") ? "replace" : "destroy";
  const object = change.deposed === undefined ? "" : "deposed ";
  const reason = change.reason === undefined
    ? ""
    : `: ${REASONS[change.reason] ?? shown(change.reason, 60)}`;
  return `${verb} ${object}${shown(change.address, 120)}${reason}`;
}

/**
 * Summarises a plan document: `<n> to add, <n> to change, <n> to destroy`, then
 * only when not zero `<n> to import`, `<n> to move`, `<n> to forget`, `<n>
 * outputs to change` and `<n> actions to invoke`, then the objects destroyed (at
 * most three, then `and <n> more`) in parentheses.
 * @param document A checked plan document.
 * @returns The summary line.
 * @example
 * ```ts
 * // a tainted null_resource.example planned as ["delete", "create"]:
 * // "1 to add, 0 to change, 1 to destroy (replace null_resource.example: tainted)"
 * ```
 */
export function summarise(document: PlanDocument): string {
  const { resources, outputs, invocations } = document;
  const count = (test: (change: ResourceChange) => boolean) =>
    resources.filter(test).length;
  const parts = [
    `${count((c) => c.actions.includes("create"))} to add`,
    `${count((c) => c.actions.join() === "update")} to change`,
    `${count((c) => c.actions.includes("delete"))} to destroy`,
  ];
  const extras: [number, string, string][] = [
    [count((c) => c.importing), "to import", "to import"],
    [count((c) => c.previousAddress !== undefined), "to move", "to move"],
    [count((c) => c.actions.includes("forget")), "to forget", "to forget"],
    [
      outputs.filter((o) => o.actions.join() !== "no-op").length,
      "output to change",
      "outputs to change",
    ],
    [invocations.length, "action to invoke", "actions to invoke"],
  ];
  for (const [n, one, many] of extras) {
    if (n > 0) parts.push(plural(n, one, many));
  }
  const deleting = resources.filter((c) => c.actions.includes("delete"));
  if (deleting.length === 0) return parts.join(", ");
  const named = deleting.slice(0, NAMED).map(describe);
  if (deleting.length > NAMED) {
    named.push(`and ${deleting.length - NAMED} more`);
  }
  return `${parts.join(", ")} (${named.join("; ")})`;
}

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
 * The changes of a checked plan document, for the approver and for the rules
 * over what a plan changes (SPEC.md §13.1, §18): every effect on an object is
 * listed, so that a rule over any of them sees it. A resource change is
 * listed under its address with its action (an update with the attribute
 * paths it changes); a moved object is listed again under its previous
 * address with the same action, and, when it also does something else, as a
 * `move` under its address; an import beside another action as an `import`;
 * a root module output that changes as `output.<name>` with its action; an
 * action a change triggers (Terraform's `action_invocations`) as an `invoke`
 * of the action's address. A deposed object is listed under its
 * resource's address (the summary names it deposed).
 * @param document A checked plan document.
 * @returns The changes, in the plan's order: `create`, `update`, `delete`,
 *   `replace` (a delete and a create, in either order), `read`, `forget`,
 *   `move`, `import`, `invoke`.
 * @throws {ShapeError} When the plan changes more than
 *   {@linkcode MAX_PLAN_CHANGES} objects, or an address is longer than
 *   {@linkcode MAX_CHANGE_ADDRESS}: a list cut short would hide a change
 *   from the rules.
 * @example
 * ```ts
 * // resource_changes: web ["update"], old ["delete"], same ["no-op"]
 * // [{ address: "aws_instance.web", action: "update" },
 * //  { address: "aws_db_instance.old", action: "delete" }]
 * ```
 */
export function changesOf(document: PlanDocument): PlanChange[] {
  const out: PlanChange[] = [];
  const add = (change: PlanChange) => {
    if (change.address.length > MAX_CHANGE_ADDRESS) {
      throw new ShapeError(
        "",
        `an address is longer than ${MAX_CHANGE_ADDRESS} characters: ${
          shown(change.address, 64)
        }`,
      );
    }
    if (out.length >= MAX_PLAN_CHANGES) {
      throw new ShapeError(
        "",
        `the plan changes more than ${MAX_PLAN_CHANGES} objects; chant-wave reads at most that many in one run`,
      );
    }
    out.push(change);
  };
  for (const change of document.resources) {
    const action = actionOf(change);
    if (action === undefined) continue;
    const attributes = action === "update"
      ? changedAttributes(change.covered.change as JsonObject)
      : undefined;
    const paths = attributes === undefined ? {} : { attributes };
    add({ address: change.address, action, ...paths });
    if (change.previousAddress !== undefined) {
      add({ address: change.previousAddress, action, ...paths });
      if (action !== "move") add({ address: change.address, action: "move" });
    }
    if (change.importing && action !== "import") {
      add({ address: change.address, action: "import" });
    }
  }
  for (const output of document.outputs) {
    const words = output.actions.filter((action) => action !== "no-op");
    if (words.length === 0) continue;
    add({
      address: `output.${output.name}`,
      action: output.actions.includes("delete") &&
          output.actions.includes("create")
        ? "replace"
        : words.join("-").slice(0, 32),
    });
  }
  for (const invocation of document.invocations) {
    const address = invocation.address;
    add({
      address: typeof address === "string" ? address : "action",
      action: "invoke",
    });
  }
  return out;
}
