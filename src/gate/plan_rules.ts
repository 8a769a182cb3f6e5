/**
 * Rules over what a plan changes (SPEC.md §18), pure: the `rules` of the base
 * waves that govern a wave (§4.4), at every base a job reads, and the verdict
 * they give on the wave's planned members: the effective gate, the effective
 * approver rules, and the rules that decided, each in one line that `run`'s
 * log, the job summary, `show` and the pull-request comment print alike.
 * Every rule whose `when` matches some change tightens (its gate and its
 * approvers, the strictest winning); a `gate: "never"` rule under `when.only`
 * loosens a governing wave's gate to `never` when every change of every run
 * matches it, no rule of that wave tightened, and the spec at that base plans
 * with a tool (`tool`: the changes are then the tool's, never what commands
 * of the change wrote into a plan file); across governing waves and
 * bases the strictest gate wins, so a rule the change itself adds, or one that
 * a single governing wave or base lacks, changes nothing. Fail closed: a
 * member whose list was cut meets every `when` rule and no `only` rule; one
 * that is not empty but lists no changes meets no `only` rule, and every
 * `when` rule unless a tool planned it (a tool's list is whole); a change
 * without attribute paths meets no `only.attributes`. Matching is `change_glob.ts`'s; reading git is
 * the caller's.
 * @module
 */

import type {
  ApproverRules,
  ChangeMatch,
  GatePolicy,
  PlanRule,
  Wave,
} from "../spec/types.ts";
import { governingWaves, type PolicyBase } from "./base_spec.ts";
import { strictestPolicy } from "./policy_at_base.ts";
import {
  approvalAtBase,
  type ApprovalRules,
  strictestRules,
} from "./approval_at_base.ts";
import { matchesGlob, resourceType } from "./change_glob.ts";
import { countOf } from "../count_of.ts";

/** What a rule reads of one change. */
export interface RuleChange {
  /** The resource address, or a sqitch change's name. */
  address: string;
  /** `create`, `update`, `delete`, `replace`, `deploy`, … */
  action: string;
  /** The attribute paths an update changes, when the tool says. */
  attributes?: readonly string[];
}

/** What a rule reads of one planned member (a decision member fits). */
export interface RuleMember {
  target: string;
  /** The plan changes nothing. */
  empty?: boolean;
  /** The changes it lists (the first 200 of a decision member's). */
  changes?: readonly RuleChange[];
  /** How many changes were left out of `changes`. */
  moreChanges?: number;
}

/** The rules of one base wave that governs the wave, where they were read. */
export interface GoverningRules {
  /** The base commit, shortened to 12. */
  at: string;
  /** The governing wave at that base: its number, name, gate and rules. */
  wave: Pick<Wave, "k" | "name" | "gate" | "rules">;
  /**
   * The spec at that base plans with a tool chant-wave runs and reads
   * (`tool`: OpenTofu, Terraform, sqitch), so the changes a plan lists are
   * the tool's, not what commands of the change wrote: only then may an
   * `only` rule loosen. Absent: it plans with commands of its own.
   */
  toolPlans?: boolean;
}

/** The rules a wave's gate is decided under, read at base. */
export interface RulesAtBase {
  /** Every governing wave at every base, in the order read. */
  governing: GoverningRules[];
  /**
   * Some base has no governing wave (the spec absent, unparsable, or no wave
   * there governs): its policy is `always` whatever the others' rules say.
   */
  fallback: boolean;
}

/**
 * Reads the rules of the waves that govern `wave` at every base (§4.4).
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave (its number and name).
 * @param targets Every target it holds (declared and planned).
 * @returns The governing waves' rules, and whether some base has none.
 * @example
 * ```ts
 * rulesAtBase([{ sha, spec: { status: "absent" } }], wave, ["eu"]);
 * // { governing: [], fallback: true }
 * ```
 */
export function rulesAtBase(
  bases: readonly PolicyBase[],
  wave: Pick<Wave, "k" | "name">,
  targets: Iterable<string>,
): RulesAtBase {
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const governing: GoverningRules[] = [];
  let fallback = false;
  for (const base of bases) {
    const at = base.sha.slice(0, 12);
    const found = base.spec.status === "parsed"
      ? governingWaves(base.spec.spec.waves, ref)
      : [];
    if (found.length === 0) fallback = true;
    const toolPlans = base.spec.status === "parsed" &&
      base.spec.spec.plan.kind === "tool";
    for (const g of found) {
      governing.push({ at, wave: g.wave, ...(toolPlans ? { toolPlans } : {}) });
    }
  }
  return { governing, fallback };
}

/** A rule that decided, and how it reads. */
export interface DecidingRule {
  /** The base commit it was read at, shortened to 12. */
  at: string;
  /** The governing wave that holds it. */
  wave: { k: number; name: string };
  /** Its index in that wave's `rules`. */
  index: number;
  /** `tightened` (a `when` matched) or `loosened` (an `only` held). */
  effect: "tightened" | "loosened";
  /**
   * One line: `rules[0] of wave 3 "prod" at 1a2b3c4d5e6f (when type
   * "aws_iam_*": gate "always", 2 approvers) matched prod-eu:
   * aws_iam_role.deploy (update)`.
   */
  description: string;
}

/** A rule that did not hold, and why (an `only` rule a change broke). */
export interface UnmetRule {
  /** Where it was read, as for {@linkcode DecidingRule}. */
  at: string;
  wave: { k: number; name: string };
  index: number;
  /** One line: `rules[1] of wave 3 "prod" at … (only …) does not hold: …`. */
  description: string;
}

/** What the rules decide for a wave. */
export interface RulesVerdict {
  /** The gate the wave meets. */
  gate: GatePolicy;
  /** The approver rules its gate counts under. */
  approvers: ApprovalRules;
  /** The rules that tightened or loosened, in the order read. */
  decided: DecidingRule[];
  /** The `only` rules that did not hold, with the change that broke each. */
  unmet: UnmetRule[];
}

/** The inputs of {@linkcode gateByRules}. */
export interface GateByRulesInput {
  /** The wave's policy at base (`wavePolicy(…).policy`). */
  policy: GatePolicy;
  /** The wave's approver rules at base (`gateRules(…).rules`). */
  approvers: ApprovalRules;
  /** The rules at base (`rulesAtBase`). */
  rules: RulesAtBase;
  /** The wave's planned members, every run (not a slice). */
  members: readonly RuleMember[];
}

/** What a member offers the rules: its changes, or that they are unknown. */
type Listed =
  | { known: true; changes: readonly RuleChange[] }
  | {
    known: false;
    why: string;
    /**
     * It lists none at all: a tool's list is whole (what it leaves out, an
     * output, is no resource), so no `when` rule matches it then.
     */
    none?: true;
  };

function listed(member: RuleMember): Listed {
  const changes = member.changes ?? [];
  if ((member.moreChanges ?? 0) > 0) {
    return {
      known: false,
      why: `${member.target}: ${
        countOf(changes.length + (member.moreChanges ?? 0), "change")
      }, not all listed`,
    };
  }
  if (changes.length === 0 && member.empty !== true) {
    return {
      known: false,
      why: `${member.target}: its plan changes something but lists no change`,
      none: true,
    };
  }
  return { known: true, changes };
}

/** Whether one change matches a `when` (or `only`, without attributes). */
function matchesChange(match: ChangeMatch, change: RuleChange): boolean {
  if (match.action !== undefined && change.action !== match.action) {
    return false;
  }
  if (
    match.address !== undefined && !matchesGlob(match.address, change.address)
  ) {
    return false;
  }
  if (match.type !== undefined) {
    const type = resourceType(change.address);
    if (type === undefined || !matchesGlob(match.type, type)) return false;
  }
  return true;
}

/** Why a change breaks an `only` rule, or `undefined` when it meets it. */
function breaksOnly(
  match: ChangeMatch,
  change: RuleChange,
): string | undefined {
  if (!matchesChange(match, change)) return "does not match";
  if (match.attributes === undefined) return undefined;
  const paths = change.attributes ?? [];
  if (paths.length === 0) return "lists no changed attributes";
  const other = paths.find((path) =>
    !match.attributes!.some((glob) => matchesGlob(glob, path))
  );
  return other === undefined ? undefined : `changes ${other}`;
}

const MAX_NAMED = 3;

function sayChange(target: string, change: RuleChange): string {
  return `${target}: ${change.address} (${change.action})`;
}

/** `when type "aws_iam_*"`, `only update with attributes "tags.**"`. */
function sayMatch(rule: PlanRule): string {
  const m = rule.match;
  const parts: string[] = [];
  if (m.action !== undefined) parts.push(`action "${m.action}"`);
  if (m.address !== undefined) parts.push(`address "${m.address}"`);
  if (m.type !== undefined) parts.push(`type "${m.type}"`);
  if (m.attributes !== undefined) {
    parts.push(
      `attributes ${m.attributes.map((glob) => `"${glob}"`).join(", ")}`,
    );
  }
  return `${rule.kind} ${parts.join(", ")}`;
}

/** `gate "always", 2 approvers, no self-approval`. */
function sayEffect(rule: PlanRule): string {
  const parts: string[] = [];
  if (rule.gate !== undefined) parts.push(`gate "${rule.gate}"`);
  const a = rule.kind === "when" ? rule.approvers : undefined;
  if (a?.required !== undefined) {
    parts.push(countOf(a.required, "approver"));
  }
  if (a?.allowed !== undefined) parts.push(`allowed ${a.allowed.join(", ")}`);
  if (a?.selfApproval === false) parts.push("no self-approval");
  return parts.join(", ");
}

function ruleName(g: GoverningRules, index: number, rule: PlanRule): string {
  return `rules[${index}] of wave ${g.wave.k} "${g.wave.name}" at ${g.at} (${
    sayMatch(rule)
  }: ${sayEffect(rule)})`;
}

/** The approver rules a matched rule adds, for `strictestRules`. */
function ruleApprovers(
  approvers: Partial<ApproverRules>,
  name: string,
): ApprovalRules {
  return {
    mode: "ledger",
    signers: [],
    required: approvers.required ?? 1,
    allowed: approvers.allowed ? [[...approvers.allowed]] : [],
    selfApproval: approvers.selfApproval ?? true,
    source: "base",
    reason: name,
    reads: [{ lead: name, at: "", rest: "" }],
  };
}

/**
 * Decides a wave's gate and approver rules under the rules at base and what
 * its members' plans change (SPEC.md §18). The one verdict `run`, `show`, the
 * job summary and the pull-request comment print.
 * @param input The policy and approver rules at base, the rules at base and
 *   the wave's planned members.
 * @returns The effective gate and approver rules, the rules that decided (one
 *   line each) and the `only` rules that did not hold.
 * @example
 * ```ts
 * gateByRules({ policy: "always", approvers, rules: { governing: [], fallback: true }, members })
 *   .gate; // "always": no rule at base, the policy stands
 * ```
 */
export function gateByRules(input: GateByRulesInput): RulesVerdict {
  const { rules, members } = input;
  const decided: DecidingRule[] = [];
  const unmet: UnmetRule[] = [];
  const added: ApprovalRules[] = [];
  const gates: GatePolicy[] = rules.fallback ? ["always"] : [];
  const lists = members.map((member) => ({ member, listed: listed(member) }));
  for (const g of rules.governing) {
    let gate = g.wave.gate;
    let tightened = false;
    const loosening: DecidingRule[] = [];
    g.wave.rules.forEach((rule, index) => {
      const where = {
        at: g.at,
        wave: { k: g.wave.k, name: g.wave.name },
        index,
      };
      const name = ruleName(g, index, rule);
      if (rule.kind === "when") {
        const hits: string[] = [];
        for (const { member, listed } of lists) {
          if (!listed.known) {
            if (listed.none !== true || g.toolPlans !== true) {
              hits.push(listed.why);
            }
          } else {
            for (const change of listed.changes) {
              if (matchesChange(rule.match, change)) {
                hits.push(sayChange(member.target, change));
              }
            }
          }
        }
        if (hits.length === 0) return;
        tightened = true;
        if (rule.gate !== undefined) gate = strictestPolicy([gate, rule.gate]);
        if (rule.approvers !== undefined) {
          added.push(ruleApprovers(rule.approvers, name));
        }
        const named = hits.slice(0, MAX_NAMED).join(", ") +
          (hits.length > MAX_NAMED
            ? `, and ${hits.length - MAX_NAMED} more`
            : "");
        decided.push({
          ...where,
          effect: "tightened",
          description: `${name} matched ${named}`,
        });
        return;
      }
      let broken: string | undefined = g.toolPlans === true
        ? undefined
        : "the spec there plans with commands of its own, whose plan files the change writes; an only rule loosens only a wave planned by a tool";
      for (const { member, listed } of broken ? [] : lists) {
        if (!listed.known) {
          broken = listed.why;
          break;
        }
        for (const change of listed.changes) {
          const why = breaksOnly(rule.match, change);
          if (why !== undefined) {
            broken = `${sayChange(member.target, change)} ${why}`;
            break;
          }
        }
        if (broken !== undefined) break;
      }
      if (broken !== undefined) {
        unmet.push({
          ...where,
          description: `${name} does not hold: ${broken}`,
        });
        return;
      }
      loosening.push({
        ...where,
        effect: "loosened",
        description: `${name} holds: every change of ${
          countOf(members.length, "run")
        } matches`,
      });
    });
    if (!tightened && loosening.length > 0) {
      gate = "never";
      decided.push(...loosening);
    } else {
      for (const rule of loosening) {
        unmet.push({
          ...rule,
          description:
            `${rule.description}, but a rule of wave ${g.wave.k} "${g.wave.name}" tightened, so it loosens nothing`,
        });
      }
    }
    gates.push(gate);
  }
  if (gates.length === 0) gates.push(input.policy);
  const gate = strictestPolicy(gates);
  if (gate !== "never") {
    // A stricter governing wave or base kept the gate: no loosening decided.
    for (const rule of decided.filter((r) => r.effect === "loosened")) {
      decided.splice(decided.indexOf(rule), 1);
      unmet.push({
        at: rule.at,
        wave: rule.wave,
        index: rule.index,
        description:
          `${rule.description}, but another governing wave or base is stricter, so it loosens nothing`,
      });
    }
  }
  return {
    gate,
    approvers: added.length === 0
      ? input.approvers
      : strictestRules([input.approvers, ...added]),
    decided,
    unmet,
  };
}

/**
 * Reads the rules and the approver rules at every base and judges them on the
 * members' changes: {@linkcode gateByRules} over {@linkcode rulesAtBase} and
 * the strictest `approvalAtBase`, as a job reads them.
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave (its number and name).
 * @param targets Every target it holds (declared and planned).
 * @param policy The wave's policy at base.
 * @param members The wave's planned members.
 * @returns The verdict.
 * @example
 * ```ts
 * rulesVerdictAtBase([{ sha, spec: { status: "absent" } }], wave, ["eu"], "always", []).gate;
 * // "always"
 * ```
 */
export function rulesVerdictAtBase(
  bases: readonly PolicyBase[],
  wave: Pick<Wave, "k" | "name">,
  targets: readonly string[],
  policy: GatePolicy,
  members: readonly RuleMember[],
): RulesVerdict {
  const ref = { k: wave.k, name: wave.name, targets };
  return gateByRules({
    policy,
    approvers: strictestRules(bases.map((base) => approvalAtBase(base, ref))),
    rules: rulesAtBase(bases, wave, targets),
    members,
  });
}

/**
 * The log lines of a verdict, after the wave's policy line: one per rule that
 * decided or did not hold, and what the gate became. Nothing when the wave's
 * governing waves hold no rule.
 * @param verdict The verdict.
 * @param policy The policy at base.
 * @param wave The wave.
 * @returns `rules of wave 3 "prod": …` lines.
 * @example
 * ```ts
 * rulesLines(verdict, "always", { k: 3, name: "prod" });
 * // ['rules of wave 3 "prod": rules[0] of wave 3 "prod" at … holds: …',
 * //  'rules of wave 3 "prod": the gate is "never" (the policy at base is "always")']
 * ```
 */
export function rulesLines(
  verdict: RulesVerdict,
  policy: GatePolicy,
  wave: Pick<Wave, "k" | "name">,
): string[] {
  const of = `rules of wave ${wave.k} "${wave.name}"`;
  const lines = [
    ...verdict.decided.map((rule) => `${of}: ${rule.description}`),
    ...verdict.unmet.map((rule) => `${of}: ${rule.description}`),
  ];
  if (verdict.decided.length > 0) {
    lines.push(
      verdict.gate === policy
        ? `${of}: the gate stays "${policy}"`
        : `${of}: the gate is "${verdict.gate}" (the policy at base is "${policy}")`,
    );
  }
  return lines;
}
