/**
 * Makes the client of a forge (SPEC.md §13), from explicit settings or from the
 * environment (API URL, token, repository), saying which one is missing rather
 * than failing later. It holds no client itself.
 * @module
 */

import { ciContext } from "../ci/ci_context.ts";
import type { ForgeClient, ForgeClientConfig } from "./forge_client.ts";
import { forgeApiUrl, forgeRepository, forgeToken } from "./forge_env.ts";
import type { HttpDeps } from "./forge_http.ts";
import { forgejoClient } from "./forgejo_client.ts";
import type { Forge } from "../ci/forges.ts";
import { githubClient } from "./github_client.ts";
import { gitlabClient } from "./gitlab_client.ts";

/**
 * Makes one forge's client.
 * @param forge The forge.
 * @param config API URL, token, repository and HTTP deps.
 * @returns The client.
 * @throws {InputError} When the API URL or the repository is unusable.
 */
export function createForgeClient(
  forge: Forge,
  config: ForgeClientConfig,
): ForgeClient {
  if (forge === "github") return githubClient(config);
  if (forge === "gitlab") return gitlabClient(config);
  return forgejoClient(config);
}

/** What `forgeClientFromEnv` may be told instead of reading it from the environment. */
export interface FromEnvOptions {
  /** The forge (default: the CI system chant-wave runs in). */
  forge?: Forge;
  /** The repository (default: `GITHUB_REPOSITORY` or `CI_PROJECT_ID`). */
  repository?: string;
  /** Fetch, clock and limits. */
  deps?: HttpDeps;
}

/** A client, or the one thing missing to make it. */
export type ClientFromEnv =
  | { ok: true; client: ForgeClient; tokenVariable: string }
  /** Not in CI and no forge given. */
  | { ok: false; missing: "forge" }
  /** No token variable is set (`resume` reports `no-token`). */
  | { ok: false; missing: "token"; forge: Forge }
  /** GitLab outside CI without `CI_API_V4_URL`, Forgejo without a server URL. */
  | { ok: false; missing: "api-url"; forge: Forge }
  /** No repository given or in the environment. */
  | { ok: false; missing: "repository"; forge: Forge };

/**
 * Makes the client for the forge the environment (or `options`) names, reading
 * the API URL, token and repository as `forgeApiUrl`, `forgeToken` and
 * `forgeRepository` do. The token is only ever sent to that API URL.
 * @param env The process environment.
 * @param options The forge or repository to use instead, and HTTP deps.
 * @returns The client and the token's variable, or what is missing.
 * @throws {InputError} When a token, API URL or repository is malformed.
 */
export function forgeClientFromEnv(
  env: Record<string, string | undefined>,
  options: FromEnvOptions = {},
): ClientFromEnv {
  const forge = options.forge ?? ciContext(env).forge;
  if (forge === undefined) return { ok: false, missing: "forge" };
  const token = forgeToken(forge, env);
  if (token === undefined) return { ok: false, missing: "token", forge };
  const apiUrl = forgeApiUrl(forge, env);
  if (apiUrl === undefined) return { ok: false, missing: "api-url", forge };
  const repository = options.repository ?? forgeRepository(forge, env);
  if (repository === undefined) {
    return { ok: false, missing: "repository", forge };
  }
  const client = createForgeClient(forge, {
    ...options.deps,
    apiUrl,
    token: token.token,
    repository,
  });
  return { ok: true, client, tokenVariable: token.variable };
}
