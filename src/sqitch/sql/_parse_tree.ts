/**
 * Reading PostgreSQL's parse tree as `libpg-query` writes it: a node is
 * `{ "<NodeType>": { …fields } }`, a field typed as one struct is written
 * without the wrapper. It says nothing about what a node does. Pure.
 * @module
 */

/** A node's fields. */
export type Fields = Record<string, unknown>;

/**
 * A node's type and fields, when `value` is a node (`{ "<Type>": { … } }`).
 * @param value Any part of a parse tree.
 * @returns The type and fields, or undefined for a plain value or a struct.
 */
export function nodeOf(value: unknown): [string, Fields] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length !== 1 || !/^[A-Z]/.test(keys[0])) return undefined;
  const fields = (value as Fields)[keys[0]];
  return typeof fields === "object" && fields !== null && !Array.isArray(fields)
    ? [keys[0], fields as Fields]
    : undefined;
}

/**
 * The strings of a list of `String` nodes (a qualified name).
 * @param list A list field of a node.
 * @returns Its strings, `?` for anything else.
 */
export function namesOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => {
    const node = nodeOf(item);
    return node?.[0] === "String" ? String(node[1].sval ?? "") : "?";
  });
}

/**
 * The `DefElem`s of an options list, by name.
 * @param list An options field of a node.
 * @returns Each option's argument by its name.
 */
export function optionsOf(list: unknown): Map<string, unknown> {
  const options = new Map<string, unknown>();
  if (!Array.isArray(list)) return options;
  for (const item of list) {
    const node = nodeOf(item);
    if (node?.[0] === "DefElem") {
      options.set(String(node[1].defname), node[1].arg);
    }
  }
  return options;
}

/**
 * The text of a `String` node.
 * @param value Any part of a parse tree.
 * @returns Its text, or undefined when it is not a `String` node.
 */
export function stringOf(value: unknown): string | undefined {
  const node = nodeOf(value);
  return node?.[0] === "String" ? String(node[1].sval ?? "") : undefined;
}
