/**
 * Reads the spec's zod schema by path, to list the known keys of the object at a
 * path (for "did you mean" on unknown fields). It only reads schema definitions;
 * it validates nothing.
 * @module
 */

import type * as z from "zod";
import { asRecord, valueAt } from "./_problems.ts";
import type { Path } from "./_locate.ts";

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
}

const WRAPPERS = new Set([
  "optional",
  "default",
  "prefault",
  "nullable",
  "nonoptional",
  "readonly",
  "catch",
]);

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional/default/pipe layers down to the schema that does the work. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else return current;
  }
}

/** The object options of a union (or the object itself), best fit to `value` first. */
function objectOptions(schema: z.ZodType, value: unknown): Def[] {
  const def = defOf(unwrap(schema));
  const options = def.type === "union" ? def.options ?? [] : [schema];
  const present = Object.keys(asRecord(value) ?? {});
  const overlap = (candidate: Def) =>
    present.filter((key) => Object.hasOwn(candidate.shape ?? {}, key)).length;
  return options.map((option) => defOf(unwrap(option)))
    .filter((candidate) => candidate.type === "object")
    .sort((a, b) => overlap(b) - overlap(a));
}

function child(
  schema: z.ZodType,
  segment: string | number,
  value: unknown,
): z.ZodType | undefined {
  const def = defOf(unwrap(schema));
  if (def.type === "union") {
    const wanted = typeof segment === "number" ? "array" : "object";
    const fits = (def.options ?? []).filter((candidate) =>
      defOf(unwrap(candidate)).type === wanted
    );
    const option = fits.find((candidate) =>
      Object.hasOwn(defOf(unwrap(candidate)).shape ?? {}, String(segment))
    ) ?? fits[0];
    return option && child(option, segment, value);
  }
  if (def.type === "object") return def.shape?.[String(segment)];
  if (def.type === "array") return def.element;
  if (def.type === "record") return def.valueType;
  return undefined;
}

/**
 * The keys the schema knows for the object at `path` in `document`.
 * @param schema The schema the document was validated with.
 * @param document The raw document.
 * @param path Where the object is.
 * @returns Its known keys, in schema order; `[]` when the path has no object.
 */
export function knownKeysAt(
  schema: z.ZodType,
  document: unknown,
  path: Path,
): string[] {
  let current: z.ZodType | undefined = schema;
  for (let i = 0; i < path.length && current; i++) {
    current = child(current, path[i], valueAt(document, path.slice(0, i)));
  }
  if (!current) return [];
  const [best] = objectOptions(current, valueAt(document, path));
  return Object.keys(best?.shape ?? {});
}
