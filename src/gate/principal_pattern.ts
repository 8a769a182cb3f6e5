/**
 * The principal patterns of `approvers.allowed` (SPEC.md §12.1): a principal, or
 * a pattern where `*` stands for any characters within the word (none included),
 * compared after NFKC, trimming and lowercasing. Pure; matched by the glob of
 * the signers file (`pattern_list.ts`), with `?` literal.
 * @module
 */

import { normalisePrincipal } from "../seal/normalise_principal.ts";
import { globMatches } from "../seal/pattern_list.ts";

/** The prefix of a forge login among principals (`login:ann`). */
const LOGIN = "login:";

/**
 * Tells whether a principal matches one pattern. `*` matches any run of
 * characters, none included; every other character is literal. A principal that
 * holds white space matches nothing, since a pattern holds none and `*` stays
 * within a word.
 * @param principal The principal, normalised.
 * @param pattern The pattern as the spec writes it (normalised here).
 * @returns `true` when the whole principal matches.
 * @example
 * ```ts
 * principalMatches("ann@platform.example", "*@platform.example"); // true
 * principalMatches("ann@example.com", "*@platform.example"); // false
 * ```
 */
export function principalMatches(principal: string, pattern: string): boolean {
  if (principal === "" || /\s/u.test(principal)) return false;
  return globMatches(principal, normalisePrincipal(pattern), false);
}

/**
 * Tells whether a principal passes every `allowed` list of the governing waves:
 * each list must hold a pattern it matches (the strictest rule is their
 * intersection). No list: anyone is allowed. A forge login `login:<name>`
 * matches `login:` patterns (`login:ann`, `login:*`) and, as before logins had
 * their prefix, a bare pattern of the name (`ann`).
 * @param principal The principal, normalised.
 * @param allowed One list of patterns per wave that restricts approvers.
 * @returns `true` when every list allows it.
 * @example
 * ```ts
 * principalAllowed("ann@a.example", [["*@a.example"], ["ann@*", "bob@*"]]); // true
 * principalAllowed("bob@b.example", [["*@a.example"]]); // false
 * principalAllowed("anyone", []); // true
 * principalAllowed("login:ann", [["login:*"]]); // true
 * ```
 */
export function principalAllowed(
  principal: string,
  allowed: readonly (readonly string[])[],
): boolean {
  const names = principal.startsWith(LOGIN)
    ? [principal, principal.slice(LOGIN.length)]
    : [principal];
  return allowed.every((list) =>
    list.some((pattern) =>
      names.some((name) => principalMatches(name, pattern))
    )
  );
}
