/**
 * Whether a run locator read from the ledger names the forge, API and
 * repository a client was made for (SPEC.md §13). A locator is untrusted: the
 * token must never be spent on another repository's jobs. Pure.
 * @module
 */

import type { Forge } from "../ci/forges.ts";
import type { RunLocator } from "../ci/run_locator.ts";

/** The locator, narrowed to the client's forge, or why it is not the client's. */
export type OwnLocator<F extends Forge> =
  | { ok: true; locator: Extract<RunLocator, { forge: F }> }
  | { ok: false; reason: string };

/**
 * Checks that a locator is this client's to restart. API URLs are compared by
 * origin and path (trailing slash ignored); repositories case-insensitively
 * (GitHub and Forgejo names are), GitLab project ids exactly.
 * @param locator A validated locator.
 * @param forge The client's forge.
 * @param apiUrl The client's API base URL.
 * @param repository The client's repository (GitLab: project id).
 * @returns The narrowed locator, or the reason (one line) it is another's.
 * @example
 * ```ts
 * ownLocator({ forge: "github", apiUrl: "https://api.github.com", repository: "o/r",
 *   runId: "1", attempt: 1 }, "github", new URL("https://api.github.com"), "O/R").ok; // true
 * ```
 */
export function ownLocator<F extends Forge>(
  locator: RunLocator,
  forge: F,
  apiUrl: URL,
  repository: string,
): OwnLocator<F> {
  if (locator.forge !== forge) {
    return { ok: false, reason: `recorded on ${locator.forge}, not ${forge}` };
  }
  const key = (url: URL) => url.origin + url.pathname.replace(/\/+$/, "");
  const theirs = key(new URL(locator.apiUrl));
  if (theirs !== key(apiUrl)) {
    return { ok: false, reason: `recorded for another API (${theirs})` };
  }
  const [recorded, mine] = locator.forge === "gitlab"
    ? [locator.projectId, repository]
    : [locator.repository.toLowerCase(), repository.toLowerCase()];
  return recorded === mine
    ? { ok: true, locator: locator as Extract<RunLocator, { forge: F }> }
    : { ok: false, reason: `recorded for another repository (${recorded})` };
}
