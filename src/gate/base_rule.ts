/**
 * The rules that choose a job's base (SPEC.md §4.4), as a closed vocabulary:
 * `--base`, the spec's `base` read before the push, the commit before the
 * push, or the chain rule when no trusted commit is named. Only the first three
 * name a commit the forge or the pipeline file vouches for, so the ledger's
 * decisions made under them bound the chain rule of later jobs
 * (`trustedDecisionHeads`). Pure.
 * @module
 */

/** Every base rule. */
export const BASE_RULES = ["flag", "spec", "push", "chain"] as const;

/** Which rule chose the base. */
export type BaseRule = typeof BASE_RULES[number];

/**
 * Whether a rule's base is one a trusted source named (the pipeline file, or the
 * forge's push event), so a decision made under it can bound the chain rule.
 * @param rule The rule.
 * @returns False for `chain`.
 * @example
 * ```ts
 * isTrustedRule("push"); // true
 * isTrustedRule("chain"); // false
 * ```
 */
export function isTrustedRule(rule: string | undefined): boolean {
  return rule === "flag" || rule === "spec" || rule === "push";
}
