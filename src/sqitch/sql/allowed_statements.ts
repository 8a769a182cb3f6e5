/**
 * The allow-list: the shapes of statement, as PostgreSQL's parser makes them,
 * that cannot delete, overwrite or rename data or schema. A statement is
 * judged harmless only when its node is on the list, every condition of its
 * shape holds, and every node inside it is an expression the list knows, whose
 * function calls are of harmless built-ins (`harmless_functions.ts`) or of
 * functions created harmless earlier in the same deploy in a schema it created
 * (and named with their schema, as created). A qualified name `q.c` whose `q` names no relation in
 * reach (`_name_scope.ts`) and a field of a value, `(value).f`, may each be a
 * call of a function of that name, so they are judged as calls. A statement
 * that writes into sqitch's registry schema is refused. Everything else is
 * refused, with its SQL words (`statement_kinds.ts`). Function, procedure and
 * `DO` bodies are followed (`function_bodies.ts`). Pure.
 * @module
 */

import {
  type BodyReader,
  plpgsqlRefusals,
  sqlBodyRefusals,
} from "./function_bodies.ts";
import { harmlessFunction } from "./harmless_functions.ts";
import {
  type Fields,
  namesOf,
  nodeOf,
  optionsOf,
  stringOf,
} from "./_parse_tree.ts";
import {
  NO_RELATIONS,
  type Scope,
  tableScope,
  visitInsert,
  visitSelect,
} from "./_name_scope.ts";
import type { PgNode, PgParser } from "./pg_parser.ts";
import { decodeUtf8 } from "./script_text.ts";
import { statementKind, wordsOf } from "./statement_kinds.ts";

/** An entry of the allow-list. */
export interface AllowedShape {
  /** The parser's node of such a statement. */
  node: string;
  /** The shape, as the docs list it. */
  shape: string;
  /** A statement of that shape (the docs show it; a test runs it). */
  example: string;
}

/**
 * Every shape on the list, in the order the docs list them. Each example is
 * judged harmless by a test; every other statement node the parser knows is
 * refused by another.
 */
export const ALLOWED_SHAPES: readonly AllowedShape[] = [
  {
    node: "TransactionStmt",
    shape:
      "BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK TO (not PREPARE TRANSACTION, COMMIT PREPARED, ROLLBACK PREPARED)",
    example: "BEGIN; SAVEPOINT s; RELEASE s; COMMIT;",
  },
  {
    node: "VariableSetStmt",
    shape: "SET [LOCAL] lock_timeout or statement_timeout to a constant",
    example: "SET LOCAL lock_timeout = '5s';",
  },
  {
    node: "CreateStmt",
    shape: "CREATE TABLE (also PARTITION OF, INHERITS, LIKE)",
    example:
      "CREATE TABLE invoices (id bigint PRIMARY KEY, account_id bigint REFERENCES accounts ON DELETE CASCADE, total numeric CHECK (total >= 0), created timestamptz NOT NULL DEFAULT now());",
  },
  {
    node: "IndexStmt",
    shape: "CREATE [UNIQUE] INDEX [CONCURRENTLY]",
    example:
      "CREATE UNIQUE INDEX CONCURRENTLY invoices_number ON invoices (lower(number)) WHERE number IS NOT NULL;",
  },
  {
    node: "AlterTableStmt",
    shape:
      "ALTER TABLE with only: ADD COLUMN (no serial type, identity or generated column, no volatile default: those rewrite the table), ADD CONSTRAINT (CHECK, UNIQUE, PRIMARY KEY without USING INDEX, NOT NULL, FOREIGN KEY without ON DELETE/ON UPDATE actions), VALIDATE CONSTRAINT, ALTER COLUMN SET NOT NULL",
    example:
      "ALTER TABLE invoices ADD COLUMN due date DEFAULT now(), ADD CONSTRAINT due_after CHECK (due > '2000-01-01') NOT VALID, ALTER COLUMN total SET NOT NULL;",
  },
  {
    node: "InsertStmt",
    shape:
      "INSERT (ON CONFLICT DO NOTHING, not DO UPDATE; not into a system catalog)",
    example:
      "INSERT INTO currencies (code) VALUES ('EUR'), ('USD') ON CONFLICT DO NOTHING;",
  },
  {
    node: "SelectStmt",
    shape: "SELECT (not SELECT INTO), with INSERT and SELECT in its WITH",
    example: "SELECT count(*) FROM invoices WHERE due IS NULL;",
  },
  {
    node: "CommentStmt",
    shape: "COMMENT ON",
    example: "COMMENT ON COLUMN invoices.due IS 'When the invoice is due';",
  },
  {
    node: "CreateSeqStmt",
    shape: "CREATE SEQUENCE",
    example: "CREATE SEQUENCE invoice_numbers START 1000;",
  },
  {
    node: "ViewStmt",
    shape: "CREATE VIEW (not OR REPLACE)",
    example:
      "CREATE VIEW open_invoices AS SELECT * FROM invoices WHERE paid IS NULL;",
  },
  {
    node: "CreateSchemaStmt",
    shape: "CREATE SCHEMA, and the statements on this list inside it",
    example: "CREATE SCHEMA billing CREATE TABLE ledger (id bigint);",
  },
  {
    node: "CreateEnumStmt",
    shape: "CREATE TYPE … AS ENUM",
    example: "CREATE TYPE invoice_state AS ENUM ('open', 'paid');",
  },
  {
    node: "CompositeTypeStmt",
    shape: "CREATE TYPE … AS (…)",
    example: "CREATE TYPE money_amount AS (cents bigint, currency text);",
  },
  {
    node: "CreateDomainStmt",
    shape: "CREATE DOMAIN",
    example: "CREATE DOMAIN cents AS bigint CHECK (VALUE >= 0);",
  },
  {
    node: "AlterEnumStmt",
    shape: "ALTER TYPE … ADD VALUE (not RENAME VALUE)",
    example: "ALTER TYPE invoice_state ADD VALUE IF NOT EXISTS 'void';",
  },
  {
    node: "CreateFunctionStmt",
    shape:
      "CREATE FUNCTION or PROCEDURE (not OR REPLACE) in plpgsql or sql, without SET, SUPPORT or TRANSFORM, whose body holds only what this list allows (no EXECUTE)",
    example:
      "CREATE FUNCTION billing.net(total numeric) RETURNS numeric LANGUAGE plpgsql AS $$ BEGIN RETURN round(total / 1.2, 2); END $$;",
  },
  {
    node: "DoStmt",
    shape: "DO in plpgsql, whose body holds only what this list allows",
    example:
      "DO $$ BEGIN INSERT INTO currencies (code) VALUES ('CHF'); END $$;",
  },
];

/** What a judgement needs beyond the statement. */
export interface JudgeContext {
  /** PostgreSQL's parser, for bodies. */
  parser: PgParser;
  /**
   * Functions created harmless earlier in the deploy, in a schema it created,
   * by their qualified name (`billing.net`); judging adds to it.
   */
  created: Set<string>;
  /**
   * Schemas this deploy created (`CREATE SCHEMA`, not `IF NOT EXISTS`, at a
   * script's top level): no function of theirs can come from elsewhere, so a
   * call of one created harmless there reaches only harmless bodies. Judging
   * adds to it.
   */
  schemas: Set<string>;
  /**
   * The schemas sqitch's registry may be in (writing into one is
   * destructive). Default: `sqitch`.
   */
  registries?: ReadonlySet<string>;
}

/** Schemas PostgreSQL makes or reserves itself: never this deploy's own. */
const SYSTEM_SCHEMA = /^(?:pg_.*|information_schema)$/s;

/** Expression and clause nodes that do nothing but hold other nodes. */
const EXPRESSIONS = new Set([
  "A_ArrayExpr",
  "A_Const",
  "A_Expr",
  "A_Indices",
  "A_Star",
  "Alias",
  "BitString",
  "Boolean",
  "BooleanTest",
  "BoolExpr",
  "CaseExpr",
  "CaseWhen",
  "CoalesceExpr",
  "CollateClause",
  "ColumnDef",
  "CommonTableExpr",
  "Constraint",
  "DefElem",
  "Float",
  "FunctionParameter",
  "GroupingFunc",
  "GroupingSet",
  "IndexElem",
  "Integer",
  "JoinExpr",
  "List",
  "LockingClause",
  "MinMaxExpr",
  "NamedArgExpr",
  "NullTest",
  "ObjectWithArgs",
  "ParamRef",
  "PartitionBoundSpec",
  "PartitionElem",
  "PartitionRangeDatum",
  "PartitionSpec",
  "RangeFunction",
  "RangeSubselect",
  "RangeVar",
  "ResTarget",
  "RoleSpec",
  "RowExpr",
  "SetToDefault",
  "SortBy",
  "SQLValueFunction",
  "String",
  "SubLink",
  "TableLikeClause",
  "TypeCast",
  "TypeName",
  "WindowDef",
  "WithClause",
]);

/** Transaction control that acts on this session's transaction only. */
const TRANSACTION_KINDS = new Set([
  "TRANS_STMT_BEGIN",
  "TRANS_STMT_START",
  "TRANS_STMT_COMMIT",
  "TRANS_STMT_ROLLBACK",
  "TRANS_STMT_SAVEPOINT",
  "TRANS_STMT_RELEASE",
  "TRANS_STMT_ROLLBACK_TO",
]);

/** Settings a deploy may set: they only make it give up sooner. */
const SETTINGS = new Set(["lock_timeout", "statement_timeout"]);

/** Column types that add a sequence default: adding such a column rewrites the table. */
const SERIAL_TYPES = new Set([
  "serial",
  "serial2",
  "serial4",
  "serial8",
  "smallserial",
  "bigserial",
]);

/** Schemas of the system catalogs (a `pg_` table without a schema is found there first). */
const SYSTEM_SCHEMAS = new Set([
  "pg_catalog",
  "pg_toast",
  "information_schema",
]);

/** Foreign-key actions by their parser code. */
const FK_ACTIONS: Record<string, string> = {
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

/** Where sqitch keeps its registry unless the configuration says otherwise. */
const DEFAULT_REGISTRIES: ReadonlySet<string> = new Set(["sqitch"]);

/** The schema of a `RangeVar`. */
function schemaOf(rangeVar: unknown): unknown {
  return (rangeVar as Fields | undefined)?.schemaname;
}

/** The schema of a qualified name (`["s", "f"]`), none for an unqualified one. */
function qualifierOf(list: unknown): string | undefined {
  const names = namesOf(list);
  return names.length > 1 ? names[names.length - 2] : undefined;
}

/** Every name (`String` node) in a part of a tree, however deep. */
function namesIn(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  const name = stringOf(value);
  if (name !== undefined) return [name];
  return Object.values(value).flatMap(namesIn);
}

/** The schema of every table a part of a tree names (`RangeVar`s), however deep. */
function tableSchemasIn(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  const node = nodeOf(value);
  if (node?.[0] === "RangeVar") {
    const schema = schemaOf(node[1]);
    return typeof schema === "string" ? [schema] : [];
  }
  return Object.values(value).flatMap(tableSchemasIn);
}

/** The most levels of bodies inside bodies followed. */
const MAX_DEPTH = 8;

/** Judges one statement and everything inside it, collecting refusals. */
class Judge {
  readonly refusals: string[] = [];
  /** Above 0 while judging a default that must not be volatile. */
  #steady = 0;
  /** The relations in reach of what is being judged. */
  scope: Scope = NO_RELATIONS;

  constructor(
    readonly context: JudgeContext,
    /** The statement's own text (for a body the parser reads again). */
    readonly text: string,
    readonly depth: number,
  ) {}

  refuse(why: string): void {
    this.refusals.push(why);
  }

  /** Judges any part of a tree: lists, nodes, and structs field by field. */
  walk(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.walk(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const node = nodeOf(value);
    if (node === undefined) {
      this.fields(value as Fields);
      return;
    }
    const [type, fields] = node;
    if (type === "FuncCall") this.call(fields);
    else if (type === "ColumnRef") this.columnRef(fields);
    else if (type === "A_Indirection") this.indirection(fields);
    else if (Object.hasOwn(SHAPES, type)) SHAPES[type](fields, this);
    else if (EXPRESSIONS.has(type)) this.fields(fields);
    else if (type.endsWith("Stmt")) this.refuse(statementKind(type, fields));
    else this.refuse(`an expression chant-wave does not read (${type})`);
  }

  /** Judges every field of a node but those named. */
  fields(fields: Fields, ...skip: string[]): void {
    for (const [key, value] of Object.entries(fields)) {
      if (!skip.includes(key)) this.walk(value);
    }
  }

  /** Runs `judge` in the scope given, then goes back to this one. */
  within(scope: Scope, judge: () => void): void {
    const around = this.scope;
    this.scope = scope;
    try {
      judge();
    } finally {
      this.scope = around;
    }
  }

  /** Judges a part in the scope given. */
  walkIn(value: unknown, scope: Scope): void {
    this.within(scope, () => this.walk(value));
  }

  /** Judges a part in the scope of a statement on `table` (its expressions see it). */
  onTable(table: unknown, judge: () => void): void {
    this.within(tableScope(this.scope, table), judge);
  }

  /** Refuses a statement that writes into sqitch's registry (`schema` one of its schemas). */
  registry(what: string, schema: unknown): void {
    const registries = this.context.registries ?? DEFAULT_REGISTRIES;
    if (
      typeof schema === "string" &&
      [...registries].some((r) => r.toLowerCase() === schema.toLowerCase())
    ) {
      this.refuse(
        `${what} in sqitch's registry (schema ${JSON.stringify(schema)})`,
      );
    }
  }

  /** A call: of a harmless built-in, or of a function created harmless in this deploy. */
  call(fields: Fields): void {
    this.callOf(namesOf(fields.funcname));
    this.fields(fields, "funcname");
  }

  /** Refuses a call of `name` unless it is harmless (and steady where it must be). */
  callOf(name: readonly string[], written = ""): void {
    const shown = `${name.join(".")}()${written}`;
    const builtin = harmlessFunction(name);
    const created = name.length > 1 && this.context.created.has(name.join("."));
    if (builtin === undefined && !created) {
      this.refuse(`a call of ${shown}`);
    } else if (this.#steady > 0 && (builtin?.volatile ?? true)) {
      this.refuse(
        `a default calling ${shown}, which is volatile (it rewrites the table)`,
      );
    }
  }

  /**
   * `q.c` (or `s.t.c`): column `c` of a relation in reach, else possibly the
   * call `c(q)` (`q` a SQL function's parameter, a PL/pgSQL variable), which
   * must then be of a harmless function.
   */
  columnRef(fields: Fields): void {
    const parts = Array.isArray(fields.fields) ? fields.fields : [];
    const names = parts.map(stringOf);
    const last = names[names.length - 1];
    if (names.length < 2 || last === undefined) return;
    const qualifier = names.slice(0, -1);
    if (qualifier.includes(undefined)) {
      this.refuse(`an expression chant-wave does not read (ColumnRef)`);
      return;
    }
    if (this.scope.reaches(qualifier as string[])) return;
    const written = names.join(".");
    this.callOf(
      [last],
      ` written as a column, ${written.slice(0, 60)} (${
        JSON.stringify(qualifier.join(".").slice(0, 40))
      } names no table in reach)`,
    );
  }

  /** `(value).f`: a field of a value is the call `f(value)` unless the value has a field `f`. */
  indirection(fields: Fields): void {
    this.walk(fields.arg);
    for (
      const item of Array.isArray(fields.indirection) ? fields.indirection : []
    ) {
      const field = stringOf(item);
      if (field === undefined) {
        this.walk(item);
      } else {
        this.callOf([field], ` written as a field, (…).${field.slice(0, 40)}`);
      }
    }
  }

  /** Judges an expression that must not call anything volatile. */
  steady(value: unknown): void {
    this.#steady++;
    try {
      this.walk(value);
    } finally {
      this.#steady--;
    }
  }

  /** The statement rules, for a body inside this statement. */
  reader(): BodyReader {
    const { context, depth } = this;
    return {
      parser: context.parser,
      statements: (text) =>
        depth >= MAX_DEPTH
          ? [`bodies nested more than ${MAX_DEPTH} deep`]
          : textRefusals(text, context, depth + 1),
      node: (statement) => {
        const judge = new Judge(context, "", depth + 1);
        judge.walk(statement);
        return judge.refusals;
      },
    };
  }
}

/** The conditions of each shape on the list, by node type. */
const SHAPES: Record<string, (fields: Fields, judge: Judge) => void> = {
  TransactionStmt(fields, judge) {
    if (!TRANSACTION_KINDS.has(String(fields.kind))) {
      judge.refuse(
        wordsOf(String(fields.kind).replace(/^TRANS_STMT_/, "")) +
          (fields.kind === "TRANS_STMT_PREPARE" ? " TRANSACTION" : ""),
      );
    }
  },
  VariableSetStmt(fields, judge) {
    const constants = Array.isArray(fields.args) &&
      fields.args.every((arg) => nodeOf(arg)?.[0] === "A_Const");
    if (
      fields.kind !== "VAR_SET_VALUE" || !SETTINGS.has(String(fields.name)) ||
      !constants
    ) {
      judge.refuse(
        `${
          statementKind("VariableSetStmt", fields)
        } (a setting changes how later statements run)`,
      );
    }
  },
  CreateStmt(fields, judge) {
    judge.registry("CREATE TABLE", schemaOf(fields.relation));
    for (
      const parent of Array.isArray(fields.inhRelations)
        ? fields.inhRelations
        : []
    ) {
      judge.registry(
        "CREATE TABLE … PARTITION OF/INHERITS",
        schemaOf(nodeOf(parent)?.[1]),
      );
    }
    judge.onTable(fields.relation, () => judge.fields(fields));
  },
  IndexStmt(fields, judge) {
    judge.registry("CREATE INDEX", schemaOf(fields.relation));
    judge.onTable(fields.relation, () => judge.fields(fields));
  },
  AlterTableStmt(fields, judge) {
    if (fields.objtype !== "OBJECT_TABLE") {
      judge.refuse(statementKind("AlterTableStmt", fields));
      return;
    }
    judge.registry("ALTER TABLE", schemaOf(fields.relation));
    judge.onTable(fields.relation, () => {
      judge.fields(fields, "cmds");
      for (const cmd of Array.isArray(fields.cmds) ? fields.cmds : []) {
        const node = nodeOf(cmd);
        if (node?.[0] !== "AlterTableCmd") judge.walk(cmd);
        else alterTableCommand(node[1], judge);
      }
    });
  },
  InsertStmt(fields, judge) {
    const conflict = fields.onConflictClause as Fields | undefined;
    if (conflict?.action === "ONCONFLICT_UPDATE") {
      judge.refuse("INSERT … ON CONFLICT DO UPDATE");
    }
    const table = fields.relation as Fields | undefined;
    const schema = table?.schemaname;
    if (
      (typeof schema === "string" && SYSTEM_SCHEMAS.has(schema)) ||
      (schema === undefined && String(table?.relname).startsWith("pg_"))
    ) {
      judge.refuse("INSERT into a system catalog");
    }
    judge.registry("INSERT", schema);
    visitInsert(
      fields,
      judge.scope,
      (part, scope) => judge.walkIn(part, scope),
    );
  },
  SelectStmt(fields, judge) {
    const { intoClause, ...query } = fields;
    if (intoClause !== undefined) judge.refuse("SELECT INTO");
    visitSelect(query, judge.scope, (part, scope) => judge.walkIn(part, scope));
  },
  CommentStmt(fields, judge) {
    for (const name of namesIn(fields.object)) {
      judge.registry("COMMENT ON", name);
    }
    judge.fields(fields);
  },
  CreateSeqStmt(fields, judge) {
    judge.registry("CREATE SEQUENCE", schemaOf(fields.sequence));
    judge.fields(fields);
  },
  ViewStmt(fields, judge) {
    if (fields.replace) judge.refuse("CREATE OR REPLACE VIEW");
    judge.registry("CREATE VIEW", schemaOf(fields.view));
    for (const schema of new Set(tableSchemasIn(fields.query))) {
      judge.registry(
        "CREATE VIEW over a table (an INSERT writes through it)",
        schema,
      );
    }
    judge.fields(fields);
  },
  CreateSchemaStmt(fields, judge) {
    judge.registry("CREATE SCHEMA", fields.schemaname);
    judge.fields(fields);
    // Fails when the schema exists, which stops the script: only a top-level
    // one (a body may catch the failure) makes a schema this deploy's own.
    // A name PostgreSQL keeps for itself (`pg_…`, information_schema) never
    // does, whatever runs between.
    const name = fields.schemaname;
    if (
      judge.depth === 0 && !fields.if_not_exists && typeof name === "string" &&
      !SYSTEM_SCHEMA.test(name)
    ) judge.context.schemas.add(name);
  },
  CreateEnumStmt(fields, judge) {
    judge.registry("CREATE TYPE", qualifierOf(fields.typeName));
    judge.fields(fields);
  },
  CompositeTypeStmt(fields, judge) {
    judge.registry("CREATE TYPE", schemaOf(fields.typevar));
    judge.fields(fields);
  },
  CreateDomainStmt(fields, judge) {
    judge.registry("CREATE DOMAIN", qualifierOf(fields.domainname));
    judge.fields(fields);
  },
  AlterEnumStmt(fields, judge) {
    if (fields.oldVal !== undefined) judge.refuse("ALTER TYPE … RENAME VALUE");
    judge.registry("ALTER TYPE", qualifierOf(fields.typeName));
  },
  CreateFunctionStmt: createFunction,
  DoStmt(fields, judge) {
    const options = optionsOf(fields.args);
    const language = stringOf(options.get("language")) ?? "plpgsql";
    if (language !== "plpgsql") {
      judge.refuse(`DO in language ${JSON.stringify(language.slice(0, 40))}`);
      return;
    }
    for (
      const why of plpgsqlRefusals(judge.text, "a DO block", judge.reader())
    ) judge.refuse(why);
  },
  ReturnStmt: (fields, judge) => judge.fields(fields),
};

/** `CREATE FUNCTION` and `CREATE PROCEDURE`: not replacing, plpgsql or sql, body followed. */
function createFunction(fields: Fields, judge: Judge): void {
  const kind = statementKind("CreateFunctionStmt", fields);
  const before = judge.refusals.length;
  if (fields.replace) judge.refuse(kind);
  const options = optionsOf(fields.options);
  for (const option of ["set", "support", "transform"]) {
    if (options.has(option)) judge.refuse(`${kind} … ${option.toUpperCase()}`);
  }
  judge.registry(kind, qualifierOf(fields.funcname));
  judge.fields(fields, "options", "sql_body", "funcname");
  const language = stringOf(options.get("language")) ??
    (fields.sql_body === undefined ? undefined : "sql");
  const parts = namesOf(fields.funcname);
  const name = parts.join(".");
  const who = `${fields.is_procedure ? "procedure" : "function"} ${name}`;
  const reader = judge.reader();
  let refusals: string[];
  if (language === "plpgsql") {
    refusals = plpgsqlRefusals(judge.text, who, reader);
  } else if (language === "sql") {
    const as = options.get("as");
    const list = nodeOf(as)?.[0] === "List"
      ? (nodeOf(as)![1].items as unknown[])
      : [as];
    refusals = sqlBodyRefusals(
      fields.sql_body,
      stringOf(list?.[0]),
      who,
      reader,
    );
  } else {
    refusals = [
      `${kind} in language ${JSON.stringify(String(language).slice(0, 40))}`,
    ];
  }
  for (const why of refusals) judge.refuse(why);
  // PostgreSQL picks among a name's functions by their arguments: only in a
  // schema this deploy created are they all its own, each judged harmless.
  if (
    judge.refusals.length === before && parts.length === 2 &&
    judge.context.schemas.has(parts[0])
  ) {
    judge.context.created.add(name);
  }
}

/** One command of an `ALTER TABLE`: only those on the list. */
function alterTableCommand(command: Fields, judge: Judge): void {
  const subtype = String(command.subtype);
  const def = nodeOf(command.def);
  if (subtype === "AT_AddColumn" && def?.[0] === "ColumnDef") {
    addColumn(def[1], judge);
  } else if (subtype === "AT_AddConstraint" && def?.[0] === "Constraint") {
    addConstraint(def[1], judge);
  } else if (
    subtype !== "AT_ValidateConstraint" && subtype !== "AT_SetNotNull"
  ) {
    judge.refuse(`ALTER TABLE … ${wordsOf(subtype.replace(/^AT_/, ""))}`);
  }
}

/** `ADD COLUMN`: nothing that rewrites the table. */
function addColumn(column: Fields, judge: Judge): void {
  const type = namesOf((column.typeName as Fields | undefined)?.names);
  if (SERIAL_TYPES.has(type[type.length - 1] ?? "")) {
    judge.refuse(
      `ALTER TABLE … ADD COLUMN of type ${
        type.join(".")
      } (it rewrites the table)`,
    );
  }
  judge.fields(column, "constraints");
  for (
    const item of Array.isArray(column.constraints) ? column.constraints : []
  ) {
    const node = nodeOf(item);
    if (node?.[0] !== "Constraint") {
      judge.walk(item);
      continue;
    }
    const constraint = node[1];
    if (
      constraint.contype === "CONSTR_IDENTITY" ||
      constraint.contype === "CONSTR_GENERATED"
    ) {
      judge.refuse(
        `ALTER TABLE … ADD COLUMN … ${
          wordsOf(String(constraint.contype).slice(7))
        } (it rewrites the table)`,
      );
    } else if (constraint.contype === "CONSTR_DEFAULT") {
      judge.fields(constraint, "raw_expr");
      judge.steady(constraint.raw_expr);
    } else if (constraint.contype === "CONSTR_FOREIGN") {
      foreignKey(constraint, judge);
    } else judge.fields(constraint);
  }
}

/** `ADD CONSTRAINT`: a check, a key or not-null; never an index renamed into a key. */
function addConstraint(constraint: Fields, judge: Judge): void {
  const type = String(constraint.contype);
  if (type === "CONSTR_FOREIGN") foreignKey(constraint, judge);
  else if (
    (type === "CONSTR_PRIMARY" || type === "CONSTR_UNIQUE") &&
    constraint.indexname !== undefined
  ) {
    judge.refuse(
      `ALTER TABLE … ADD ${
        wordsOf(type.slice(7))
      } USING INDEX (it renames the index)`,
    );
  } else if (
    !["CONSTR_CHECK", "CONSTR_PRIMARY", "CONSTR_UNIQUE", "CONSTR_NOTNULL"]
      .includes(type)
  ) {
    judge.refuse(`ALTER TABLE … ADD ${wordsOf(type.slice(7))}`);
  } else judge.fields(constraint);
}

/** A foreign key added to a table that has rows: no action that deletes or overwrites them. */
function foreignKey(constraint: Fields, judge: Judge): void {
  for (
    const [field, on] of [["fk_del_action", "DELETE"], [
      "fk_upd_action",
      "UPDATE",
    ]]
  ) {
    const action = FK_ACTIONS[String(constraint[field])];
    if (action !== undefined) {
      judge.refuse(`ALTER TABLE … FOREIGN KEY … ON ${on} ${action}`);
    }
  }
  judge.fields(constraint);
}

/**
 * Judges one parsed statement against the list.
 * @param statement The statement's node.
 * @param text The statement's own text.
 * @param context The parser and the functions created so far (added to).
 * @returns Why it is not on the list: `DELETE`, `a call of set_config()`,
 *   `INSERT … ON CONFLICT DO UPDATE`; none when it is.
 * @example
 * ```ts
 * statementRefusals({ TruncateStmt: {} }, "TRUNCATE t", context); // ["TRUNCATE"]
 * ```
 */
export function statementRefusals(
  statement: PgNode,
  text: string,
  context: JudgeContext,
): string[] {
  const judge = new Judge(context, text, 0);
  judge.walk(statement);
  return judge.refusals;
}

/**
 * Judges SQL text of whole statements (a body), each against the list.
 * @param text The statements.
 * @param context The parser and the functions created so far.
 * @param depth How many bodies deep (0 for a script).
 * @returns Why they are not on the list; none when all are.
 */
function textRefusals(
  text: string,
  context: JudgeContext,
  depth: number,
): string[] {
  const parsed = context.parser.parse(text);
  if (!parsed.ok) {
    return [
      `SQL PostgreSQL's parser cannot read (${parsed.error.slice(0, 80)})`,
    ];
  }
  const bytes = new TextEncoder().encode(text);
  return parsed.value.flatMap((raw) => {
    const own = decodeUtf8(
      bytes.subarray(
        raw.location,
        raw.length === undefined ? undefined : raw.location + raw.length,
      ),
    );
    const judge = new Judge(context, own, depth);
    judge.walk(raw.stmt);
    return judge.refusals;
  });
}
