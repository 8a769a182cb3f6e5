/**
 * A small world for the git ledger tests: a bare repository as the remote, a
 * checkout with `origin` pointing at it, and more clones on demand, all in one
 * temporary directory removed by `await using`. Uses `Deno.*` (tests only).
 * @module
 */

import { join } from "node:path";
import { realClock } from "../../src/clock.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { type MemoryWriter, memoryWriter } from "../../src/console/writer.ts";
import { Interrupts } from "../../src/exec/interrupts.ts";
import { createGit, type Git } from "../../src/git/git.ts";
import {
  type GitLedger,
  gitLedger,
  type GitLedgerOptions,
} from "../../src/ledger/git/git_ledger.ts";
import {
  type ApprovalRecord,
  approvalRecord,
  newStamp,
} from "../../src/gate/records.ts";
import { type TempRepo, tempRepo } from "../_helpers/temp_repo.ts";

/** A remote and clones of it. */
export interface LedgerWorld extends AsyncDisposable {
  /** The first checkout (`<root>/repo`), with one commit and `origin`. */
  repo: TempRepo;
  /** The bare remote's path. */
  remote: string;
  /** The git seam, in the isolated test environment. */
  git: Git;
  /**
   * Clones the remote into `<root>/<name>`.
   * @returns The clone's path.
   */
  clone(name: string): Promise<string>;
  /** Opens a git ledger in `cwd`; its log lines are collected in `logs`. */
  open(
    cwd: string,
    options?: Partial<GitLedgerOptions>,
  ): { ledger: GitLedger; logs: string[] };
}

/**
 * Builds the world: `<root>/remote.git` (bare, with `main`) and `<root>/repo`.
 * @returns The world; dispose it to remove everything.
 */
export async function ledgerWorld(): Promise<LedgerWorld> {
  const repo = await tempRepo({ "README.md": "hello\n" });
  await repo.commit("base");
  const remote = join(repo.root, "remote.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", remote);
  await repo.git("remote", "add", "origin", remote);
  await repo.git("push", "-q", "origin", "main");
  const git = createGit({ env: repo.env });
  return {
    repo,
    remote,
    git,
    async clone(name) {
      await repo.gitIn(repo.root, "clone", "-q", remote, name);
      return join(repo.root, name);
    },
    open(cwd, options = {}) {
      const logs: string[] = [];
      const ledger = gitLedger({
        git,
        cwd,
        clock: realClock,
        log: (line) => logs.push(line),
        ...options,
      });
      return { ledger, logs };
    },
    [Symbol.asyncDispose]: () => repo[Symbol.asyncDispose](),
  };
}

/** A fresh approval in gate `tf-wave-2` of `tf`, noted `note`. */
export function approvalNoted(note: string): ApprovalRecord {
  return approvalRecord(
    {
      name: "tf",
      gate: "tf-wave-2",
      planDigest: "sha256:" + "d".repeat(64),
      by: "ann",
      note,
    },
    newStamp(realClock),
  );
}

/**
 * The CLI's edges over a ledger world: memory writers, the real clock, the
 * world's git.
 * @param world The world.
 * @param cwd The working directory.
 * @param env The environment.
 * @returns The edges and their writers.
 */
export function worldIo(
  world: LedgerWorld,
  cwd: string,
  env: Record<string, string> = {},
): { io: CliIo; stdout: MemoryWriter; stderr: MemoryWriter } {
  const stdout = memoryWriter();
  const stderr = memoryWriter();
  const io: CliIo = {
    stdout,
    stderr,
    env,
    cwd,
    clock: realClock,
    interrupts: new Interrupts(),
    git: world.git,
  };
  return { io, stdout, stderr };
}
