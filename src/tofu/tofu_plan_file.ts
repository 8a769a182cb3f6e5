/**
 * OpenTofu and Terraform plans as chant-wave plan files (SPEC.md §15): turns the
 * JSON plan representation into `{ planDigest, destructive, empty, summary }`,
 * with a digest that stays the same for the same changes however often they are
 * planned. Pure; reading and writing files is the caller's.
 * @module
 */

import { createDigest } from "../digest/hash.ts";
import type { JsonObject, JsonValue } from "./_exact_json.ts";
import { canonicalJson, writeCanonical } from "./_canonical_json.ts";
import { type PlanDocument, readPlanDocument } from "./_plan_document.ts";
import { changesOf, summarise } from "./_summary.ts";
import type { PlanChange } from "../plan/plan_file.ts";

/** The plan file of a tool's plan (SPEC.md §4.2), with its summary always set. */
export interface ToolPlanFile {
  /** `sha256:` and 64 lowercase hex digits over the changes (see {@linkcode tofuPlanFile}). */
  planDigest: string;
  /** True when any resource change deletes an object (a replace included). */
  destructive: boolean;
  /** True when applying would change nothing: see {@linkcode tofuPlanFile}. */
  empty: boolean;
  /** `2 to add, 1 to change, 1 to destroy (replace null_resource.a: tainted)`. */
  summary: string;
  /** What the plan changes, resource by resource, in the plan's order (SPEC.md §13.1). */
  changes: PlanChange[];
}

const NOTHING_TO_DO = new Set(["no-op", "read", "open"]);

/** Feeds canonical JSON to a SHA-256 hash in pieces of about 64 KiB. */
function digestOf(value: JsonValue): string {
  const hash = createDigest("sha256");
  let buffer = "";
  writeCanonical(value, (piece) => {
    buffer += piece;
    if (buffer.length >= 65_536) {
      hash.update(buffer);
      buffer = "";
    }
  });
  hash.update(buffer);
  return `sha256:${hash.hex()}`;
}

/** The value the digest is taken of. */
function covered(
  document: PlanDocument,
  place: readonly string[] | undefined,
): JsonObject {
  const outputs: JsonObject = Object.create(null);
  for (const output of document.outputs) outputs[output.name] = output.covered;
  const value: JsonObject = Object.create(null);
  value.resource_changes = document.resources.map((change) => change.covered);
  value.output_changes = outputs;
  if (document.invocations.length > 0) {
    const keyed = document.invocations.map((i) =>
      [canonicalJson(i), i] as const
    );
    keyed.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    value.action_invocations = keyed.map(([, invocation]) => invocation);
  }
  if (place !== undefined) value.place = [...place];
  return value;
}

/**
 * Turns the JSON plan representation (`tofu show -json <planfile>` or
 * `terraform show -json <planfile>`, any format version 0.x or 1.x) into a plan
 * file.
 *
 * - `planDigest`: SHA-256 of the canonical JSON (keys sorted at every level, no
 *   whitespace, numbers at their exact decimal value) of
 *   `{ resource_changes, output_changes }` cut down to what the apply does: per
 *   resource its `address`, `deposed`, `previous_address`, `action_reason` and
 *   of its `change` the `actions`, `before`, `after`, `after_unknown`,
 *   `before_sensitive`, `after_sensitive`, `replace_paths` and `importing`,
 *   sorted by address; per output the same change fields; and
 *   `action_invocations` when there are any; and, given `place`, the root
 *   module's directory and the plan's extra arguments with every value but
 *   the run's target filled in (`live/prod/{target}`), so the same changes
 *   planned for another wave's directory are another plan. Never `timestamp`,
 *   `terraform_version`, `prior_state`, `configuration`, `planned_values`,
 *   `variables`, `resource_drift`, `checks` or `relevant_attributes`, which
 *   change from plan to plan without changing what the apply does.
 * - `destructive`: some resource change deletes (`delete`, or a replace in
 *   either order).
 * - `empty`: every resource action is `no-op`, `read` or `open` (an ephemeral
 *   resource), no resource moves or is imported, every output change is `no-op`
 *   and no action is invoked.
 * - `summary`: counted as OpenTofu counts (a replace is one to add and one to
 *   destroy), with the destroyed objects named; never a value.
 * - `changes`: each resource change that does something, `{ address, action }`
 *   (`create`, `update`, `delete`, `replace`, `read`, …); addresses, never a value.
 * @param text The plan document's text.
 * @param place Where the adapter planned it: the root module's directory,
 *   then the extra plan arguments, filled in but for `{target}` (none: a plan
 *   file of `plan-file tofu`, whose script knows where it planned).
 * @returns The plan file.
 * @throws {Error} A one-line reason without any value of the plan (they may be
 *   sensitive), e.g. `is not JSON: unexpected end of input at line 1, column
 *   12`; the caller names the file.
 * @example
 * ```ts
 * const plan = tofuPlanFile(
 *   '{"format_version":"1.2","resource_changes":[{"address":"null_resource.a",' +
 *     '"change":{"actions":["delete"],"before":{"id":"1"},"after":null}}],"timestamp":"2025-01-01T00:00:00Z"}',
 * );
 * plan.destructive; // true
 * plan.summary; // "0 to add, 0 to change, 1 to destroy (destroy null_resource.a)"
 * ```
 */
export function tofuPlanFile(
  text: string,
  place?: readonly string[],
): ToolPlanFile {
  const document = readPlanDocument(text);
  const { resources, outputs, invocations } = document;
  const empty =
    resources.every((change) =>
      change.actions.every((action) => NOTHING_TO_DO.has(action)) &&
      change.previousAddress === undefined && !change.importing
    ) &&
    outputs.every((output) => output.actions.join() === "no-op") &&
    invocations.length === 0;
  return {
    planDigest: digestOf(covered(document, place)),
    destructive: resources.some((change) => change.actions.includes("delete")),
    empty,
    summary: summarise(document),
    changes: changesOf(document),
  };
}
