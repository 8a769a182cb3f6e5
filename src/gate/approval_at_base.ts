/**
 * Which approvals a wave's gate counts, from the spec at the base commit
 * (SPEC.md §12, §12.1): the approval mode, the signers file a sealed gate reads,
 * and the approver rules, each the strictest of the base waves that govern the
 * wave (§4.4), so a change can loosen none of them; and what each mode can
 * withstand, in the words of §4.12 (a change to code that runs in the job can
 * write the ledger, so only `sealed` and `forge` approvals hold then). Pure:
 * the spec at base is given; reading the signers file and the change's
 * history are edges.
 * @module
 */

import type { ApprovalMode, Wave } from "../spec/types.ts";
import {
  type BaseReason,
  type BaseSpec,
  describeGoverning,
  governingWaves,
  normalisePath,
  sayReads,
  type WaveRef,
} from "./base_spec.ts";
import type { PolicySource } from "./policy_at_base.ts";

/** A signers file to read: where, at which commit. */
export interface SignersRef {
  /** The base commit (full sha). */
  sha: string;
  /** The file, from the repository's top level. */
  path: string;
}

/** Which approvals a wave's gate counts, as read at base. */
export interface ApprovalRules {
  /** The strictest mode of the governing waves. */
  mode: ApprovalMode;
  /**
   * The signers files a seal must verify against: one per base whose own mode
   * is `sealed` or `forge` (a forge gate counts sealed approvals too); none on
   * a `ledger` gate.
   */
  signers: SignersRef[];
  /** How many distinct principals must approve: the highest of the governing waves. */
  required: number;
  /**
   * The `allowed` lists of the governing waves that restrict approvers; a
   * principal must match a pattern of each (none: anyone).
   */
  allowed: string[][];
  /** `false` when any governing wave says so. */
  selfApproval: boolean;
  /** `base` when the spec at base was read; `absent-at-base` for a fallback. */
  source: PolicySource;
  /** Why, for the log: `read at <sha12>: …`, `the spec is not in <sha12>`, … */
  reason: string;
  /** The reason's reads, one per base, for joining with others. */
  reads?: BaseReason[];
}

const STRICTNESS: Record<ApprovalMode, number> = {
  "ledger": 0,
  "forge": 1,
  "sealed": 2,
};

/**
 * The strictest of some approval modes: `sealed` (only signatures by keys
 * listed at base) > `forge` (approvals the forge confirms, or sealed ones) >
 * `ledger` (any approval record).
 * @param modes At least one mode.
 * @returns The strictest.
 * @example
 * ```ts
 * strictestMode(["forge", "ledger"]); // "forge"
 * ```
 */
export function strictestMode(modes: readonly ApprovalMode[]): ApprovalMode {
  return modes.reduce((a, b) => STRICTNESS[b] > STRICTNESS[a] ? b : a);
}

/**
 * The signers file's path from the top level, normalised as the spec's path is
 * (a path that climbs out of the repository stays as written: no file is there).
 */
function signersPath(path: string): string {
  return normalisePath(path) ?? path;
}

/** The rules of some waves (or a spec's top level), strictest of each. */
function strictestOf(
  rules: readonly Pick<Wave, "approval" | "approvers">[],
  sha: string,
  signers: string,
): Omit<ApprovalRules, "source" | "reason"> {
  const mode = strictestMode(rules.map((rule) => rule.approval));
  return {
    mode,
    signers: mode === "ledger" ? [] : [{ sha, path: signers }],
    required: Math.max(...rules.map((rule) => rule.approvers.required)),
    allowed: rules.flatMap((rule) =>
      rule.approvers.allowed ? [[...rule.approvers.allowed]] : []
    ),
    selfApproval: rules.every((rule) => rule.approvers.selfApproval),
  };
}

/**
 * Decides the approval rules of one wave from the spec at base:
 * - governing waves found: the strictest of their rules (a wave without a field
 *   has its spec's top-level one), signers file per the spec's `signers`;
 * - no wave governs (a new wave with new targets): the top level at base;
 * - the spec is absent at base: the defaults (`ledger`, 1 approver, anyone,
 *   self-approval allowed), as for a repository that adopts chant-wave, whose
 *   gate is `always` anyway;
 * - no version of the spec at or before the base parses (a base whose spec
 *   does not parse is read at the newest version before it that does,
 *   `base/valid_version.ts`): the strictest default that someone can still
 *   approve: `ledger`, 1 approver, anyone, and no self-approval, so an
 *   approval by someone who wrote none of the change is needed, and nobody
 *   needs a key that may not exist.
 * @param base The base commit's full sha and the spec there.
 * @param wave The wave of the change: number, name and every target it holds.
 * @returns The rules, their source and the reason line.
 * @example
 * ```ts
 * approvalAtBase({ sha, spec: { status: "absent" } }, { k: 2, name: "prod", targets: [] }).mode;
 * // "ledger"
 * ```
 */
export function approvalAtBase(
  base: { sha: string; spec: BaseSpec },
  wave: WaveRef,
): ApprovalRules {
  const said = (lead: string, rest: string) => {
    const read = { lead, at: base.sha.slice(0, 12), rest };
    return { reason: sayReads([read]), reads: [read] };
  };
  const spec = base.spec;
  if (spec.status === "absent") {
    return {
      mode: "ledger",
      signers: [],
      required: 1,
      allowed: [],
      selfApproval: true,
      source: "absent-at-base",
      ...said("the spec is not in ", ""),
    };
  }
  if (spec.status === "unparsable") {
    return {
      mode: "ledger",
      signers: [],
      required: 1,
      allowed: [],
      selfApproval: false,
      source: "absent-at-base",
      ...said("no version of the spec at or before ", " parses"),
    };
  }
  const governing = governingWaves(spec.spec.waves, wave);
  if (governing.length === 0) {
    return {
      ...strictestOf([spec.spec], base.sha, signersPath(spec.spec.signers)),
      source: "base",
      ...said(
        "no wave at ",
        ` governs wave ${wave.k} "${wave.name}": its top level`,
      ),
    };
  }
  return {
    ...strictestOf(
      governing.map((g) => g.wave),
      base.sha,
      signersPath(spec.spec.signers),
    ),
    source: "base",
    ...said("read at ", `: ${describeGoverning(governing)}`),
  };
}

/**
 * The strictest of the rules read at several bases (a share job reads the
 * decision's base and its own): the strictest mode, the signers file of every
 * base that counts seals, the highest `required`, every `allowed` list, and no self-approval when
 * any says so.
 * @param reads The rules at each base, at least one.
 * @returns The combined rules; the reasons joined.
 * @example
 * ```ts
 * strictestRules([atBase, atRecordBase]).required;
 * ```
 */
export function strictestRules(
  reads: readonly ApprovalRules[],
): ApprovalRules {
  if (reads.length === 1) return reads[0];
  const mode = strictestMode(reads.map((read) => read.mode));
  return {
    mode,
    signers: mode === "ledger" ? [] : reads.flatMap((read) => read.signers),
    required: Math.max(...reads.map((read) => read.required)),
    allowed: reads.flatMap((read) => read.allowed),
    selfApproval: reads.every((read) => read.selfApproval),
    source: reads.some((read) => read.source === "base")
      ? "base"
      : "absent-at-base",
    ...saidOnce(reads),
  };
}

/** The reasons of several reads, each thing read once (`sayReads`). */
function saidOnce(
  rules: readonly ApprovalRules[],
): Pick<ApprovalRules, "reason" | "reads"> {
  const reads = rules.flatMap((rule) =>
    rule.reads ?? [{ lead: rule.reason, at: "", rest: "" }]
  );
  return { reason: sayReads(reads), reads };
}

/**
 * Says what the mode is, for the log line `approval of wave <k> "<name>": …`.
 * @param rules The rules.
 * @returns `ledger`, `sealed by <path>`, or `forge, or sealed by <path>` (with
 *   each commit when several bases name files).
 * @example
 * ```ts
 * describeMode({ mode: "sealed", signers: [{ sha, path: ".chant-wave/allowed_signers" }] });
 * // "sealed by .chant-wave/allowed_signers"
 * ```
 */
export function describeMode(
  rules: Pick<ApprovalRules, "mode" | "signers">,
): string {
  if (rules.mode === "ledger") return rules.mode;
  const files = rules.signers.length === 1
    ? rules.signers[0].path
    : rules.signers.map((ref) => `${ref.path} at ${ref.sha.slice(0, 12)}`)
      .join(" and ");
  return rules.mode === "sealed"
    ? `sealed by ${files}`
    : `forge, or sealed by ${files}`;
}

/**
 * Says what the approver rules are, for the log line
 * `approvers of wave <k> "<name>": …`.
 * @param rules The rules.
 * @returns E.g. `2 distinct approvers, allowed *@platform.example, no
 *   self-approval`, or `1 approver, anyone, self-approval allowed`.
 * @example
 * ```ts
 * describeApprovers({ required: 1, allowed: [], selfApproval: true });
 * // "1 approver, anyone, self-approval allowed"
 * ```
 */
export function describeApprovers(
  rules: Pick<ApprovalRules, "required" | "allowed" | "selfApproval">,
): string {
  const count = rules.required === 1
    ? "1 approver"
    : `${rules.required} distinct approvers`;
  const allowed = rules.allowed.length === 0
    ? "anyone"
    : rules.allowed.length === 1
    ? `allowed ${rules.allowed[0].join(", ")}`
    : `allowed ${
      rules.allowed.map((list) => `[${list.join(", ")}]`).join(" and ")
    }`;
  const self = rules.selfApproval
    ? "self-approval allowed"
    : "no self-approval";
  return `${count}, ${allowed}, ${self}`;
}

/**
 * Says what a gate's mode counts, and whether code the change runs in a job can
 * approve it.
 * @param mode The approval mode.
 * @returns One phrase.
 * @example
 * ```ts
 * describeTrust("sealed");
 * // "only signatures by keys listed at base count: code the change runs in a job cannot make one"
 * ```
 */
export function describeTrust(mode: ApprovalMode): string {
  switch (mode) {
    case "sealed":
      return "only signatures by keys listed at base count: code the change runs in a job cannot make one";
    case "forge":
      return "only approvals the forge confirms, or sealed ones, count: code the change runs in a job cannot make one";
    default:
      return "any approval in the ledger counts, and its approver is whoever --by names: code the change runs in a job can write one, so use sealed or forge for production waves";
  }
}
