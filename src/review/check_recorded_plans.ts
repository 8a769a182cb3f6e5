/**
 * Whether a review still speaks for the plans (SPEC.md §13): the digest the
 * pull-request pipeline handed over for a wave at the reviewed head must be the
 * one digest every hand-off of that head claims for it, and equal the digest
 * the wave plans now, on the merged commit. The hand-offs were written by the
 * pull request's own code, so anything that cannot be read or that disagrees
 * refuses; a claim never approves by itself. Pure: claims in, verdict out.
 * @module
 */

import type { PlanClaim } from "../forge/plans_handoff.ts";

/** Whose recorded plans are weighed: the pull request, its head and the wave. */
export interface RecordedPlansQuery {
  /** Every claim the forge holds for the head (`ForgeClient.handedPlans`). */
  claims: readonly PlanClaim[];
  /** The pull request's number, for messages. */
  pullRequest: number;
  /** The reviewed head commit (full sha). */
  head: string;
  /** The wave: its number and name. */
  wave: { k: number; name: string };
}

/** The one digest the head's hand-offs agree on for the wave, or why none. */
export type RecordedDigest = { digest: string } | { refused: string };

/**
 * The digest recorded for the wave at the head: the claims for the wave (and
 * any that could not be read as a whole) must all be readable and name one
 * digest.
 * @param query The claims, the pull request, its head and the wave.
 * @returns The digest, or the refusal: no recorded plans (at the head, or for
 *   the wave), a hand-off that cannot be read, or hand-offs that disagree.
 * @example
 * ```ts
 * recordedDigest({ claims: [], pullRequest: 7, head, wave: { k: 1, name: "prod" } });
 * // { refused: "no recorded plans for #7 at its head 0123456789ab: its pipeline runs chant-wave run --record-plans" }
 * ```
 */
export function recordedDigest(query: RecordedPlansQuery): RecordedDigest {
  const { pullRequest, head, wave } = query;
  const at = `#${pullRequest} at ${head.slice(0, 12)}`;
  if (query.claims.length === 0) {
    return {
      refused: `no recorded plans for #${pullRequest} at its head ${
        head.slice(0, 12)
      }: its pipeline runs chant-wave run --record-plans`,
    };
  }
  const relevant = query.claims.filter((claim) =>
    claim.wave === undefined || claim.wave === wave.k
  );
  const unread = relevant.find((claim) => claim.digest === undefined);
  if (unread !== undefined) {
    return {
      refused: `the recorded plans of ${at} cannot be read: ${unread.from}: ${
        unread.problem ?? "it names no digest"
      }`,
    };
  }
  if (relevant.length === 0) {
    return {
      refused:
        `no recorded plans for wave ${wave.k} "${wave.name}" in the plans of ${at}`,
    };
  }
  const digests = [...new Set(relevant.map((claim) => claim.digest!))];
  if (digests.length > 1) {
    const shown = digests.slice(0, 3).map((digest) =>
      `${digest} (${relevant.find((claim) => claim.digest === digest)!.from})`
    );
    return {
      refused:
        `the recorded plans of ${at} disagree for wave ${wave.k} "${wave.name}": ${
          shown.join(", ")
        }`,
    };
  }
  return { digest: digests[0] };
}

/**
 * Checks the plans recorded at `head` for the wave against the digest planned now.
 * @param query The claims, the pull request, its head, the wave and the digest.
 * @returns `undefined` when they agree, else the refusal reason: those of
 *   {@linkcode recordedDigest}, or the plan moved after the review.
 * @example
 * ```ts
 * checkRecordedPlans({ claims: [{ from: "status 3", wave: 1, digest: d1 }],
 *   pullRequest: 7, head, wave: { k: 1, name: "prod" }, digest: d2 });
 * // "the plan moved after the review: #7 at 0123456789ab recorded sha256:… for wave 1 \"prod\", but it plans sha256:… now"
 * ```
 */
export function checkRecordedPlans(
  query: RecordedPlansQuery & { digest: string },
): string | undefined {
  const recorded = recordedDigest(query);
  if ("refused" in recorded) return recorded.refused;
  if (recorded.digest === query.digest) return undefined;
  const { pullRequest, head, wave } = query;
  return `the plan moved after the review: #${pullRequest} at ${
    head.slice(0, 12)
  } recorded ${recorded.digest} for wave ${wave.k} "${wave.name}", but it plans ${query.digest} now`;
}
