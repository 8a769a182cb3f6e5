/**
 * Reads the JSON plan representation (`tofu show -json <planfile>`,
 * `terraform show -json <planfile>`) as untrusted input: checks its size, syntax,
 * format version and the fields chant-wave uses, and cuts each change down to the
 * part the plan digest covers. Pure; what the digest covers and why is written on
 * `CHANGE_FIELDS` and `RESOURCE_FIELDS`.
 * @module
 */

import {
  ExactNumber,
  type JsonObject,
  JsonSyntaxError,
  type JsonValue,
  parseTopObject,
} from "./_exact_json.ts";
import { ShapeError } from "../input/shape_error.ts";
import { quote } from "../quote.ts";

/** The largest plan document read, in characters (the CLI checks bytes first). */
export const MAX_PLAN_DOCUMENT = 64 * 1024 * 1024;

/**
 * The fields of a change that the digest covers: what happens (`actions`), to what
 * (`before`, `after`, `after_unknown`), which of it is sensitive (the markers
 * decide what the apply writes to state as sensitive), what forces a replace, and
 * an import. Left out: `generated_config` (text for the user, not the apply) and
 * the resource identities (derived from `before`/`after`).
 */
export const CHANGE_FIELDS = [
  "actions",
  "before",
  "after",
  "after_unknown",
  "before_sensitive",
  "after_sensitive",
  "replace_paths",
  "importing",
] as const;

/**
 * The fields of a resource change, beside its `change`, that the digest covers:
 * the address; `deposed` (which object at that address); `previous_address` (a
 * `moved` block: the apply moves the object in state); `action_reason` (what the
 * approver was told: tainted, requested, …; it follows from state and
 * configuration, so it never moves on its own). Left out: `mode`, `type`, `name`,
 * `index` and `module_address` (all in the address) and `provider_name`.
 */
export const RESOURCE_FIELDS = [
  "address",
  "deposed",
  "previous_address",
  "action_reason",
] as const;

/** The action lists of the plan format, by the words they join with `,`. */
const ACTION_LISTS = new Set([
  "no-op",
  "create",
  "read",
  "update",
  "delete",
  "delete,create",
  "create,delete",
  "forget",
  "create,forget",
  "open",
]);

const WANTED = new Set([
  "format_version",
  "errored",
  "resource_changes",
  "output_changes",
  "action_invocations",
]);

/** One entry of `resource_changes`, checked. */
export interface ResourceChange {
  address: string;
  /** `["delete", "create"]`, `["no-op"]`, … */
  actions: string[];
  /** `replace_because_tainted`, … */
  reason?: string;
  /** The address before a `moved` block. */
  previousAddress?: string;
  /** The deposed object's key, when the change is to a deposed object. */
  deposed?: string;
  /** Whether the apply imports the object. */
  importing: boolean;
  /** The entry cut down to what the digest covers. */
  covered: JsonObject;
}

/** One entry of `output_changes`, checked. */
export interface OutputChange {
  name: string;
  actions: string[];
  /** The change cut down to what the digest covers. */
  covered: JsonObject;
}

/** A checked plan document. */
export interface PlanDocument {
  /** Sorted by address, then deposed key. */
  resources: ResourceChange[];
  /** Sorted by name. */
  outputs: OutputChange[];
  /** `action_invocations` (Terraform 1.14 actions), as written. */
  invocations: JsonObject[];
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof ExactNumber);
}

/** Fails with a one-line reason about the document (the caller names it). */
function fail(what: string): never {
  throw new ShapeError("", what);
}

function pick(from: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = Object.create(null);
  for (const field of fields) {
    if (Object.hasOwn(from, field)) out[field] = from[field];
  }
  return out;
}

function optionalString(
  entry: JsonObject,
  field: string,
  where: string,
): string | undefined {
  const value = entry[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    fail(`${where}: "${field}" is not a string`);
  }
  return value;
}

function readActions(change: JsonObject, where: string): string[] {
  const actions = change.actions;
  if (
    !Array.isArray(actions) || actions.length === 0 ||
    !actions.every((action) => typeof action === "string")
  ) {
    fail(`${where}: "actions" is not a list of actions`);
  }
  const words = actions as string[];
  if (!ACTION_LISTS.has(words.join(","))) {
    fail(
      `${where}: unknown actions [${words.map(quote).join(", ")}]`,
    );
  }
  return words;
}

function readResource(raw: JsonValue, i: number): ResourceChange {
  if (!isObject(raw)) {
    fail(`resource_changes[${i}] is not an object`);
  }
  const address = raw.address;
  if (typeof address !== "string" || address === "") {
    fail(`resource_changes[${i}] has no "address"`);
  }
  const where = `resource_changes[${i}] ${quote(address)}`;
  const change = raw.change;
  if (!isObject(change)) fail(`${where} has no "change"`);
  const importing = change.importing;
  if (importing !== undefined && importing !== null && !isObject(importing)) {
    fail(`${where}: "importing" is not an object`);
  }
  const covered = pick(raw, RESOURCE_FIELDS);
  covered.change = pick(change, CHANGE_FIELDS);
  return {
    address,
    actions: readActions(change, where),
    reason: optionalString(raw, "action_reason", where),
    previousAddress: optionalString(raw, "previous_address", where),
    deposed: optionalString(raw, "deposed", where),
    importing: isObject(importing),
    covered,
  };
}

function readResources(value: JsonValue | undefined): ResourceChange[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    fail('"resource_changes" is not a list');
  }
  const resources = value.map(readResource);
  const order = (x: string, y: string) => x < y ? -1 : x > y ? 1 : 0;
  resources.sort((a, b) =>
    order(a.address, b.address) || order(a.deposed ?? "", b.deposed ?? "")
  );
  resources.forEach((r, i) => {
    const before = resources[i - 1];
    if (before?.address === r.address && before.deposed === r.deposed) {
      const object = r.deposed === undefined
        ? ""
        : ` (deposed ${quote(r.deposed)})`;
      fail(
        `"resource_changes" holds ${quote(r.address)}${object} twice`,
      );
    }
  });
  return resources;
}

function readOutputs(value: JsonValue | undefined): OutputChange[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) fail('"output_changes" is not an object');
  return Object.keys(value).sort().map((name) => {
    const change = value[name];
    const where = `output_changes ${quote(name)}`;
    if (!isObject(change)) fail(`${where} is not an object`);
    const actions = readActions(change, where);
    return { name, actions, covered: pick(change, CHANGE_FIELDS) };
  });
}

function readInvocations(value: JsonValue | undefined): JsonObject[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isObject)) {
    fail('"action_invocations" is not a list of objects');
  }
  return value as JsonObject[];
}

const SHOW_HINT = 'give it the output of "show -json" on the saved plan file';

function checkKind(members: JsonObject, keys: readonly string[]): void {
  if (!keys.includes("planned_values") && !keys.includes("resource_changes")) {
    const what = keys.includes("values")
      ? "is a state, not a plan"
      : 'is not a plan (it has no "planned_values" or "resource_changes")';
    fail(`${what}: ${SHOW_HINT}`);
  }
  const version = members.format_version;
  if (version === undefined) {
    fail(`has no "format_version": ${SHOW_HINT}`);
  }
  const major = typeof version === "string"
    ? /^(\d+)\.\d+$/.exec(version)?.[1]
    : undefined;
  if (major === undefined) {
    fail('"format_version" is not a version like "1.2"');
  }
  if (major !== "0" && major !== "1") {
    fail(
      `has "format_version" ${
        quote(version as string)
      }; chant-wave reads 0.x and 1.x`,
    );
  }
}

/**
 * Reads and checks a plan document.
 * @param text The document's text (the stdout of `show -json <planfile>`).
 * @returns The changes the digest and summary are made of.
 * @throws {ShapeError} A one-line reason that never quotes a value of the plan (they
 *   may be sensitive): `is not JSON: unexpected character "x" at line 1, column
 *   5`, `has no "format_version": …`, `resource_changes[2] "null_resource.a":
 *   unknown actions ["frob"]`, `is a plan that errored: …`, `is larger than 64
 *   MiB`. The caller names the file.
 */
export function readPlanDocument(text: string): PlanDocument {
  if (text.length > MAX_PLAN_DOCUMENT) fail("is larger than 64 MiB");
  let parsed: ReturnType<typeof parseTopObject>;
  try {
    parsed = parseTopObject(text, WANTED);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      fail(`is not JSON: ${error.message}`);
    }
    if (!(error instanceof ShapeError)) throw error;
    fail(`is not a plan: it ${error.message}`);
  }
  const { members, keys } = parsed;
  checkKind(members, keys);
  if (members.errored === true) {
    fail(
      "is a plan that errored: it cannot be applied; see the plan's output",
    );
  }
  return {
    resources: readResources(members.resource_changes),
    outputs: readOutputs(members.output_changes),
    invocations: readInvocations(members.action_invocations),
  };
}
