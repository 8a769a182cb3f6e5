/**
 * How findings name a statement the parser made: its SQL words (`DROP TABLE`,
 * `ALTER TABLE … DROP COLUMN`, `CREATE TRIGGER`) from its node type and the
 * fields that say which object it is about. It judges nothing. Pure.
 * @module
 */

/** Node types whose words the generic rule gets wrong. */
const NODE_WORDS: Record<string, string> = {
  AlterDatabaseRefreshCollStmt: "ALTER DATABASE … REFRESH COLLATION VERSION",
  AlterEventTrigStmt: "ALTER EVENT TRIGGER",
  AlterExtensionContentsStmt: "ALTER EXTENSION … ADD/DROP",
  AlterFdwStmt: "ALTER FOREIGN DATA WRAPPER",
  AlterForeignServerStmt: "ALTER SERVER",
  AlterObjectDependsStmt: "ALTER … DEPENDS ON EXTENSION",
  AlterOpFamilyStmt: "ALTER OPERATOR FAMILY",
  AlterSeqStmt: "ALTER SEQUENCE",
  AlterStatsStmt: "ALTER STATISTICS",
  AlterTableMoveAllStmt: "ALTER … ALL IN TABLESPACE",
  AlterTableSpaceOptionsStmt: "ALTER TABLESPACE",
  AlterTSConfigurationStmt: "ALTER TEXT SEARCH CONFIGURATION",
  AlterTSDictionaryStmt: "ALTER TEXT SEARCH DICTIONARY",
  CheckPointStmt: "CHECKPOINT",
  ClosePortalStmt: "CLOSE",
  ConstraintsSetStmt: "SET CONSTRAINTS",
  CopyStmt: "COPY",
  CreateAmStmt: "CREATE ACCESS METHOD",
  CreateEventTrigStmt: "CREATE EVENT TRIGGER",
  CreateFdwStmt: "CREATE FOREIGN DATA WRAPPER",
  CreateForeignServerStmt: "CREATE SERVER",
  CreateOpClassStmt: "CREATE OPERATOR CLASS",
  CreateOpFamilyStmt: "CREATE OPERATOR FAMILY",
  CreatePLangStmt: "CREATE LANGUAGE",
  CreateStatsStmt: "CREATE STATISTICS",
  CreateTableAsStmt: "CREATE TABLE AS",
  CreateTableSpaceStmt: "CREATE TABLESPACE",
  CreatedbStmt: "CREATE DATABASE",
  DeleteStmt: "DELETE",
  DropTableSpaceStmt: "DROP TABLESPACE",
  DropdbStmt: "DROP DATABASE",
  ExplainStmt: "EXPLAIN",
  MergeStmt: "MERGE",
  RefreshMatViewStmt: "REFRESH MATERIALIZED VIEW",
  RuleStmt: "CREATE RULE",
  SecLabelStmt: "SECURITY LABEL",
  TruncateStmt: "TRUNCATE",
  UpdateStmt: "UPDATE",
  VacuumStmt: "VACUUM",
  VariableShowStmt: "SHOW",
};

/** Object types whose words the generic rule gets wrong. */
const OBJECT_WORDS: Record<string, string> = {
  OBJECT_MATVIEW: "MATERIALIZED VIEW",
  OBJECT_FDW: "FOREIGN DATA WRAPPER",
  OBJECT_TSCONFIGURATION: "TEXT SEARCH CONFIGURATION",
  OBJECT_TSDICTIONARY: "TEXT SEARCH DICTIONARY",
  OBJECT_TSPARSER: "TEXT SEARCH PARSER",
  OBJECT_TSTEMPLATE: "TEXT SEARCH TEMPLATE",
};

/**
 * Upper-case words of a PascalCase or snake-case name.
 * @param name `AlterDatabaseSet`, `DropColumn`, `FOREIGN_TABLE`.
 * @returns `ALTER DATABASE SET`, `DROP COLUMN`, `FOREIGN TABLE`.
 * @example
 * ```ts
 * wordsOf("CreatePolicy"); // "CREATE POLICY"
 * ```
 */
export function wordsOf(name: string): string {
  return name.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2")
    .toUpperCase().trim();
}

/**
 * The SQL words of an object type of the parser.
 * @param objectType `OBJECT_TABLE`, `OBJECT_MATVIEW`, or anything else.
 * @returns `TABLE`, `MATERIALIZED VIEW`; empty for what is not an object type.
 */
export function objectWords(objectType: unknown): string {
  if (typeof objectType !== "string" || !objectType.startsWith("OBJECT_")) {
    return "";
  }
  return OBJECT_WORDS[objectType] ?? wordsOf(objectType.slice(7));
}

/**
 * Names a statement node as SQL.
 * @param type Its node type (`DropStmt`).
 * @param fields Its fields.
 * @returns Its words: `DROP TABLE`, `ALTER INDEX … RENAME`, `GRANT`, `CREATE POLICY`.
 * @example
 * ```ts
 * statementKind("DropStmt", { removeType: "OBJECT_TABLE" }); // "DROP TABLE"
 * ```
 */
export function statementKind(
  type: string,
  fields: Record<string, unknown>,
): string {
  switch (type) {
    case "DropStmt":
      return `DROP ${objectWords(fields.removeType)}`.trim();
    case "AlterTableStmt":
      return `ALTER ${objectWords(fields.objtype)}`.trim();
    case "RenameStmt": {
      const column = fields.renameType === "OBJECT_COLUMN";
      const object = objectWords(
        column ? fields.relationType : fields.renameType,
      );
      return `ALTER ${object} … RENAME${column ? " COLUMN" : ""}`;
    }
    case "DefineStmt": {
      const create = fields.replace ? "CREATE OR REPLACE" : "CREATE";
      return `${create} ${objectWords(fields.kind)}`;
    }
    case "AlterObjectSchemaStmt":
      return `ALTER ${objectWords(fields.objectType)} … SET SCHEMA`;
    case "AlterOwnerStmt":
      return `ALTER ${objectWords(fields.objectType)} … OWNER TO`;
    case "GrantStmt":
      return fields.is_grant ? "GRANT" : "REVOKE";
    case "CreateTrigStmt":
      return fields.replace ? "CREATE OR REPLACE TRIGGER" : "CREATE TRIGGER";
    case "CreateFunctionStmt": {
      const what = fields.is_procedure ? "PROCEDURE" : "FUNCTION";
      return fields.replace ? `CREATE OR REPLACE ${what}` : `CREATE ${what}`;
    }
    case "VariableSetStmt":
      return settingKind(fields);
  }
  return NODE_WORDS[type] ?? wordsOf(type.replace(/Stmt$/, ""));
}

/** `SET <name>`, `RESET <name>`, `RESET ALL`, `SET <name> TO DEFAULT`. */
function settingKind(fields: Record<string, unknown>): string {
  const name = typeof fields.name === "string" ? fields.name.slice(0, 60) : "";
  switch (fields.kind) {
    case "VAR_RESET":
      return `RESET ${name}`;
    case "VAR_RESET_ALL":
      return "RESET ALL";
    case "VAR_SET_DEFAULT":
      return `SET ${name} TO DEFAULT`;
    default:
      return `SET ${name}`.trim();
  }
}
