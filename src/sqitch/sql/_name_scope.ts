/**
 * Which relation names each part of a statement can see, under PostgreSQL's
 * scoping rules. In PostgreSQL `q.c` is column `c` of relation `q` only when
 * `q` names a relation in reach there; otherwise `q` may be a value (a SQL
 * function's parameter, a PL/pgSQL variable) and `q.c` the call `c(q)`. So
 * the judge asks this module who is in reach: a query's own FROM items (by
 * alias, else by table, function or CTE name) and those of the queries
 * around it; a subquery in FROM sees its siblings only when LATERAL (a
 * function in FROM always does); a JOIN's ON sees the two sides of that join
 * only; a JOIN with an alias hides the names inside it; a CTE's query and a
 * VALUES list see only the queries around them; INSERT's ON CONFLICT sees the
 * target and `excluded`, its RETURNING the target; a table's constraints,
 * defaults and index expressions see the table. It walks nothing but the
 * order of a statement's parts, handing each to the caller with its scope;
 * what is allowed is `allowed_statements.ts`'s. Pure.
 * @module
 */

import { type Fields, namesOf, nodeOf } from "./_parse_tree.ts";

/** A relation a qualified column can name. */
export interface Relation {
  /** The name it is reached by: its alias, else its table's, function's or CTE's name. */
  name: string;
  /** For an unaliased schema-qualified table, its schema (`s.t.c` reaches it). */
  schema?: string;
}

/** The relations in reach: a query level's, then the levels around it. */
export class Scope {
  /**
   * A level of relations inside `outer`.
   * @param relations The relations of this level.
   * @param outer The levels around it.
   */
  constructor(
    readonly relations: readonly Relation[],
    readonly outer?: Scope,
  ) {}

  /**
   * A level inside this one.
   * @param relations Its relations.
   * @returns The scope of the level.
   */
  inner(relations: readonly Relation[]): Scope {
    return new Scope(relations, this);
  }

  /**
   * Whether a qualified column's qualifier names a relation in reach.
   * @param qualifier `["q"]` for `q.c`, `["s", "t"]` for `s.t.c`,
   *   `["db", "s", "t"]` for `db.s.t.c`.
   * @returns Whether `c` is a column there (and not possibly a call).
   */
  reaches(qualifier: readonly string[]): boolean {
    const [schema, name] = qualifier.length === 1
      ? [undefined, qualifier[0]]
      : qualifier.slice(-2);
    return this.relations.some((r) =>
      r.name === name && (schema === undefined || r.schema === schema)
    ) || (this.outer?.reaches(qualifier) ?? false);
  }
}

/** No relation in reach: a statement's top level, a body's. */
export const NO_RELATIONS: Scope = new Scope([]);

/** Judges a part of a statement in the scope it sees. */
export type Visit = (part: unknown, scope: Scope) => void;

/**
 * The relation a `RangeVar` (a table named in FROM, or a statement's target)
 * makes reachable.
 * @param rangeVar The `RangeVar`'s fields.
 * @returns Its alias, or its name (and schema, when written).
 */
function relationOf(rangeVar: Fields | undefined): Relation[] {
  if (rangeVar === undefined) return [];
  const alias = aliasOf(rangeVar.alias);
  if (alias !== undefined) return [{ name: alias }];
  const name = typeof rangeVar.relname === "string" ? rangeVar.relname : "";
  const schema = typeof rangeVar.schemaname === "string"
    ? rangeVar.schemaname
    : undefined;
  return [{ name, ...(schema === undefined ? {} : { schema }) }];
}

/** An `Alias`'s name. */
function aliasOf(alias: unknown): string | undefined {
  const fields = (nodeOf(alias)?.[1] ?? alias) as Fields | undefined;
  return typeof fields?.aliasname === "string" ? fields.aliasname : undefined;
}

/**
 * Visits a `SelectStmt`'s parts: its CTEs and VALUES in the scope around it;
 * a set operation's arms each as a query in that scope (its ORDER BY and
 * LIMIT see no relation of its own); otherwise the FROM items in order, and
 * the rest in the scope of the query's own relations inside the one around
 * it.
 * @param select The statement's fields (its `INTO` is the caller's).
 * @param outer The scope around the query.
 * @param visit Judges a part in its scope.
 */
export function visitSelect(select: Fields, outer: Scope, visit: Visit): void {
  const { withClause, valuesLists, fromClause, larg, rarg, ...rest } = select;
  visit(withClause, outer);
  visit(valuesLists, outer);
  if (larg !== undefined || rarg !== undefined) {
    // The parser writes the arms without their node's name: each is a query.
    visit({ SelectStmt: larg ?? {} }, outer);
    visit({ SelectStmt: rarg ?? {} }, outer);
    visit(rest, outer);
    return;
  }
  const level: Relation[] = [];
  for (const item of Array.isArray(fromClause) ? fromClause : []) {
    level.push(...fromItem(item, outer, level, visit));
  }
  visit(rest, outer.inner(level));
}

/**
 * Visits one FROM item's parts and gives the relations it makes reachable.
 * @param item The item (`RangeVar`, `RangeSubselect`, `RangeFunction`, `JoinExpr`, …).
 * @param outer The scope around the query.
 * @param before The relations of the query's FROM items before this one.
 * @param visit Judges a part in its scope.
 * @returns The relations the item makes reachable (none for what it does not know).
 */
function fromItem(
  item: unknown,
  outer: Scope,
  before: readonly Relation[],
  visit: Visit,
): Relation[] {
  const node = nodeOf(item);
  if (node === undefined) {
    visit(item, outer);
    return [];
  }
  const [type, fields] = node;
  if (type === "RangeVar") {
    visit(item, outer);
    return relationOf(fields);
  }
  if (type === "RangeSubselect") {
    const { subquery, ...rest } = fields;
    visit(subquery, fields.lateral ? outer.inner([...before]) : outer);
    visit(rest, outer);
    const alias = aliasOf(fields.alias);
    return alias === undefined ? [] : [{ name: alias }];
  }
  if (type === "RangeFunction") {
    const { functions, ...rest } = fields;
    visit(functions, outer.inner([...before]));
    visit(rest, outer);
    const alias = aliasOf(fields.alias);
    if (alias !== undefined) return [{ name: alias }];
    const calls = Array.isArray(functions) ? functions : [];
    const only = calls.length === 1 ? firstCall(calls[0]) : undefined;
    const name = only && namesOf(only.funcname).at(-1);
    return name ? [{ name }] : [];
  }
  if (type === "JoinExpr") {
    const { larg, rarg, quals, ...rest } = fields;
    const left = fromItem(larg, outer, before, visit);
    const right = fromItem(rarg, outer, [...before, ...left], visit);
    visit(quals, outer.inner([...left, ...right]));
    visit(rest, outer);
    const alias = aliasOf(fields.alias);
    if (alias !== undefined) return [{ name: alias }];
    const using = aliasOf(fields.join_using_alias);
    return [
      ...left,
      ...right,
      ...(using === undefined ? [] : [{
        name: using,
      }]),
    ];
  }
  visit(item, outer);
  return [];
}

/** The `FuncCall` of a `RangeFunction`'s entry (a list of the call and its column definitions). */
function firstCall(entry: unknown): Fields | undefined {
  const list = nodeOf(entry);
  const items = list?.[0] === "List" ? list[1].items : undefined;
  const call = nodeOf(Array.isArray(items) ? items[0] : undefined);
  return call?.[0] === "FuncCall" ? call[1] : undefined;
}

/**
 * Visits an `InsertStmt`'s parts: its CTEs and its query in the scope around
 * it (the target is not in reach there), ON CONFLICT with the target and
 * `excluded`, RETURNING with the target.
 * @param insert The statement's fields.
 * @param outer The scope around the statement.
 * @param visit Judges a part in its scope.
 */
export function visitInsert(insert: Fields, outer: Scope, visit: Visit): void {
  const {
    onConflictClause,
    returningClause,
    returningList,
    ...rest
  } = insert;
  const target = relationOf(insert.relation as Fields | undefined);
  visit(rest, outer);
  visit(onConflictClause, outer.inner([...target, { name: "excluded" }]));
  visit(returningClause, outer.inner(target));
  visit(returningList, outer.inner(target));
}

/**
 * The scope of a statement on one table (`CREATE TABLE`, `CREATE INDEX`,
 * `ALTER TABLE`): its checks, defaults, index and partition expressions see
 * the table.
 * @param outer The scope around the statement.
 * @param table The `RangeVar` of the table.
 * @returns The scope of its expressions.
 */
export function tableScope(outer: Scope, table: unknown): Scope {
  return outer.inner(relationOf(table as Fields | undefined));
}
