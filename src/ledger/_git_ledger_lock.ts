/**
 * The git ledger's writer lock of one clone (`<git dir>/chant-ledger.lock`):
 * processes writing the ledger from the same clone take turns, so they neither
 * fight over the clone's refs nor race each other to the remote (half the lost
 * pushes, and the CPU they burn, when two jobs share a clone). Only a speed-up:
 * correctness comes from the push, so a clone whose git folder cannot be found
 * or written, or a holder that stays past the budget, is simply not waited for.
 * Private to the git ledger.
 * @module
 */

import { readFile, stat } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { dirname, join, resolve } from "@std/path";
import { tryPidLock } from "../fs/pid_lock.ts";
import { type LedgerContext, sleep } from "./_git_ledger_sync.ts";

const POLL_MS = 25;
/**
 * A writer that waited for a sibling of its clone starts after a random pause
 * below this, so a clone whose writer just won does not keep winning while the
 * writers of other clones are between retries.
 */
const POLITE_MS = 500;

/**
 * Runs `work` holding the clone's writer lock: waits (polling) while a live
 * process of this clone holds it, up to the ledger's budget, then pauses a
 * random moment (under 0.5 s) before it writes, for fairness between clones.
 * @param ctx The ledger (its clock and budget).
 * @param gitDir The clone's common git folder, if known.
 * @param work What to do under the lock.
 * @returns What `work` returned.
 * @throws {Error} Whatever `work` throws.
 */
export async function withCloneLock<T>(
  ctx: LedgerContext,
  gitDir: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (gitDir === undefined) return await work();
  const path = join(gitDir, "chant-ledger.lock");
  const deadline = ctx.clock.now() + ctx.budgetMs;
  for (let waited = false;; waited = true) {
    const got = await tryPidLock({ path, clock: ctx.clock }).catch(() =>
      undefined
    );
    if (got === undefined) return await work();
    if (got.ok) {
      try {
        if (waited) {
          await sleep(ctx.clock, Math.floor(Math.random() * POLITE_MS));
        }
        return await work();
      } finally {
        await got.release();
      }
    }
    if (ctx.clock.now() >= deadline) return await work();
    await sleep(ctx.clock, POLL_MS + Math.floor(Math.random() * POLL_MS));
  }
}

/**
 * The common git folder of the repository holding `cwd`, found without running
 * git: the nearest `.git` folder upwards, or the folder a `.git` file names
 * (`gitdir: …`), followed to its `commondir` for a linked worktree.
 * @param cwd A folder inside the repository.
 * @returns The folder, or `undefined` when none is found.
 */
export async function commonGitDir(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd);; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const found = await stat(dotGit).catch(() => undefined);
    if (found?.isDirectory()) return dotGit;
    if (found?.isFile()) {
      const text = await readFile(dotGit, "utf8").catch(() => "");
      const named = /^gitdir: (.+)$/m.exec(text)?.[1];
      if (named === undefined) return undefined;
      const gitDir = resolve(dir, named.trim());
      const common = await readFile(join(gitDir, "commondir"), "utf8")
        .catch(() => undefined);
      return common === undefined ? gitDir : resolve(gitDir, common.trim());
    }
    if (dirname(dir) === dir) return undefined;
  }
}
