/**
 * Which remote the git ledger shares its branch through: the named one, else
 * `origin`, else none (records stay local and the log says so once).
 * @module
 */

import { InputError } from "../errors.ts";
import { GitError } from "../git/git_error.ts";
import {
  LEDGER_BRANCH,
  type LedgerContext,
  noteOnce,
} from "./_git_ledger_sync.ts";

/** The remote a `git` ledger uses when none is named. */
export const DEFAULT_LEDGER_REMOTE = "origin";

/** Finds the remote to use, once; in local mode logs so. */
export async function resolveRemote(
  ctx: LedgerContext,
  named: string | undefined,
): Promise<void> {
  const args = ["remote"];
  const out = await ctx.git.exec(args, { cwd: ctx.cwd });
  if (out.exitCode !== 0) {
    if (/not a git repository/.test(out.stderr)) {
      throw new InputError(
        `cannot open the git ledger: "${ctx.cwd}" is not in a git repository; ` +
          `run chant-wave in the checkout, or use a directory ledger`,
      );
    }
    throw new GitError(args, out.exitCode, out.stderr);
  }
  const remotes = new TextDecoder().decode(out.stdout).split("\n")
    .filter((line) => line !== "");
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
