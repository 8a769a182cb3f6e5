/**
 * The spec field `rules` of a wave (SPEC.md §18): rules over what a plan
 * changes, each `{ when: { address?, type?, action? } | { only: { address?,
 * type?, action?, attributes? } }, gate?, approvers? }`, with its own
 * messages. A rule sets a gate or approvers; an `only` rule loosens, so it sets
 * `gate: "never"` and nothing else. What the globs mean is
 * `src/gate/change_glob.ts`'s; the runner reads rules at base only
 * (`src/gate/plan_rules.ts`). Descriptions are registered in place, not cloned
 * with `.meta()` (see `spec_schema.ts`).
 * @module
 */

import * as z from "zod";
import "./_zod_config.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { showValue } from "./_schema_parts.ts";
import { quote } from "../quote.ts";
import { approversSchema } from "./_approval_schema.ts";
import { CHANGE_ACTIONS, GATE_POLICIES } from "./types.ts";

/** The longest glob of a rule, in characters. */
export const MAX_RULE_GLOB = 1024;
/** The most attribute globs of an `only` rule. */
export const MAX_RULE_ATTRIBUTES = 64;
/** The most rules of a wave. */
export const MAX_RULES = 64;

/** Runs a check only on a value whose own fields raised no problem. */
function clean(payload: { issues: readonly unknown[] }): boolean {
  return payload.issues.length === 0;
}

/** A glob over addresses, types or attribute paths. */
const globSchema = z.string().min(1, {
  error: "a pattern must not be empty",
}).max(MAX_RULE_GLOB, {
  error: `a pattern is too long: at most ${MAX_RULE_GLOB} characters`,
}).refine((glob) => !hasControlCharacter(glob), {
  error: (issue) =>
    `pattern ${showValue(issue.input)} holds a control character`,
}).register(z.globalRegistry, {
  description:
    '"*" any characters within one "."-separated segment, "**" any segments; a "." inside an index key ["a.b"] separates nothing',
});

const matchFields = {
  address: globSchema.optional().register(z.globalRegistry, {
    description:
      'A glob over the change\'s address, e.g. "module.network.**" or "aws_iam_*.*"',
  }),
  type: globSchema.optional().register(z.globalRegistry, {
    description:
      'A glob over the resource type, e.g. "aws_iam_*" (parsed from the address: the last type.name after module segments)',
  }),
  action: z.enum(CHANGE_ACTIONS).optional().register(z.globalRegistry, {
    description: "The change's action",
  }),
};

/** `when.only`: what every change of every run must be. */
const onlySchema = z.strictObject({
  ...matchFields,
  attributes: z.array(globSchema).min(1, {
    error: "attributes must name at least one pattern",
  }).max(MAX_RULE_ATTRIBUTES, {
    error: `attributes names too many patterns: at most ${MAX_RULE_ATTRIBUTES}`,
  }).optional().register(z.globalRegistry, {
    description:
      'Globs over changed attribute paths (e.g. "tags.**"): every path an update changes must match one; a change without paths never matches',
  }),
}).refine((only) => Object.keys(only).length > 0, {
  error: "only must name at least one field",
  when: clean,
}).register(z.globalRegistry, {
  description:
    "Every change of every run of the wave must match, or the rule does not apply",
});

/** `when`: a change to match, or `only`. */
const whenSchema = z.strictObject({
  ...matchFields,
  only: onlySchema.optional(),
}).refine((when) => Object.keys(when).length > 0, {
  error: 'when must name at least one of "address", "type", "action" or "only"',
  when: clean,
}).refine((when) => when.only === undefined || Object.keys(when).length === 1, {
  error: (issue) =>
    `"only" stands alone: put ${
      Object.keys(issue.input as object).filter((key) => key !== "only")
        .map(quote).join(", ")
    } inside it`,
  when: clean,
}).register(z.globalRegistry, {
  description:
    "The changes the rule applies to: any change matching every field, or with only, every change",
});

/** One rule. */
const ruleSchema = z.strictObject({
  when: whenSchema,
  gate: z.enum(GATE_POLICIES).optional().register(z.globalRegistry, {
    description:
      'The gate when the rule applies: it only tightens the wave\'s, except "never" under "only"',
  }),
  approvers: approversSchema.optional().register(z.globalRegistry, {
    description:
      "Approver rules when the rule applies, each only tightening the wave's",
  }),
}).refine(
  (rule) =>
    rule.when.only === undefined ||
    (rule.gate === "never" && rule.approvers === undefined),
  {
    error: 'a rule under "only" loosens: it sets gate "never" and no approvers',
    when: clean,
  },
).refine(
  (rule) =>
    rule.when.only !== undefined || rule.gate !== undefined ||
    rule.approvers !== undefined,
  { error: 'a rule must set "gate" or "approvers"', when: clean },
).refine(
  (rule) => rule.when.only !== undefined || rule.gate !== "never",
  {
    error:
      'gate "never" loosens only under "when": { "only": … }; a rule on some change only tightens',
    when: clean,
  },
);

/** `rules` of a wave (§18). */
export const rulesSchema = z.array(ruleSchema).max(MAX_RULES, {
  error: `rules holds too many rules: at most ${MAX_RULES}`,
}).register(z.globalRegistry, {
  description:
    'Rules over what the plans change, read at the base commit: every rule whose "when" matches a change tightens the gate and approvers; a "never" rule under "when": { "only": … } loosens when every change of every run matches it and no other rule matched',
});
