/**
 * Which remote the git ledger shares its branch through (the named one, else
 * `origin`, else none: records stay local and the log says so once), and the
 * clone's writer lock (`<git dir>/chant-ledger.lock`): processes writing the
 * ledger from the same clone take turns, so they neither fight over the
 * clone's refs nor race each other to the remote. The lock is only a
 * speed-up: correctness comes from the push, so a clone whose git folder
 * cannot be found or written, or a holder that stays past the budget, is not
 * waited for. After a write, the clone's object store is tidied under the same
 * lock when it is cluttered (`tidyClone`). Private to the git ledger.
 * @module
 */

import { InputError } from "../../errors.ts";
import { LEDGER_BRANCH, type LedgerContext, noteOnce, sleep } from "./_sync.ts";
import { openSettings, remotesIn } from "./_settings.ts";
import { parseSettings } from "../../git/repository_settings.ts";
import { readFile, stat } from "node:fs/promises";
// @ts-types="../../../types/std/path.d.ts"
import { dirname, join, resolve } from "@std/path";
import { tryPidLock } from "../../fs/pid_lock.ts";
import {
  cluttered,
  countClutter,
  tidyObjects,
} from "../../git/tidy_objects.ts";

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
 * Tidies the clone's object store when it is cluttered (see `tidy_objects.ts`),
 * holding the clone's writer lock, so no other chant-wave process writes the
 * clone meanwhile; when another holds it, does nothing (that writer tidies
 * after its own write). Costs two folder reads when the store is tidy. Best
 * effort: nothing it meets is an error.
 * @param ctx The ledger (its git seam and clock).
 * @param gitDir The clone's common git folder, if known.
 */
export async function tidyClone(
  ctx: LedgerContext,
  gitDir: string | undefined,
): Promise<void> {
  if (gitDir === undefined || !cluttered(await countClutter(gitDir))) return;
  const got = await tryPidLock({
    path: join(gitDir, "chant-ledger.lock"),
    clock: ctx.clock,
  }).catch(() => undefined);
  if (!got?.ok) return;
  try {
    await tidyObjects(ctx.git, gitDir);
  } finally {
    await got.release();
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

/** The remote a `git` ledger uses when none is named. */
export const DEFAULT_LEDGER_REMOTE = "origin";

/**
 * Finds the remote to use, once, and keeps the clone's git settings as they
 * are now (before the change's first command): a later fetch or push checks
 * them first (`_settings.ts`). Settings that come from a file of the checkout
 * are refused. In local mode logs so.
 */
export async function resolveRemote(
  ctx: LedgerContext,
  named: string | undefined,
): Promise<void> {
  const settings = await openSettings(ctx.git, ctx.cwd);
  ctx.settings = settings.snapshot;
  const remotes = remotesIn(parseSettings(settings.text));
  const wanted = named ?? DEFAULT_LEDGER_REMOTE;
  const known = remotes.length ? `; its remotes: ${remotes.join(", ")}` : "";
  if (remotes.includes(wanted)) {
    ctx.remote = wanted;
    ctx.tracking = `refs/remotes/${wanted}/${LEDGER_BRANCH}`;
  } else if (named !== undefined) {
    throw new InputError(
      `ledger "git:${named}": the repository has no remote "${named}"${known}`,
    );
  } else if (remotes.length > 0) {
    throw new InputError(
      `ledger "git": the repository has no remote "${wanted}"${known}; ` +
        `name one with --ledger git:<remote>`,
    );
  } else {
    noteOnce(
      ctx,
      `git ledger: the repository has no remote; records stay on the local ` +
        `branch ${LEDGER_BRANCH} ("chant-wave ledger push" sends them once it has one)`,
    );
  }
}

/** The remote, or an error saying that `ledger <action>` needs one. */
export function needRemote(ctx: LedgerContext, action: string): string {
  if (ctx.remote !== undefined) return ctx.remote;
  throw new InputError(
    `"ledger ${action}" needs a remote: the repository has none, so the ` +
      `records stay on the local branch ${LEDGER_BRANCH}`,
  );
}
