/**
 * A sqitch target URI as it reaches libpq, checked. sqitch writes the URI's
 * user, database, host, port and query parameters into psql's connection
 * string (`user=… dbname=… host=…`) and into its own registry connection
 * (`dbname=…;host=…`), escaping only spaces, quotes and backslashes: a tab, a
 * newline, a `;` or an `=` in a decoded part would start another libpq
 * keyword there (`options`, `client_encoding`, `service`), undoing how
 * chant-wave has the server and psql read the scripts. So every decoded part
 * must hold only letters, digits and `_ . - / : , @ ~`, the port only digits,
 * the password no control character (sqitch hands it to psql in
 * `PGPASSWORD`), and the query only parameters that say nothing about how text
 * is read. It does not decide which URI a target name leads to
 * (`sqitch_config.ts`). Pure.
 * @module
 */

import { maskCredentials } from "../console/visible.ts";
import { ShapeError } from "../input/shape_error.ts";
import { quote } from "../quote.ts";

/** Query parameters of a target URI that say nothing about how text is read. */
export const URI_PARAMETERS: ReadonlySet<string> = new Set([
  "application_name",
  "channel_binding",
  "connect_timeout",
  "gssencmode",
  "hostaddr",
  "keepalives",
  "keepalives_count",
  "keepalives_idle",
  "keepalives_interval",
  "krbsrvname",
  "load_balance_hosts",
  "passfile",
  "require_auth",
  "requirepeer",
  "sslcert",
  "sslcompression",
  "sslcrl",
  "sslcrldir",
  "sslkey",
  "sslmode",
  "sslnegotiation",
  "sslpassword",
  "sslrootcert",
  "sslsni",
  "target_session_attrs",
  "tcp_user_timeout",
]);

/** The characters a decoded part may hold: none of them means anything to libpq. */
const PLAIN = /^[A-Za-z0-9_.\-/:,@~]*$/;
/** What a password may be written with (RFC 3986's user information). */
const PASSWORD = /^[A-Za-z0-9_.\-~!$&'()*+,;=:%]*$/;
/** An ASCII control character. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f]/;
/** The engines chant-wave reads scripts for. */
const ENGINE = /^db:(?:pg|postgres|postgresql):/;

/**
 * Checks a target URI and gives it without its password.
 * @param uri The URI (`db:pg://user:secret@host:5432/app?sslmode=require`).
 * @param name The sqitch target's name when the URI is its, in sqitch's
 *   configuration; none when the spec's target is the URI.
 * @returns The URI with its password removed, every other part as written
 *   (`db:pg://user@host:5432/app?sslmode=require`).
 * @throws {ShapeError} Naming the part, the URI shown with its credentials
 *   and query values masked: `the target "db:pg:tenant_a%09options=…" holds
 *   "\t" in its database name; chant-wave passes libpq only letters, digits
 *   and _ . - / : , @ ~ there`.
 * @example
 * ```ts
 * checkedTargetUri("db:pg://ann:s3cret@db.internal/app");
 * // "db:pg://ann@db.internal/app"
 * ```
 */
export function checkedTargetUri(uri: string, name?: string): string {
  const masked = quote(
    maskCredentials(uri).replace(/([?&][^=&]*=)[^&]*/g, "$1***"),
  );
  const shown = name === undefined
    ? `the target ${masked}`
    : `the target ${quote(name)} (URI ${masked} in sqitch's configuration)`;
  const scheme = ENGINE.exec(uri)?.[0];
  if (scheme === undefined) {
    throw new ShapeError(
      "",
      `${shown} is not a PostgreSQL URI; chant-wave reads PostgreSQL scripts only (db:pg:)`,
    );
  }
  const refuse = (part: string, bad: string): never => {
    throw new ShapeError(
      "",
      `${shown} holds ${
        quote(bad)
      } in its ${part}; chant-wave passes libpq only letters, digits and _ . - / : , @ ~ there`,
    );
  };
  const plain = (text: string, part: string): void => {
    const value = decoded(text);
    const bad = value === undefined
      ? "%"
      : [...value].find((c) => !PLAIN.test(c));
    if (bad !== undefined) refuse(part, bad);
  };
  const { user, password, hostport, path, query } = partsOf(
    uri.slice(scheme.length),
  );
  if (user !== undefined) plain(user, "user");
  if (password !== undefined) checkPassword(password, shown);
  if (hostport !== undefined) {
    const [, host, port] = /^(.*?)(?::([^:\]]*))?$/.exec(hostport)!;
    plain(host.replace(/^\[(.*)\]$/, "$1"), "host");
    if (port !== undefined && !/^[0-9]*$/.test(port)) refuse("port", port);
  }
  plain(path, "database name");
  for (const pair of query?.split("&") ?? []) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = decoded(
      (equals < 0 ? pair : pair.slice(0, equals)).replace(/\+/g, " "),
    );
    if (name === undefined || !URI_PARAMETERS.has(name)) {
      throw new ShapeError(
        "",
        `${shown} has the parameter ${
          quote(name ?? pair)
        }; chant-wave decides how the server reads the scripts, and lets a URI set only how it connects (sslmode, connect_timeout, application_name, …)`,
      );
    }
    if (equals >= 0) {
      plain(pair.slice(equals + 1).replace(/\+/g, " "), `parameter ${name}`);
    }
  }
  return withoutPassword(uri);
}

/** The parts of what follows `db:<engine>:`, as written. */
interface UriParts {
  user?: string;
  password?: string;
  /** The host and port (`//` and an authority), or undefined for `db:pg:app`. */
  hostport?: string;
  path: string;
  query?: string;
}

/** Splits what follows the scheme at `?`, `//`, the authority's last `@` and the user's first `:`. */
function partsOf(rest: string): UriParts {
  const queryAt = rest.indexOf("?");
  const body = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = queryAt < 0 ? undefined : rest.slice(queryAt + 1);
  if (!body.startsWith("//")) return { path: body, query };
  const slash = body.indexOf("/", 2);
  const authority = body.slice(2, slash < 0 ? undefined : slash);
  const path = slash < 0 ? "" : body.slice(slash);
  const userAt = authority.lastIndexOf("@");
  const hostport = authority.slice(userAt + 1);
  if (userAt < 0) return { hostport, path, query };
  const userinfo = authority.slice(0, userAt);
  const colon = userinfo.indexOf(":");
  return colon < 0 ? { user: userinfo, hostport, path, query } : {
    user: userinfo.slice(0, colon),
    password: userinfo.slice(colon + 1),
    hostport,
    path,
    query,
  };
}

/**
 * A target (a URI, a template of one, or a name) without the password of its
 * user information; everything else as written.
 * @param target The target.
 * @returns It without its password.
 * @example
 * ```ts
 * withoutPassword("db:pg://ann:s3cret@db.internal/tenant_{target}");
 * // "db:pg://ann@db.internal/tenant_{target}"
 * ```
 */
export function withoutPassword(target: string): string {
  const scheme = /^db:[^:/?]*:/.exec(target)?.[0];
  if (scheme === undefined) return target;
  const parts = partsOf(target.slice(scheme.length));
  if (parts.password === undefined) return target;
  return `${scheme}//${parts.user}@${parts.hostport}${parts.path}${
    parts.query === undefined ? "" : `?${parts.query}`
  }`;
}

/** A password: written as a URI's user information may be, no control character once decoded (never shown). */
function checkPassword(password: string, shown: string): void {
  const value = PASSWORD.test(password) ? decoded(password) : undefined;
  if (value === undefined || CONTROL.test(value)) {
    throw new ShapeError(
      "",
      `${shown} has a password chant-wave cannot pass on as written: write it with %-escapes, and no control character`,
    );
  }
}

/**
 * The text with its `%XX` escapes decoded byte by byte (as sqitch's URI
 * module does), or undefined when a `%` starts no escape (sqitch would keep
 * it, and `%` is no plain character).
 */
function decoded(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "%") {
      out += text[i];
      continue;
    }
    const hex = text.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
    out += String.fromCharCode(parseInt(hex, 16));
    i += 2;
  }
  return out;
}
