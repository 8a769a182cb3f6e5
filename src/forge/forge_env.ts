/**
 * What the environment says about reaching a forge's API (SPEC.md §13): its
 * base URL, the token and the repository (GitLab: project). Pure; it never
 * prints or returns a token anywhere but to its caller.
 * The API's addresses too: the base URL as configured, checked once, and paths
 * built from values that each stay one path segment.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Forge } from "../ci/forges.ts";
import { maskSecrets } from "./forge_error.ts";

/** A token and the variable it came from (for messages; never the value). */
export interface ForgeToken {
  /** The token. */
  token: string;
  /** The variable that held it (`GITHUB_TOKEN`). */
  variable: string;
}

/** The variables a token is read from, in order, per forge. */
export const TOKEN_VARIABLES: Readonly<Record<Forge, readonly string[]>> = {
  github: ["CHANT_WAVE_FORGE_TOKEN", "GITHUB_TOKEN", "GH_TOKEN"],
  forgejo: ["CHANT_WAVE_FORGE_TOKEN", "GITHUB_TOKEN", "GH_TOKEN"],
  gitlab: ["CHANT_WAVE_FORGE_TOKEN", "GITLAB_TOKEN"],
};

/**
 * The forge's API base URL: GitHub `GITHUB_API_URL` (default
 * `https://api.github.com`); GitLab `CI_API_V4_URL`; Forgejo `GITHUB_API_URL`,
 * else `GITHUB_SERVER_URL` + `/api/v1`. Trailing slashes are dropped.
 * @param forge The forge.
 * @param env The process environment.
 * @returns The URL as configured (checked when the client is made); `undefined` when unknown.
 * @example
 * ```ts
 * forgeApiUrl("forgejo", { GITHUB_SERVER_URL: "https://codeberg.org/" });
 * // "https://codeberg.org/api/v1"
 * ```
 */
export function forgeApiUrl(
  forge: Forge,
  env: Record<string, string | undefined>,
): string | undefined {
  const value = (name: string) => env[name] || undefined;
  const trim = (url: string | undefined) => url?.replace(/\/+$/, "");
  if (forge === "github") {
    return trim(value("GITHUB_API_URL") ?? "https://api.github.com");
  }
  if (forge === "gitlab") return trim(value("CI_API_V4_URL"));
  const server = trim(value("GITHUB_SERVER_URL"));
  return trim(value("GITHUB_API_URL") ?? (server && `${server}/api/v1`));
}

/**
 * The forge token: `CHANT_WAVE_FORGE_TOKEN`, else `GITHUB_TOKEN`, `GH_TOKEN`
 * (GitHub, Forgejo), else `GITLAB_TOKEN` (GitLab). Surrounding whitespace is
 * dropped; empty variables are skipped. GitLab's `CI_JOB_TOKEN` is deliberately
 * not used: a job token cannot retry jobs.
 * @param forge The forge.
 * @param env The process environment.
 * @returns The token and its variable; `undefined` when none is set.
 * @throws {InputError} When the chosen variable holds characters no token has
 *   (naming the variable, never the value).
 * @example
 * ```ts
 * forgeToken("gitlab", { GITLAB_TOKEN: "glpat-x" }); // { token: "glpat-x", variable: "GITLAB_TOKEN" }
 * ```
 */
export function forgeToken(
  forge: Forge,
  env: Record<string, string | undefined>,
): ForgeToken | undefined {
  for (const variable of TOKEN_VARIABLES[forge]) {
    const token = env[variable]?.trim();
    if (!token) continue;
    if (!/^[\x21-\x7e]{1,4096}$/.test(token)) {
      throw new InputError(
        `${variable} is not a usable token: it holds spaces, control or non-ASCII characters`,
      );
    }
    return { token, variable };
  }
  return undefined;
}

/**
 * The repository the job runs for: GitHub and Forgejo `GITHUB_REPOSITORY`
 * (`owner/name`), GitLab `CI_PROJECT_ID`.
 * @param forge The forge.
 * @param env The process environment.
 * @returns The repository or project id; `undefined` when unset.
 * @example
 * ```ts
 * forgeRepository("gitlab", { CI_PROJECT_ID: "42" }); // "42"
 * ```
 */
export function forgeRepository(
  forge: Forge,
  env: Record<string, string | undefined>,
): string | undefined {
  const name = forge === "gitlab" ? "CI_PROJECT_ID" : "GITHUB_REPOSITORY";
  return env[name] || undefined;
}

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
