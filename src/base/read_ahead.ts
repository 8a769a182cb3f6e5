/**
 * What the approval rules read from git, read ahead (SPEC.md §4.12): the signers
 * file at each base and the change's people since each base are read before
 * the job runs its first command of the change, whose code could otherwise
 * rewrite the checkout's objects, refs or history before the gate reads them.
 * Later reads of the same file or range return what was read then; anything
 * not read ahead is read when asked. An edge over git.
 * @module
 */

import { changePeople } from "./change_people.ts";
import type { Git } from "../git/git.ts";
import type { SignersRef } from "../gate/approval_at_base.ts";
import { readSignersAt } from "./read_signers.ts";
import type { ChangePeople, SignersAtBase } from "../gate/judge_approvals.ts";

/** The rules' reads of git, memoised from before the job's first command. */
export interface ReadAhead {
  /**
   * The signers file at a base.
   * @param ref The commit and the path.
   * @returns It as read (ahead, when it was).
   */
  signersAt(ref: SignersRef): Promise<SignersAtBase>;
  /**
   * The change's authors, committers and commits since a base.
   * @param base The base commit (full sha).
   * @returns Them as read (ahead, when they were).
   */
  peopleSince(base: string): Promise<ChangePeople>;
  /**
   * Reads ahead for more bases (a decision record's), before the first command.
   * @param refs Each base's signers file.
   * @param options Whether the change's people are read too (not when no
   *   rule at these bases forbids self-approval: nothing asks for them).
   */
  prefetch(
    refs: readonly SignersRef[],
    options?: { people?: boolean },
  ): Promise<void>;
}

/**
 * Makes the memo for a job at `head` in `top`.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param head HEAD's full sha.
 * @returns The memo; call `prefetch` with the job's bases at once.
 */
export function readAhead(git: Git, top: string, head: string): ReadAhead {
  const signers = new Map<string, Promise<SignersAtBase>>();
  const people = new Map<string, Promise<ChangePeople>>();
  const memo: ReadAhead = {
    signersAt(ref) {
      const key = `${ref.sha}\0${ref.path}`;
      let read = signers.get(key);
      if (read === undefined) {
        read = readSignersAt(git, top, ref);
        signers.set(key, read);
      }
      return read;
    },
    peopleSince(base) {
      let read = people.get(base);
      if (read === undefined) {
        read = changePeople(git, top, { base, head });
        people.set(base, read);
      }
      return read;
    },
    async prefetch(refs, options = {}) {
      const people = options.people ?? true;
      await Promise.all(
        refs.flatMap((ref) => [
          memo.signersAt(ref),
          ...(people ? [memo.peopleSince(ref.sha)] : []),
        ]),
      );
    },
  };
  return memo;
}
