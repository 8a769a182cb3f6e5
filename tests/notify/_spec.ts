/**
 * A small spec and job results for the notify tests.
 * @module
 */

import type { Decision } from "../../src/gate/decision.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import type { Spec } from "../../src/spec/types.ts";

/** Waves `dev` (whole) and `apply` (2 shares, or groups) of `tf-apply`. */
export const SPEC = {
  name: "tf-apply",
  gate: "tf-apply",
  waves: [{ k: 1, name: "dev", shares: 1 }, { k: 2, name: "apply", shares: 2 }],
  notify: { webhook: "CHANT_HOOK_URL", key: "CHANT_HOOK_KEY" },
} as unknown as Spec;

/** The digest of the decided plans. */
export const DIGEST = "sha256:" + "e".repeat(64);

/** A decision of wave `k` with `members` runs. */
export function decision(
  k: number,
  status: Decision["status"],
  members = 2,
): Decision {
  return {
    version: 1,
    decisionId: "dec-1",
    wave: k,
    name: "tf-apply",
    spec: "waves.jsonc",
    gate: `tf-apply-wave-${k}`,
    policy: "always",
    policySource: "base",
    policyReason: "read at 0123456789ab",
    base: "0".repeat(40),
    digest: DIGEST,
    members: Array.from({ length: members }, (_, i) => ({
      target: `t${i}`,
      planDigest: "sha256:" + "1".repeat(64),
      op: "tf",
    })),
    status,
    ...(status === "waiting"
      ? {
        approve:
          `chant-wave approve tf-apply tf-apply-wave-${k} --plan ${DIGEST}`,
      }
      : {}),
    createdAt: "2026-11-30T09:00:00.000Z",
  };
}

/** A job result. */
export function result(fields: Partial<JobResult>): JobResult {
  return {
    exitCode: 0,
    wave: 2,
    job: { kind: "wave" },
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
    ...fields,
  };
}
