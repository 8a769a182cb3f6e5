/**
 * Fetching and pushing one ref, and fetching commits by sha, with git's
 * outcome sorted into what a caller can act on: done, the remote has no such
 * ref, another writer was first (retry), a local lock is in the way, or the
 * remote refused or could not be reached (with git's reason, credentials in
 * URLs masked). Hooks of the local repository do not run (`--no-verify`),
 * FETCH_HEAD is not written and no tags follow. It knows nothing of ledgers.
 * @module
 */

import { maskCredentials } from "../console/visible.ts";
import type { Git } from "./git.ts";

/** The outcome of {@linkcode fetchRef}. */
export type FetchResult =
  | { ok: true }
  /** The remote has no such ref (yet). */
  | { ok: false; reason: "absent" }
  /** A local ref's lock file is in the way, or another process moved the ref. */
  | { ok: false; reason: "locked"; lockPath?: string; detail: string }
  /** Anything else: unreachable, no such repository, denied. */
  | { ok: false; reason: "failed"; detail: string };

/** The outcome of {@linkcode pushRef}. */
export type PushResult =
  | { ok: true }
  /** Another writer pushed first (non-fast-forward, or a lost race on the remote). */
  | { ok: false; reason: "behind"; detail: string }
  /** The remote refused the update (a hook, a protected branch). */
  | { ok: false; reason: "refused"; detail: string }
  /** The push did not happen (unreachable, authentication, permission). */
  | { ok: false; reason: "failed"; detail: string };

/**
 * Picks the lines of git's stderr that explain a failure, joined as one line:
 * `remote:` messages, `fatal:` and `error:` lines, without hints and blank lines.
 */
function gitReason(stderr: string): string {
  const lines = stderr.split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("hint:"))
    .filter((line) =>
      !/^(To |Done$|error: failed to push some refs)/.test(line)
    )
    .map((line) => line.replace(/^(remote|fatal|error):\s*/, ""))
    .filter((line) => line !== "");
  const unique = [...new Set(lines)];
  return unique.length ? maskCredentials(unique.join("; ")) : "no reason given";
}

const LOCK_FILE = /Unable to create '([^']+\.lock)': File exists/;

/** `git fetch`, quiet, writing no FETCH_HEAD, following no tags or submodules. */
const FETCH = [
  "fetch",
  "--quiet",
  "--no-tags",
  "--no-write-fetch-head",
  "--no-recurse-submodules",
  "--no-auto-gc",
];

/**
 * Fetches one ref of `remote` into a local ref, forced (`+src:dst`), quietly,
 * without tags and without writing FETCH_HEAD. Git updates `dst` only if it still
 * has the value it read (so concurrent fetches never move it backwards; the loser
 * reports `locked`).
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param remote A remote's name (or URL).
 * @param src The remote's ref (`refs/heads/chant/ledger`).
 * @param dst The local ref to update (`refs/remotes/origin/chant/ledger`).
 * @param depth How much history: `--depth=<n>` commits of it, or
 *   `--deepen=<n>` more of a shallow clone's; absent: all of it.
 * @returns What happened.
 * @throws {GitError} Only when git cannot be started.
 */
export async function fetchRef(
  git: Git,
  cwd: string,
  remote: string,
  src: string,
  dst: string,
  depth?: `--depth=${number}` | `--deepen=${number}`,
): Promise<FetchResult> {
  const out = await git.exec([
    ...FETCH,
    ...(depth === undefined ? [] : [depth]),
    remote,
    `+${src}:${dst}`,
  ], { cwd });
  if (out.exitCode === 0) return { ok: true };
  const { stderr } = out;
  if (/couldn't find remote ref/i.test(stderr)) {
    return { ok: false, reason: "absent" };
  }
  const lock = LOCK_FILE.exec(stderr);
  if (
    lock ||
    /cannot lock ref|some local refs could not be updated|shallow file has changed since we read it/
      .test(stderr)
  ) {
    return {
      ok: false,
      reason: "locked",
      ...(lock ? { lockPath: lock[1] } : {}),
      detail: gitReason(stderr),
    };
  }
  return { ok: false, reason: "failed", detail: gitReason(stderr) };
}

/**
 * Fetches commits by their full sha from `remote`, with their history, into
 * the object store only: no ref moves, FETCH_HEAD is not written and no tags
 * follow (for reading a commit another checkout ran at).
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param remote A remote's name.
 * @param shas The commits (full shas).
 * @returns `ok`, or `failed` with git's reason (the remote lacks one, cannot
 *   be reached, or denies it).
 * @throws {GitError} Only when git cannot be started.
 */
export async function fetchCommits(
  git: Git,
  cwd: string,
  remote: string,
  shas: readonly string[],
): Promise<{ ok: true } | { ok: false; detail: string }> {
  const out = await git.exec([...FETCH, remote, ...shas], { cwd });
  return out.exitCode === 0
    ? { ok: true }
    : { ok: false, detail: gitReason(out.stderr) };
}

/** Remote-side rejections that mean another writer updated the ref first. */
const LOST_RACE =
  /cannot lock ref|failed to update ref|incorrect old value|failed to lock|is at [0-9a-f]+ but expected|reference already exists/;

/**
 * Pushes commit `oid` to `dst` of `remote` without forcing (`git push --porcelain
 * --no-verify <remote> <oid>:<dst>`): the remote accepts it only as a
 * fast-forward. Local pre-push hooks do not run.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param remote A remote's name (or URL).
 * @param oid The commit to push.
 * @param dst The remote's ref (`refs/heads/chant/ledger`).
 * @returns `ok`; `behind` when another writer was first (fetch and rebuild);
 * `refused` when the remote declined it (hook, protected branch); `failed` when
 * it could not push at all (unreachable, denied).
 * @throws {GitError} Only when git cannot be started.
 */
export async function pushRef(
  git: Git,
  cwd: string,
  remote: string,
  oid: string,
  dst: string,
): Promise<PushResult> {
  const out = await git.exec([
    "push",
    "--porcelain",
    "--no-verify",
    "--no-recurse-submodules",
    remote,
    `${oid}:${dst}`,
  ], { cwd });
  if (out.exitCode === 0) return { ok: true };
  const stdout = new TextDecoder().decode(out.stdout);
  const line = stdout.split("\n").find((l) => l.startsWith("!\t")) ?? "";
  const status = line.split("\t")[2] ?? "";
  const detail = gitReason(out.stderr);
  if (status.startsWith("[rejected]")) {
    return { ok: false, reason: "behind", detail: status };
  }
  if (status.startsWith("[remote rejected]")) {
    const why = status.replace(/^\[remote rejected\]\s*/, "");
    if (LOST_RACE.test(why)) {
      return { ok: false, reason: "behind", detail: why };
    }
    const remoteSays = detail === "no reason given" ? "" : `: ${detail}`;
    return {
      ok: false,
      reason: "refused",
      detail: maskCredentials(
        `${why.replace(/^\((.*)\)$/, "$1")}${remoteSays}`,
      ),
    };
  }
  return { ok: false, reason: "failed", detail };
}
