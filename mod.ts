/**
 * chant-wave applies one change in ordered, gated waves. This module is its
 * library face, for tools around it: parse and check a spec, expand it into
 * jobs, write and read the plan file of a run (one of OpenTofu or Terraform
 * too), compute the set digest an approval binds to, read ledger records and
 * decide a gate from them, and verify a sealed approval. Everything here is
 * pure; the runner itself (processes, git, the ledger store, forges) is the
 * `chant-wave` executable, `cli.ts`.
 *
 * Input that crossed a boundary (a plan file, a ledger record) is read with
 * one reader: a problem is a {@linkcode ShapeError} naming the input and the
 * field; anything else thrown is a bug.
 *
 * @example
 * ```ts
 * import { expandJobs, parseSpec, setDigest } from "./mod.ts";
 *
 * const spec = parseSpec(
 *   `{ "name": "tf", "plan": ["tofu", "plan", "-out={plan}"], "apply": ["tofu", "apply", "{plan}"],
 *      "waves": [{ "name": "dev", "runs": ["dev"] }, { "name": "prod", "runs": ["eu", "us"], "shares": 2 }] }`,
 *   "waves.jsonc",
 * );
 * expandJobs(spec, "waves.jsonc").map((job) => job.name);
 * // ["wave-1-dev", "wave-2-prod-decide", "wave-2-prod-share-1", "wave-2-prod-share-2"]
 * setDigest([{ target: "staging", planDigest: `sha256:${"a".repeat(64)}` }]);
 * // "sha256:121fce9fb501cc2872d4239f620d465480edef5fcbe86d290f3b17c017231e8d"
 * ```
 * @module
 */

// The spec: parse, check, its shape and vocabularies.
export { parseSpec } from "./src/spec/parse_spec.ts";
export { specJsonSchema } from "./src/spec/spec_schema.ts";
export type * from "./src/spec/types.ts";
export {
  APPROVAL_MODES,
  GATE_POLICIES,
  HOOK_POINTS,
  ON_FAILURE,
  ORDERS,
  TOOL_KINDS,
} from "./src/spec/types.ts";
export { waveAt } from "./src/spec/types.ts";
export {
  formatProblem,
  InputError,
  SpecError,
  type SpecProblem,
} from "./src/errors.ts";

// Jobs: what a pipeline runs.
export {
  decisionRecordPath,
  expandJobs,
  type Job,
  JOB_KINDS,
  type JobKind,
} from "./src/jobs/expand_jobs.ts";
export { sliceShare, sortByTarget } from "./src/jobs/slice_shares.ts";
export { compilePattern, matchesPattern } from "./src/spec/group_pattern.ts";

// Plan files: what a plan command writes, and the digest of a wave's plans.
export {
  parsePlanFile,
  parsePlansFile,
  type PlanChange,
  type PlanFile,
  type WavePlanEntry,
  type WavePlans,
} from "./src/plan/plan_file.ts";
export { tofuPlanFile, type ToolPlanFile } from "./src/tofu/tofu_plan_file.ts";
export {
  DIGEST_PATTERN,
  type DigestMember,
  isDigest,
  setDigest,
} from "./src/digest/set_digest.ts";

// The ledger's records and the gate decision.
export { parseRecord } from "./src/gate/parse_record.ts";
export {
  type ActionsThrough,
  type ApprovalRecord,
  type ClaimedRun,
  type ClaimRecord,
  type ExpiredRecord,
  type FoldedCounts,
  type FoldedRecord,
  type LedgerRecord,
  type OutcomeJob,
  type OutOfOrderRecord,
  type PendingRecord,
  type PlanPair,
  RECORD_KINDS,
  type RecordBase,
  type RecordedPlansRecord,
  type RecordedWave,
  type RecordKind,
  type RunOutcomeRecord,
  type SettledRun,
  WAIT_REASONS,
  type WaitingRecord,
  type WaitReason,
  WAVE_OUTCOMES,
  type WaveOutcome,
  type WaveOutcomeRecord,
} from "./src/gate/records.ts";
export type {
  ForgejoRunLocator,
  GithubRunLocator,
  GitlabRunLocator,
  RunLocator,
} from "./src/ci/run_locator.ts";
export { BASE_RULES, type BaseRule } from "./src/gate/base_rule.ts";
export type { ClaimLedger, RunStanding } from "./src/gate/claims.ts";
export type {
  ApprovalVerdict,
  GateRules,
  Tally,
} from "./src/gate/gate_tally.ts";
export {
  decideGate,
  type GateApproved,
  type GateDecision,
  type GateQuery,
  type GateWaiting,
  type PlanSets,
} from "./src/gate/decide_gate.ts";
export { type GateMember } from "./src/gate/records.ts";
export {
  type ApprovalNeed,
  needsApproval,
  type PlannedMember,
} from "./src/gate/policy_at_base.ts";

// Sealed approvals (SPEC.md §12).
export {
  approvalPayload,
  type ApprovalPayloadFields,
} from "./src/seal/approval_payload.ts";
export { type Seal, SEAL_NAMESPACE } from "./src/seal/seal.ts";
export { SealFormatError } from "./src/seal/seal.ts";
export {
  type AllowedSigner,
  type AllowedSigners,
  parseAllowedSigners,
  type SignersProblem,
} from "./src/seal/allowed_signers.ts";
export type { Pattern, PatternList } from "./src/seal/pattern_list.ts";
export {
  type EcdsaP256Key,
  type Ed25519Key,
  type RsaKey,
  SSH_KEY_TYPES,
  type SshKeyBlob,
  type SshKeyType,
  type SshPublicKey,
} from "./src/seal/ssh_public_key.ts";
export {
  SEAL_REFUSALS,
  type SealRefusal,
  type SealRefused,
  type SealVerdict,
  type SealVerified,
  verifySeal,
  type VerifySealInput,
} from "./src/seal/verify_seal.ts";

// Errors of untrusted input, exit codes, the version.
export { ShapeError } from "./src/input/shape_error.ts";
export * from "./src/exit_codes.ts";
export { VERSION } from "./src/version.ts";
