/**
 * The forge API's addresses: the base URL as configured, checked once, and
 * paths built from values that each stay one path segment. Pure.
 * @module
 */

import { InputError } from "../errors.ts";
import { maskSecrets } from "./forge_error.ts";

/**
 * Builds a path from literal parts and values, encoding each value as one path
 * segment, so a name with `/` or `..` cannot reach another endpoint.
 * @example
 * ```ts
 * apiPath`/repos/${"o"}/${"a/../b"}/pulls`; // "/repos/o/a%2F..%2Fb/pulls"
 * ```
 */
export function apiPath(
  parts: TemplateStringsArray,
  ...values: readonly (string | number)[]
): string {
  return parts.reduce(
    (path, part, i) =>
      path + part +
      (i < values.length ? encodeURIComponent(String(values[i])) : ""),
    "",
  );
}

/**
 * Checks an API base URL: `http:` or `https:`, no credentials, query or
 * fragment; the trailing slash is dropped.
 * @param apiUrl The URL as configured.
 * @returns The parsed URL.
 * @throws {InputError} Naming the (masked) URL when it is unusable.
 */
export function parseApiUrl(apiUrl: string): URL {
  const problem = (what: string) =>
    new InputError(`the forge API URL "${maskSecrets(apiUrl, [])}" ${what}`);
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw problem("is not a URL");
  }
  if (!/^https?:$/.test(url.protocol)) throw problem("is not http(s)");
  if (url.username || url.password) {
    throw problem("carries credentials; give the token by its variable");
  }
  if (url.search || url.hash) throw problem("has a query or fragment");
  url.pathname = url.pathname.replace(/\/+$/, "");
  return url;
}
