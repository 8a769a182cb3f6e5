/**
 * Where the next page of a forge list is (SPEC.md §13): the `Link` header's
 * `rel="next"` (GitHub, Forgejo, GitLab keyset pages) or GitLab's `x-next-page`.
 * Pure; it never lets a next page leave the API it started on.
 * @module
 */

/**
 * The `rel="next"` target of an RFC 8288 `Link` header.
 * @param link The header's value, or `null`.
 * @returns The target as written, or `undefined` when there is no next page.
 * @example
 * ```ts
 * nextLink('<https://h/r?page=2>; rel="next", <https://h/r?page=5>; rel="last"');
 * // "https://h/r?page=2"
 * ```
 */
export function nextLink(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const match of link.matchAll(/<([^>]*)>((?:\s*;\s*[^,;<]*)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(match[2]);
    if (rel && rel[1].toLowerCase().split(/\s+/).includes("next")) {
      return match[1];
    }
  }
  return undefined;
}

/**
 * The URL of the next page, resolved against the current one and checked to stay
 * on the API: same origin as `base`, and a path under `base`'s path.
 * @param current The URL of the page just read.
 * @param headers Its answer's headers.
 * @param base The API's base URL (`https://host/api/v4`).
 * @returns The next page's URL; `undefined` on the last page.
 * @throws {Error} When the next page would leave the API (the message says where to).
 */
export function nextPageUrl(
  current: URL,
  headers: Headers,
  base: URL,
): URL | undefined {
  const linked = nextLink(headers.get("link"));
  if (linked !== undefined) {
    const next = new URL(linked, current);
    const basePath = base.pathname.replace(/\/$/, "");
    if (
      next.origin !== base.origin ||
      !(next.pathname === basePath || next.pathname.startsWith(basePath + "/"))
    ) {
      throw new Error(
        `the next page link leaves the API ("${next.origin}${next.pathname}")`,
      );
    }
    return next;
  }
  const page = headers.get("x-next-page")?.trim();
  if (page === undefined || page === "") return undefined;
  if (!/^[1-9]\d{0,8}$/.test(page)) {
    throw new Error(
      `"x-next-page" is not a page number ("${page.slice(0, 20)}")`,
    );
  }
  const next = new URL(current);
  next.searchParams.set("page", page);
  return next;
}
