/**
 * The one form principals are compared in (SPEC.md §12, §12.1): NFKC, trimmed,
 * lowercased. Pure.
 * @module
 */

/**
 * Normalises a principal for comparison: Unicode NFKC, surrounding white space
 * removed, lowercased (locale-independent). Applied alike to a seal's principal,
 * to allowed-signers patterns and to approver rules.
 * @param principal A principal as written, e.g. ` Ann@Example.COM`.
 * @returns The comparable form, e.g. `ann@example.com`.
 * @example
 * ```ts
 * normalisePrincipal(" Ａｎｎ@Example.com "); // "ann@example.com"
 * ```
 */
export function normalisePrincipal(principal: string): string {
  return principal.normalize("NFKC").trim().toLowerCase();
}
