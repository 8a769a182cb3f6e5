/**
 * What a database has deployed, asked of sqitch's registry directly: the one
 * psql command that gives the answer `sqitch status` gives (the id of the
 * project's last change, or nothing deployed), and the reading of its reply.
 * sqitch's PostgreSQL registry is plain tables in a schema of the database
 * (`sqitch` unless the configuration names another); `status` takes the
 * project's change committed last. The command connects the way sqitch's own
 * psql does for the deploy (the same `--dbname` connection string, built from
 * the same URI), reads in a read-only transaction, and answers one line of
 * JSON, so no value the database holds (a change name or a note with a tab or
 * a newline) can pass for another field. It answers `unknown` where the
 * registry is not the one this was written against (registry release 1.1, the
 * `changes`, `tags` and `releases` tables), and the caller then asks `sqitch
 * status` itself; so does a URI or a registry name outside the plain shapes
 * read here. It decides nothing about the plan. Pure.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { parseJson } from "../input/parse_json.ts";
import { quote } from "../quote.ts";
import { URI_PARAMETERS } from "./target_uri.ts";

/** The registry release this reads (sqitch 1.x's `registry_release`). */
export const REGISTRY_RELEASE = "1.1";

/**
 * The psql script: in a read-only transaction, whether the registry's tables
 * are there and of the release known, then one line of JSON:
 * `{"registry":"none"}` when there is no `changes` relation (sqitch: "No
 * changes deployed"), `{"registry":"unknown"}` when the registry is another,
 * or `{"registry":"known","change":<id or null>}`. Its variables: `registry`
 * (the schema) and `project`.
 */
export const REGISTRY_SCRIPT = `BEGIN TRANSACTION READ ONLY;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.=) 3 AS tables,
       pg_catalog.to_regclass(pg_catalog.format('%I.changes', :'registry')) IS NULL AS none
  FROM pg_catalog.pg_tables
 WHERE schemaname OPERATOR(pg_catalog.=) :'registry'
   AND tablename OPERATOR(pg_catalog.=) ANY ('{changes,tags,releases}'::pg_catalog.text[]) \\gset cw_
\\set cw_known false
\\if :cw_tables
SELECT pg_catalog.max(version)::pg_catalog.text OPERATOR(pg_catalog.=) '${REGISTRY_RELEASE}' AS known
  FROM :"registry".releases \\gset cw_
\\endif
\\if :cw_known
SELECT pg_catalog.json_build_object('registry', 'known', 'change', (
  SELECT change_id FROM :"registry".changes
   WHERE project OPERATOR(pg_catalog.=) :'project'
   ORDER BY committed_at DESC LIMIT 1))::pg_catalog.text;
\\elif :cw_none
SELECT '{"registry":"none"}';
\\else
SELECT '{"registry":"unknown"}';
\\endif
COMMIT;
`;

/** The psql words and environment that ask one database, before the script's file. */
export interface RegistryQuery {
  /** After the client: `--dbname`, the settings, the variables. */
  args: string[];
  /** The password sqitch would hand psql in `PGPASSWORD`, if the URI has one. */
  password?: string;
}

/** A part of a URI read here: plain characters only, no escape. */
const PLAIN = /^[A-Za-z0-9_.\-]+$/;
/** A registry schema read here: an identifier PostgreSQL keeps as written. */
const REGISTRY = /^[a-z_][a-z0-9_]*$/;

/**
 * The psql command that asks a database what it has deployed, or undefined
 * when the target is not of a shape read here (then `sqitch status` answers).
 * The connection string is sqitch's own for psql: `user`, `dbname`, `host`,
 * `port`, then the URI's parameters by name.
 * @param uri The target's URI, checked (`target_uri.ts`).
 * @param registry The registry schema the configuration gives the target.
 * @param project The plan's project.
 * @param env The run's environment (`SQITCH_USERNAME`, `SQITCH_PASSWORD`
 *   override the URI in sqitch: then sqitch answers).
 * @returns The command, or undefined.
 * @example
 * ```ts
 * registryQuery("db:pg://ann@db.internal:5433/app", "sqitch", "shop", {})?.args.slice(0, 2);
 * // ["--dbname", "user=ann dbname=app host=db.internal port=5433"]
 * ```
 */
export function registryQuery(
  uri: string,
  registry: string,
  project: string,
  env: Readonly<Record<string, string | undefined>>,
): RegistryQuery | undefined {
  if (env.SQITCH_USERNAME || env.SQITCH_PASSWORD) return undefined;
  if (!REGISTRY.test(registry)) return undefined;
  const match =
    /^db:(?:pg|postgres|postgresql):(?:\/\/(?:([^:@/?]*)(?::([^@/?]*))?@)?([^:@/?]*)(?::([0-9]*))?\/)?([^?]*)(?:\?(.*))?$/
      .exec(uri);
  if (match === null) return undefined;
  const [, user, password, host, port, dbname, query] = match;
  const parts: [string, string | undefined][] = [
    ["user", user],
    ["dbname", dbname],
    ["host", host],
    ["port", port],
  ];
  const names = new Set<string>();
  const params: [string, string][] = [];
  for (const pair of query === undefined ? [] : query.split("&")) {
    const [name, value, extra] = pair.split("=");
    if (extra !== undefined || !URI_PARAMETERS.has(name) || names.has(name)) {
      return undefined;
    }
    names.add(name);
    params.push([name, value ?? ""]);
  }
  params.sort(([a], [b]) => a < b ? -1 : 1);
  const conninfo: string[] = [];
  for (const [name, value] of [...parts, ...params]) {
    if (value === undefined || value === "") continue;
    if (!PLAIN.test(value) || value.includes("xn--")) return undefined;
    conninfo.push(`${name}=${value}`);
  }
  let decoded: string | undefined;
  if (password !== undefined && password !== "") {
    try {
      decoded = decodeURIComponent(password);
    } catch {
      return undefined;
    }
  }
  return {
    args: [
      ...(conninfo.length ? ["--dbname", conninfo.join(" ")] : []),
      "--quiet",
      "--no-psqlrc",
      "--no-align",
      "--tuples-only",
      "--set=ON_ERROR_STOP=1",
      `--set=registry=${registry}`,
      `--set=project=${project}`,
    ],
    ...(decoded === undefined ? {} : { password: decoded }),
  };
}

/** What the registry answered. */
export type RegistryAnswer =
  | { registry: "none" }
  | { registry: "unknown" }
  | { registry: "known"; change: string | null };

/** The most bytes of a reply read. */
export const MAX_REPLY_BYTES = 4096;

/**
 * Reads the reply of {@linkcode REGISTRY_SCRIPT}: exactly one line of JSON.
 * @param stdout What psql printed.
 * @returns The answer.
 * @throws {ShapeError} On anything else: `answered "…", not one line of
 *   {"registry": …}`.
 */
export function registryAnswer(stdout: string): RegistryAnswer {
  const fail = (): never => {
    throw new ShapeError(
      "",
      `answered ${
        quote(stdout.slice(0, 200))
      }, not one line of {"registry": …}`,
    );
  };
  const line = stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout;
  if (line.includes("\n")) fail();
  let value: unknown;
  try {
    value = parseJson(line);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    fail();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail();
  }
  const { registry, change, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length) fail();
  if (registry === "none" || registry === "unknown") {
    if (change !== undefined) fail();
    return { registry };
  }
  if (
    registry !== "known" ||
    !(change === null ||
      (typeof change === "string" && /^[0-9a-f]{40}$/.test(change)))
  ) {
    return fail();
  }
  return { registry, change };
}
