/**
 * The attribute paths an update changes (SPEC.md §15, §18), read from a
 * resource change's `before`, `after`, `after_unknown` and sensitivity
 * markers, so that a plan rule's `only.attributes` can be checked: `tags.Name`,
 * `tags["kubernetes.io/role"]`, `ingress[0].cidr_blocks`. A value known only
 * after apply, or one whose sensitivity changes, is a changed path; a
 * sensitive value is compared, never descended into (its keys may be secret)
 * and never shown. Paths only, never a value. Pure.
 * @module
 */

import { ExactNumber, type JsonObject, type JsonValue } from "./_exact_json.ts";
import { canonicalJson } from "./_canonical_json.ts";
import {
  MAX_ATTRIBUTE_PATH,
  MAX_CHANGE_ATTRIBUTES,
} from "../plan/plan_file.ts";

/** How deep a value is compared; a deeper difference is named at this depth. */
const MAX_DEPTH = 32;

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null &&
    !Array.isArray(value) && !(value instanceof ExactNumber);
}

/** A path and one more key or index: `tags.Name`, `tags["a.b"]`, `x[0]`. */
function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (NAME.test(key)) return path === "" ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** A marker's part under one key or index (`true` covers everything below). */
function under(marker: JsonValue | undefined, key: string | number) {
  if (marker === true) return true;
  if (Array.isArray(marker) && typeof key === "number") return marker[key];
  if (isObject(marker) && typeof key === "string") return marker[key];
  return undefined;
}

interface Sides {
  before: JsonValue | undefined;
  after: JsonValue | undefined;
  unknown: JsonValue | undefined;
  beforeSensitive: JsonValue | undefined;
  afterSensitive: JsonValue | undefined;
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

function walk(sides: Sides, path: string, depth: number, out: string[]): void {
  const { before, after, unknown } = sides;
  if (unknown === true) {
    out.push(path);
    return;
  }
  const sensitiveBefore = sides.beforeSensitive === true;
  const sensitiveAfter = sides.afterSensitive === true;
  if (sensitiveBefore || sensitiveAfter) {
    if (sensitiveBefore !== sensitiveAfter || !same(before, after)) {
      out.push(path);
    }
    return;
  }
  const keys: (string | number)[] = [];
  if (isObject(before) && isObject(after)) {
    const names = new Set([...Object.keys(before), ...Object.keys(after)]);
    if (isObject(unknown)) {
      for (const key of Object.keys(unknown)) names.add(key);
    }
    keys.push(...[...names].sort());
  } else if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(
      before.length,
      after.length,
      Array.isArray(unknown) ? unknown.length : 0,
    );
    for (let i = 0; i < n; i++) keys.push(i);
  } else {
    if (!same(before ?? null, after ?? null) || hasTrue(unknown)) {
      out.push(path);
    }
    return;
  }
  if (depth >= MAX_DEPTH && path !== "") {
    if (!same(before, after) || hasTrue(unknown)) out.push(path);
    return;
  }
  for (const key of keys) {
    walk(
      {
        before: under(before, key) ?? null,
        after: under(after, key) ?? null,
        unknown: under(unknown, key),
        beforeSensitive: under(sides.beforeSensitive, key),
        afterSensitive: under(sides.afterSensitive, key),
      },
      join(path, key),
      depth + 1,
      out,
    );
  }
}

/** Whether a marker marks anything. */
function hasTrue(marker: JsonValue | undefined): boolean {
  if (marker === true) return true;
  if (Array.isArray(marker)) return marker.some(hasTrue);
  if (isObject(marker)) return Object.values(marker).some(hasTrue);
  return false;
}

/**
 * The attribute paths an update changes, keys in sorted order.
 * @param change The resource change's `change` (its `before`, `after`,
 *   `after_unknown`, `before_sensitive`, `after_sensitive`).
 * @returns The paths; `undefined` when there are none to name (the change is
 *   then not known to touch only some attributes), more than
 *   {@linkcode MAX_CHANGE_ATTRIBUTES}, or one longer than
 *   {@linkcode MAX_ATTRIBUTE_PATH} characters.
 * @example
 * ```ts
 * changedAttributes({ before: { tags: { Name: "a" } }, after: { tags: { Name: "b" } } });
 * // ["tags.Name"]
 * ```
 */
export function changedAttributes(change: JsonObject): string[] | undefined {
  const { before, after } = change;
  if (!isObject(before) || !isObject(after)) return undefined;
  const out: string[] = [];
  walk(
    {
      before,
      after,
      unknown: change.after_unknown,
      beforeSensitive: change.before_sensitive,
      afterSensitive: change.after_sensitive,
    },
    "",
    0,
    out,
  );
  if (
    out.length === 0 || out.length > MAX_CHANGE_ATTRIBUTES ||
    out.some((path) => path === "" || path.length > MAX_ATTRIBUTE_PATH)
  ) {
    return undefined;
  }
  return out;
}
