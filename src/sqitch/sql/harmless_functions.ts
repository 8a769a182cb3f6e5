/**
 * The built-in functions a statement on the allow-list may call: PostgreSQL
 * functions that compute a value and neither read files, run SQL, change a
 * setting, signal a backend nor write anything but a sequence's next value.
 * Each is named as the parser names a call (lower case, unqualified or under
 * `pg_catalog`), with whether it is volatile (a default that calls it rewrites
 * the table when a column is added). A call of anything else (`set_config`,
 * `dblink_exec`, `lo_unlink`, `pg_terminate_backend`, a function of the
 * database's own) is not on the list. Pure data.
 * @module
 */

/** Volatile built-ins: each call may answer differently. */
const VOLATILE = [
  "clock_timestamp",
  "gen_random_uuid",
  "nextval",
  "random",
  "random_normal",
  "timeofday",
  "uuidv4",
  "uuidv7",
] as const;

/** Built-ins that answer the same within a statement or for the same arguments. */
const STEADY = [
  // aggregates and window functions
  "array_agg",
  "avg",
  "bool_and",
  "bool_or",
  "count",
  "cume_dist",
  "dense_rank",
  "every",
  "first_value",
  "json_agg",
  "json_object_agg",
  "jsonb_agg",
  "jsonb_object_agg",
  "lag",
  "last_value",
  "lead",
  "max",
  "min",
  "nth_value",
  "ntile",
  "percent_rank",
  "rank",
  "row_number",
  "string_agg",
  "sum",
  // text
  "ascii",
  "bit_length",
  "btrim",
  "char_length",
  "character_length",
  "chr",
  "concat",
  "concat_ws",
  "decode",
  "encode",
  "format",
  "initcap",
  "is_normalized",
  "left",
  "length",
  "lower",
  "lpad",
  "ltrim",
  "md5",
  "normalize",
  "octet_length",
  "overlay",
  "position",
  "quote_ident",
  "quote_literal",
  "quote_nullable",
  "regexp_count",
  "regexp_like",
  "regexp_match",
  "regexp_matches",
  "regexp_replace",
  "regexp_split_to_array",
  "regexp_substr",
  "repeat",
  "replace",
  "reverse",
  "right",
  "rpad",
  "rtrim",
  "sha256",
  "sha512",
  "similar_escape",
  "similar_to_escape",
  "split_part",
  "starts_with",
  "string_to_array",
  "strpos",
  "substr",
  "substring",
  "to_hex",
  "translate",
  "upper",
  // numbers
  "abs",
  "ceil",
  "ceiling",
  "div",
  "exp",
  "floor",
  "ln",
  "log",
  "mod",
  "power",
  "round",
  "sign",
  "sqrt",
  "trunc",
  "width_bucket",
  // dates and times
  "age",
  "date_bin",
  "date_part",
  "date_trunc",
  "extract",
  "isfinite",
  "justify_days",
  "justify_hours",
  "justify_interval",
  "make_date",
  "make_interval",
  "make_time",
  "make_timestamp",
  "make_timestamptz",
  "now",
  "statement_timestamp",
  "timezone",
  "to_char",
  "to_date",
  "to_number",
  "to_timestamp",
  "transaction_timestamp",
  // JSON
  "array_to_json",
  "json_array_length",
  "json_build_array",
  "json_build_object",
  "json_extract_path",
  "json_extract_path_text",
  "json_typeof",
  "jsonb_array_elements",
  "jsonb_array_elements_text",
  "jsonb_array_length",
  "jsonb_build_array",
  "jsonb_build_object",
  "jsonb_each",
  "jsonb_each_text",
  "jsonb_extract_path",
  "jsonb_extract_path_text",
  "jsonb_insert",
  "jsonb_object_keys",
  "jsonb_pretty",
  "jsonb_set",
  "jsonb_strip_nulls",
  "jsonb_typeof",
  "row_to_json",
  "to_json",
  "to_jsonb",
  // arrays and sets
  "array_append",
  "array_cat",
  "array_dims",
  "array_length",
  "array_lower",
  "array_position",
  "array_positions",
  "array_prepend",
  "array_remove",
  "array_replace",
  "array_to_string",
  "array_upper",
  "cardinality",
  "generate_series",
  "generate_subscripts",
  "unnest",
  // text search
  "plainto_tsquery",
  "setweight",
  "to_tsquery",
  "to_tsvector",
  "ts_rank",
  // values and sequences
  "currval",
  "current_setting",
  "lastval",
  "num_nonnulls",
  "num_nulls",
  "pg_typeof",
] as const;

/** Every built-in on the list, each with whether it is volatile. */
export const HARMLESS_FUNCTIONS: ReadonlyMap<string, boolean> = new Map([
  ...VOLATILE.map((name) => [name, true] as const),
  ...STEADY.map((name) => [name, false] as const),
]);

/**
 * Whether a call of `name` is of a built-in on the list, and whether it is
 * volatile.
 * @param name The function's name as the parser gives it (`["lower"]`,
 *   `["pg_catalog", "btrim"]`).
 * @returns `{ volatile }` for a built-in on the list, else undefined.
 * @example
 * ```ts
 * harmlessFunction(["pg_catalog", "btrim"]); // { volatile: false }
 * harmlessFunction(["set_config"]); // undefined
 * ```
 */
export function harmlessFunction(
  name: readonly string[],
): { volatile: boolean } | undefined {
  const [schema, fn] = name.length === 2 ? name : [undefined, name[0]];
  if (name.length > 2 || (schema !== undefined && schema !== "pg_catalog")) {
    return undefined;
  }
  const volatile = HARMLESS_FUNCTIONS.get(fn);
  return volatile === undefined ? undefined : { volatile };
}
