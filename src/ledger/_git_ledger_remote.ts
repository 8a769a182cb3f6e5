/**
 * Which remote the git ledger shares its branch through: the named one, else
 * `origin`, else none (records stay local and the log says so once).
 * @module
 */

import { InputError } from "../errors.ts";
import { readSettings } from "./_git_ledger_settings.ts";
import {
  LEDGER_BRANCH,
  type LedgerContext,
  noteOnce,
} from "./_git_ledger_sync.ts";

/** The remote a `git` ledger uses when none is named. */
export const DEFAULT_LEDGER_REMOTE = "origin";

/** The remotes the settings define (`remote.<name>.<key>`), in order. */
function remotesIn(settings: string): string[] {
  const names = new Set<string>();
  for (const entry of settings.split("\0")) {
    const key = entry.slice(0, entry.indexOf("\n") >>> 0);
    const last = key.lastIndexOf(".");
    if (key.startsWith("remote.") && last > "remote.".length) {
      names.add(key.slice("remote.".length, last));
    }
  }
  return [...names];
}

/**
 * Finds the remote to use, once, and keeps the clone's git settings as they
 * are now (before the change's first command): a later fetch or push checks
 * them first (`_git_ledger_settings.ts`). In local mode logs so.
 */
export async function resolveRemote(
  ctx: LedgerContext,
  named: string | undefined,
): Promise<void> {
  const settings = await readSettings(ctx.git, ctx.cwd);
  ctx.settings = settings;
  const remotes = remotesIn(settings);
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
