/**
 * chant-wave applies one change in ordered, gated waves. This module is its
 * library face: the pure core (spec parsing, job expansion, share slicing, the set
 * digest, the gate decision, sealed-approval verification, the plan file of an
 * OpenTofu or Terraform plan) and the types it works with. The `chant-wave`
 * executable is `cli.ts`.
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

export { parseSpec } from "./src/spec/parse_spec.ts";
export { specJsonSchema } from "./src/spec/spec_json_schema.ts";
export { formatDuration, parseDuration } from "./src/spec/duration.ts";
export type * from "./src/spec/types.ts";
export {
  APPROVAL_MODES,
  DEFAULT_SIGNERS,
  GATE_POLICIES,
  HOOK_POINTS,
  ON_FAILURE,
  TOOL_KINDS,
} from "./src/spec/types.ts";
export { waveAt } from "./src/spec/wave_at.ts";
export { tofuPlanFile, type ToolPlanFile } from "./src/tofu/tofu_plan_file.ts";
export type { PlanChange } from "./src/run/plan_file.ts";
export {
  decisionRecordPath,
  expandJobs,
  type Job,
  JOB_KINDS,
  type JobKind,
} from "./src/jobs/expand_jobs.ts";
export { sliceShare, sortByTarget } from "./src/jobs/slice_shares.ts";
export { compilePattern, matchesPattern } from "./src/jobs/group_pattern.ts";
export {
  type DigestMember,
  isDigest,
  setDigest,
} from "./src/digest/set_digest.ts";
export {
  countingApprovals,
  decideGate,
  type GateApproved,
  type GateDecision,
  type GateMember,
  type GateQuery,
  type GateWaiting,
  type PlanSets,
} from "./src/ledger/decide_gate.ts";
export {
  type ApprovalVerdict,
  type GateRules,
  type Tally,
  tallyApprovals,
  tallyLine,
  verdictOf,
} from "./src/ledger/gate_tally.ts";
export {
  type ClaimLedger,
  claimLedger,
  planKey,
  type RunStanding,
} from "./src/ledger/claims.ts";
export { WAVE_OUTCOMES } from "./src/ledger/records.ts";
export type {
  ForgejoRunLocator,
  GithubRunLocator,
  GitlabRunLocator,
  RunLocator,
} from "./src/forge/run_locator.ts";
export type {
  ApprovalRecord,
  ClaimedRun,
  ClaimRecord,
  ExpiredRecord,
  LedgerRecord,
  OutcomeJob,
  OutOfOrderRecord,
  PendingRecord,
  PlanPair,
  RecordBase,
  RecordedPlansRecord,
  RecordedWave,
  RunOutcomeRecord,
  SettledRun,
  WaveOutcome,
  WaveOutcomeRecord,
} from "./src/ledger/records.ts";
export {
  type ApprovalNeed,
  needsApproval,
  type PlannedMember,
} from "./src/policy/needs_approval.ts";
export {
  type PolicyAtBase,
  policyAtBase,
  type PolicySource,
  strictestPolicy,
} from "./src/policy/policy_at_base.ts";
export {
  type BaseSpec,
  baseSpecOf,
  type ParseSpecFn,
} from "./src/policy/base_spec.ts";
export {
  BASE_RULES,
  type BaseRule,
  isTrustedRule,
} from "./src/policy/base_rule.ts";
export {
  approvalAtBase,
  type ApprovalRules,
  describeApprovers,
  describeMode,
  type SignersRef,
  strictestMode,
  strictestRules,
} from "./src/policy/approval_at_base.ts";
export {
  principalAllowed,
  principalMatches,
} from "./src/policy/principal_pattern.ts";
export {
  judgeApprovals,
  type JudgeInput,
} from "./src/policy/judge_approvals.ts";
export type { Confirmation } from "./src/review/confirm_approvals.ts";
export type { SignersAtBase } from "./src/policy/read_signers.ts";
export type { ChangePeople, ChangePerson } from "./src/git/change_people.ts";
export {
  describeGoverning,
  type GoverningWave,
  governingWaves,
  type WaveRef,
} from "./src/policy/governing_waves.ts";
export {
  APPROVAL_PAYLOAD_HEADER,
  approvalPayload,
  type ApprovalPayloadFields,
} from "./src/seal/approval_payload.ts";
export { type Seal, SEAL_NAMESPACE } from "./src/seal/seal.ts";
export { SealFormatError } from "./src/seal/seal_format_error.ts";
export {
  type AllowedSigner,
  type AllowedSigners,
  parseAllowedSigners,
  type SignersProblem,
} from "./src/seal/allowed_signers.ts";
export { normalisePrincipal } from "./src/seal/normalise_principal.ts";
export {
  matchesPatternList,
  type Pattern,
  type PatternList,
} from "./src/seal/pattern_list.ts";
export {
  type EcdsaP256Key,
  type Ed25519Key,
  parseSshPublicKeyLine,
  type RsaKey,
  SSH_KEY_TYPES,
  type SshKeyBlob,
  sshKeyFingerprint,
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
export {
  formatProblem,
  InputError,
  SpecError,
  type SpecProblem,
} from "./src/errors.ts";
export * from "./src/exit_codes.ts";
export { VERSION } from "./src/version.ts";
