/**
 * Opens the ledger a command names (SPEC.md §5.1): `--ledger L`, else
 * `CHANT_WAVE_LEDGER`, else the spec's `ledger`, else `.chant/ledger`; a
 * directory, or the git-backed ledger (`git`, `git:<remote>`) on the branch
 * `chant/ledger` of the checkout the command runs in. Also the `--ledger`
 * argument printed commands need to reach the same one. For `run` (§4.12) the
 * spec's `ledger` is the one at the job's base, never the working copy's (the
 * spec in a change must not point the job at a ledger it controls); when the
 * chain rule reads several versions they must all name the same ledger, else
 * the default directory ledger is used, and a working copy that says otherwise
 * gets a warning.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { lstat, readdir, realpath } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { dirname, isAbsolute, join, relative, resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { DEFAULT_LEDGER_DIR, dirLedger } from "../ledger/dir/dir_ledger.ts";
import { gitLedger, REMOTE_NAME } from "../ledger/git/git_ledger.ts";
import { maskCredentials } from "../console/visible.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import type { Ledger } from "../ledger/ledger.ts";
import type { CliIo } from "./io.ts";
import { DEFAULT_FETCH_REMOTE } from "../base/pending_rules.ts";
import type { ParseSpecFn } from "../gate/base_spec.ts";
import { type SpecsAtBase, specsAtBase } from "./_spec_at_base.ts";
import { quote } from "../quote.ts";
import type { Spec } from "../spec/types.ts";

/** Where a command's ledger is, and what chose it. */
export interface LedgerChoice {
  /** As `--ledger` takes it: `git`, `git:<remote>` or a directory. */
  where: string;
  /** `--ledger`, `CHANT_WAVE_LEDGER`, the spec's `ledger`, or the default. */
  from: "flag" | "environment" | "spec" | "default";
}

/**
 * Chooses a command's ledger: the flag, else the environment, else the spec's
 * `ledger`, else `.chant/ledger`.
 * @param flag The `--ledger` value, if given.
 * @param env The environment.
 * @param specLedger The spec's `ledger` (for `run`: the spec at base), if any.
 * @returns The choice.
 * @example
 * ```ts
 * chooseLedger(undefined, {}, "git"); // { where: "git", from: "spec" }
 * ```
 */
export function chooseLedger(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  specLedger?: string,
): LedgerChoice {
  if (flag !== undefined) return { where: flag, from: "flag" };
  const fromEnv = env.CHANT_WAVE_LEDGER;
  if (fromEnv !== undefined && fromEnv !== "") {
    return { where: fromEnv, from: "environment" };
  }
  if (specLedger !== undefined) return { where: specLedger, from: "spec" };
  return { where: DEFAULT_LEDGER_DIR, from: "default" };
}

/**
 * Opens the ledger for a command. `git` shares the branch through the remote
 * `origin` (or keeps it local when the repository has no remote); `git:<remote>`
 * names the remote. Anything else is a directory, relative to the working
 * directory. No record is read or written until the store is used; a directory
 * ledger is first checked (SPEC.md §14): no symbolic link on the way to it, and no
 * file in it committed to the repository, since a change could commit a forged
 * approval there.
 * A directory ledger with no record yet, in a repository that has the branch
 * `chant/ledger`, gets a note saying so: its commands would judge an empty
 * ledger while the approvals are on the branch.
 * @param choice Where the ledger is ({@linkcode chooseLedger}).
 * @param io The edges (environment, working directory, git, clock, log).
 * @returns The store.
 * @throws {InputError} For `git:` without a remote name or with an invalid one,
 *   and for a directory ledger reached through a link or holding committed files.
 */
export async function openLedger(
  choice: LedgerChoice,
  io: Pick<CliIo, "env" | "cwd" | "git" | "clock" | "stderr">,
): Promise<Ledger> {
  const { where } = choice;
  if (where === "git" || where.startsWith("git:")) {
    const remote = where === "git" ? undefined : where.slice("git:".length);
    if (remote === "") {
      throw new InputError(
        `ledger "${where}": name the remote after "git:", e.g. "git:origin"`,
      );
    }
    if (remote !== undefined && !REMOTE_NAME.test(remote)) {
      throw new InputError(
        `ledger "${
          maskCredentials(where)
        }": not a valid remote name; name a remote ("git:origin"), not a URL`,
      );
    }
    return gitLedger({
      git: io.git,
      // Its git runs from the work tree's top, where git finds the clone's
      // own .git first: no folder of the checkout on the way down to the
      // working directory can become the repository it fetches and pushes
      // in, even one a command of the change makes a git directory mid-job.
      cwd: await io.git.topLevel(io.cwd) ?? io.cwd,
      ...(remote === undefined ? {} : { remote }),
      clock: io.clock,
      log: lineLog(io.stderr),
      // One command, one fetch (a write still pushes on the newest tip).
      fetchOnce: true,
      fetchAtOpen: true,
    });
  }
  const from = choice.from === "default" ? await defaultLedgerHome(io) : io.cwd;
  const root = resolve(from, where);
  if (!isAbsolute(where)) {
    refuseLinks(from, where.split(/[\\/]/), "the ledger");
  }
  await refuseCommitted(io, root);
  await noteGitLedger(root, io);
  return dirLedger(root, { clock: io.clock });
}

/**
 * The `--ledger` argument that reaches the same ledger as this command, for the
 * commands chant-wave prints (`then approve: … --ledger git`), whatever chose
 * it (a printed `approve NAME GATE` reads no spec, and `run` reads the spec at
 * base); nothing for the default directory ledger.
 * @param choice Where this command's ledger is.
 * @returns The argument, or `undefined` for the default.
 * @example
 * ```ts
 * ledgerArgument({ where: "git", from: "spec" }); // "git"
 * ```
 */
export function ledgerArgument(choice: LedgerChoice): string | undefined {
  return choice.where === DEFAULT_LEDGER_DIR ? undefined : choice.where;
}

/**
 * The remote a command fetches a commit it lacks from: the git ledger's
 * (`git:<remote>`), else `origin`.
 * @param choice Where the ledger is.
 * @returns The remote's name.
 * @example
 * ```ts
 * fetchRemote({ where: "git:upstream", from: "flag" }); // "upstream"
 * ```
 */
export function fetchRemote(choice: LedgerChoice): string {
  return choice.where.startsWith("git:")
    ? choice.where.slice("git:".length)
    : DEFAULT_FETCH_REMOTE;
}

/**
 * Says when a directory ledger holds no gate yet while this repository has the
 * git ledger's branch (`chant/ledger`, on a remote or local): the approvals are
 * likely there.
 */
async function noteGitLedger(
  root: string,
  io: Pick<CliIo, "cwd" | "git" | "stderr">,
): Promise<void> {
  const gates = await readdir(join(root, "gates")).catch(() => []);
  if (gates.length > 0) return;
  const out = await io.git.exec([
    "for-each-ref",
    "--count=1",
    "--sort=-refname",
    "--format=%(refname)",
    "refs/remotes/*/chant/ledger",
    "refs/heads/chant/ledger",
  ], { cwd: io.cwd }).catch(() => undefined);
  const ref = out?.exitCode === 0
    ? new TextDecoder().decode(out.stdout).trim()
    : "";
  if (ref === "") return;
  const remote = /^refs\/remotes\/(.+)\/chant\/ledger$/.exec(ref)?.[1];
  const arg = remote === undefined || remote === "origin"
    ? "git"
    : `git:${remote}`;
  const shown = relative(io.cwd, root) || ".";
  const branch = remote === undefined
    ? "chant/ledger"
    : `${remote}/chant/ledger`;
  lineLog(io.stderr)(
    `note: the ledger ${shown} is empty, but this repository has the git ledger ${branch}: pass --ledger ${arg}, or set "ledger": "${arg}" in the spec`,
  );
}

/**
 * Where the default `.chant/ledger` is: the nearest directory from the working
 * directory up to the repository's top level that has one, so `approve` run in
 * a subdirectory finds the ledger `run` wrote; else the working directory.
 */
async function defaultLedgerHome(
  io: Pick<CliIo, "cwd" | "git">,
): Promise<string> {
  const top = await io.git.topLevel(io.cwd).catch(() => undefined);
  if (top === undefined) return io.cwd;
  const realTop = await realpath(top).catch(() => top);
  let dir = await realpath(io.cwd).catch(() => io.cwd);
  for (;;) {
    const found = await lstat(join(dir, DEFAULT_LEDGER_DIR)).then(
      (stat) => stat.isDirectory(),
      () => false,
    );
    if (found) return dir;
    if (dir === realTop || dirname(dir) === dir) return io.cwd;
    dir = dirname(dir);
  }
}

/** Refuses a directory ledger that holds files the repository tracks. */
async function refuseCommitted(
  io: Pick<CliIo, "cwd" | "git">,
  root: string,
): Promise<void> {
  const out = await io.git.exec(["ls-files", "-z", "--", root], {
    cwd: io.cwd,
  }).catch(() => undefined);
  if (out?.exitCode !== 0 || out.stdout.length === 0) return;
  const first = new TextDecoder().decode(out.stdout).split("\0")[0];
  throw new InputError(
    `the ledger directory "${root}" holds files committed to the repository (${first}); a change could forge approvals there`,
    [
      "keep .chant/ out of the repository (.gitignore), or share approvals with --ledger git",
    ],
  );
}

/** What `run` chooses its ledger from. */
export interface RunLedgerInput {
  /** `--ledger`, if given. */
  flag?: string;
  /** The working copy's spec. */
  spec: Spec;
  /** The spec file as the user named it. */
  specFile: string;
  /** `--base`, if given. */
  baseFlag?: string;
  /** Whether a base that cannot be read leaves the default ledger (else it throws). */
  lenient?: boolean;
  /**
   * Parses the spec at base; `run` passes the parser its job uses too, which
   * remembers what it parsed. @default {a fresh `parseSpec`}
   */
  parse?: ParseSpecFn;
}

/**
 * Chooses the ledger of a command an approver or operator runs (`approve`,
 * `show`, `status`, `revoke`, `ledger`, `resume`): the flag, the environment,
 * else, with `--spec`, the working copy's `ledger` when every version of the
 * spec read at base names it too (the working copy is the change's, which
 * could send an approval, a revoke or a sealed approval to a fork's remote or
 * a directory no job reads), else the default.
 * @param command The command, for the message.
 * @param flag `--ledger`, if given.
 * @param named The spec file as the user named it, its working copy, and the
 * spec at base when the caller read it already.
 * @param io Git, the working directory, the environment and the log.
 * @returns The choice.
 * @throws {InputError} When the base cannot be read, or the versions read
 * there do not all name the working copy's `ledger` (pass `--ledger`).
 */
export async function commandLedger(
  command: string,
  flag: string | undefined,
  named: { file: string; spec: Spec; atBase?: SpecsAtBase } | undefined,
  io: Pick<CliIo, "git" | "cwd" | "env" | "stderr">,
): Promise<LedgerChoice> {
  const chosen = chooseLedger(flag, io.env);
  if (named === undefined || chosen.from !== "default") return chosen;
  const { sha, specs } = named.atBase ??
    await specsAtBase(named.file, io, { approver: true });
  const atBase = new Set(specs.map((spec) => spec?.ledger));
  const own = named.spec.ledger;
  if (atBase.size === 1 && atBase.has(own)) {
    return chooseLedger(undefined, io.env, own);
  }
  throw new InputError(
    `${named.file}: ${
      atBase.has(own)
        ? `the versions of the spec read at base ${
          sha.slice(0, 12)
        } name different ledgers`
        : `this change sets "ledger" to ${
          shownLedger(own)
        }, which the spec at base ${sha.slice(0, 12)} does not`
    } (${
      [...atBase].map(shownLedger).join(", ")
    }); pass --ledger to say which ledger ${command} uses`,
  );
}

/** A `ledger` value as messages show it. */
function shownLedger(value: string | undefined): string {
  return value === undefined ? "unset" : quote(maskCredentials(value));
}

/**
 * Chooses the ledger of a `run`: the flag, the environment, else the spec's
 * `ledger` at the job's base.
 * @param input The flag, the working copy's spec, its file and `--base`.
 * @param io Git, the working directory, the environment and the log.
 * @returns The choice.
 * @throws {InputError} When the base cannot be read (unless `lenient`).
 */
export async function runLedger(
  input: RunLedgerInput,
  io: Pick<CliIo, "git" | "cwd" | "env" | "stderr">,
): Promise<LedgerChoice> {
  const chosen = chooseLedger(input.flag, io.env);
  if (chosen.from !== "default") return chosen;
  let atBase: string | undefined;
  let sha: string;
  try {
    const read = await specsAtBase(input.specFile, io, {
      ...(input.baseFlag === undefined ? {} : { baseFlag: input.baseFlag }),
      ...(input.parse === undefined ? {} : { parse: input.parse }),
    });
    const named = new Set(read.specs.map((spec) => spec?.ledger));
    sha = read.sha;
    if (named.size > 1) {
      lineLog(io.stderr)(
        `warning: the versions of the spec read at base name different ledgers (${
          [...named].map((v) =>
            v === undefined ? "unset" : quote(maskCredentials(v))
          )
            .join(", ")
        }); the ledger is the default, ${
          quote(chosen.where)
        } (--ledger or CHANT_WAVE_LEDGER in the pipeline file override it)`,
      );
      return chosen;
    }
    atBase = [...named][0];
  } catch (error) {
    if (input.lenient) return chosen;
    throw error;
  }
  const choice = chooseLedger(undefined, io.env, atBase);
  if (input.spec.ledger !== atBase) {
    lineLog(io.stderr)(
      `warning: this change sets "ledger" to ${
        shownLedger(input.spec.ledger)
      }; run reads it at base ${sha.slice(0, 12)}, where it is ${
        shownLedger(atBase)
      }, so the ledger is ${
        quote(maskCredentials(choice.where))
      } (--ledger or CHANT_WAVE_LEDGER in the pipeline file override it)`,
    );
  }
  return choice;
}
