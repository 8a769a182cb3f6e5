/**
 * A rollout whose change was merged through a pull request on a fake forge
 * (SPEC.md §13), for the end-to-end tests of forge gates: pull request #12 of
 * carol with the rollout's head as its head, its plans recorded at that head by
 * the binary (`run --record-plans`: commit statuses on GitHub and Forgejo, the
 * job's artifact on GitLab), and the merge commit checked out, as the job on
 * the merged commit sees it. Tests only.
 * @module
 */

import type { Forge } from "../../src/ci/forges.ts";
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type FakeForge, fakeForge, keepPlansArtifact } from "./fake_forge.ts";
import { type Rollout, rollout, type RolloutOptions, SPEC } from "./rollout.ts";

/** When the reviews of the tests were submitted. */
export const REVIEWED_AT = "2026-11-30T10:00:00Z";

/** Pull request #12 of carol, head = the rollout's head, merged as `merge` (checked out). */
export interface MergedPull extends AsyncDisposable {
  r: Rollout;
  fake: FakeForge;
  /** The merge commit. */
  merge: string;
  /** The CI environment of the jobs on the merge commit, with the token. */
  env: Record<string, string>;
  /** Records the plans at the head through the binary, as the pull-request job does. */
  recordPlans(): Promise<void>;
  /** Writer `user`'s review of #12 approves `commit`. */
  approves(user: string, commit: string): void;
}

/** Options of {@linkcode mergedPull}. */
export interface MergedOptions extends RolloutOptions {
  /** The forge (default GitHub). */
  forge?: Forge;
  /**
   * Whether the pull-request job recorded the plans at the head.
   * @default {true}
   */
  recordPlans?: boolean;
}

/**
 * Builds the merged pull request: the rollout, the fake forge, the plans
 * recorded at the head (unless told not to), the merge commit. The fake's
 * requests are cleared, so a test sees only what the merged commit's jobs ask.
 * @param spec The spec at base.
 * @param options The rollout's options, the forge, whether plans are recorded.
 * @returns The merged pull request.
 */
export async function mergedPull(
  spec: Record<string, unknown>,
  options: MergedOptions = {},
): Promise<MergedPull> {
  const forge = options.forge ?? "github";
  const r = await rollout(spec, options);
  const fake = fakeForge(forge);
  const env: Record<string, string> = forge === "gitlab"
    ? {
      GITLAB_CI: "true",
      CI_API_V4_URL: fake.apiUrl,
      CI_PROJECT_ID: "42",
      GITLAB_TOKEN: fake.token,
    }
    : {
      [forge === "github" ? "GITHUB_ACTIONS" : "FORGEJO_ACTIONS"]: "true",
      GITHUB_REPOSITORY: "octo/hello",
      GITHUB_API_URL: fake.apiUrl,
      GITHUB_TOKEN: fake.token,
    };
  const recordPlans = async () => {
    await r.repo.git("checkout", "-q", "--detach", r.head);
    const out = await r.run(["run", ...SPEC, "--record-plans"], env);
    expect(out.code).toBe(0);
    const file = ".chant/recorded-plans/tf.json";
    const text = await Deno.readTextFile(`${r.path}/${file}`).catch(() => "");
    // GitLab keeps the file the job wrote (none: nothing was handed over).
    if (forge === "gitlab" && text !== "") {
      keepPlansArtifact(fake, 12, r.head, file, text);
    }
  };
  if (options.recordPlans ?? true) await recordPlans();
  await r.repo.git("checkout", "-q", "--detach", r.base);
  await r.repo.git("merge", "-q", "--no-ff", "-m", "Merge #12", r.head);
  const merge = await r.repo.git("rev-parse", "HEAD");
  fake.state.pulls.push({
    number: 12,
    author: "carol",
    headSha: r.head,
    merged: true,
    mergeSha: merge,
  });
  fake.requests.length = 0;
  return {
    r,
    fake,
    merge,
    env,
    async recordPlans() {
      await recordPlans();
      await r.repo.git("checkout", "-q", "--detach", merge);
    },
    approves(user, commit) {
      const { state } = fake;
      if (forge === "gitlab") {
        state.versions.set(12, [{
          head: commit,
          createdAt: "2026-11-30T09:00:00Z",
        }]);
        state.approvals.set(12, [{ user, approvedAt: REVIEWED_AT }]);
        state.members.set(user, { id: 5, accessLevel: 30 });
        return;
      }
      state.reviews.set(12, [
        { user, state: "APPROVED", commitId: commit, submittedAt: REVIEWED_AT },
      ]);
      state.permissions.set(user, "write");
    },
    async [Symbol.asyncDispose]() {
      await fake[Symbol.asyncDispose]();
      await r[Symbol.asyncDispose]();
    },
  };
}
