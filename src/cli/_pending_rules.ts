/**
 * The approval rules a waiting job met, read again outside it (SPEC.md §12,
 * §12.1) for `approve` and `status`: the spec that job named (recorded on its
 * pending fact) as it was at every base the fact records (the strictest wins),
 * the signers files there, and the change up to the head it records (fetched
 * from the remote when this checkout lacks it; else, when the fact names no
 * head, this checkout's HEAD). Specs are read in git; a link or submodule on the spec path
 * reads as a spec that does not parse (the strictest rules). An edge over git
 * and the ledger; judging is `gateRules`'s.
 * @module
 */

import type { Clock } from "../clock.ts";
import type { Git } from "../git/git.ts";
import type { Ledger } from "../ledger/ledger.ts";
import type { PendingRecord, PlanPair } from "../gate/records.ts";
import { type BaseSpec, baseSpecOf } from "../gate/base_spec.ts";
import { readTreeFile } from "../git/tree_file.ts";
import type { ApprovalConfirmer } from "../gate/confirm_approvals.ts";
import { type GateJudge, gateRules } from "../base/gate_rules.ts";
import { specParser } from "./_load_spec.ts";
import { waitingCommits } from "./_waiting_commits.ts";

/** The edges the rules are read through. */
export interface PendingRulesIo {
  git: Git;
  cwd: string;
  clock: Clock;
  ledger: Pick<Ledger, "readPlanSet">;
  /**
   * The remote a commit this checkout lacks is fetched from.
   * @default {"origin"}
   */
  remote?: string;
}

/** The rules of a pending fact, or why they could not be read here. */
export type PendingRules =
  | {
    status: "read";
    /** The judge of the gate's approvals (it logs nothing). */
    judge: GateJudge;
    /** The base commit (full sha). */
    base: string;
    /** The plans the pending fact waits for (empty without a plan set). */
    set: PlanPair[];
  }
  | { status: "unread"; why: string };

/**
 * Reads the rules a pending fact's job was judged by.
 * @param pending The pending fact (it must name its spec, else `specPath` does).
 * @param specPath The spec's path from the top level when the fact names none.
 * @param io Git, the working directory, the clock and the ledger.
 * @param confirmer Confirms a forge gate's unsigned approvals (the approve
 *   command's own, provisionally); without one none of them counts, as nobody
 *   asked the forge here.
 * @returns The judge, base and plan set; or `unread` with the reason (no git
 *   repository here, the base commit missing, no spec named).
 * @throws {GitError} When git fails unexpectedly.
 */
export async function pendingRules(
  pending: PendingRecord,
  specPath: string | undefined,
  io: PendingRulesIo,
  confirmer?: ApprovalConfirmer,
): Promise<PendingRules> {
  const unread = (why: string): PendingRules => ({ status: "unread", why });
  const path = pending.spec ?? specPath;
  if (path === undefined) return unread("the pending fact names no spec");
  const top = await io.git.topLevel(io.cwd);
  if (top === undefined) {
    return unread(`"${io.cwd}" is not in a git repository`);
  }
  const commits = await waitingCommits(pending, io.git, top, io.remote);
  if (commits.status === "missing") return unread(commits.why);
  const { bases } = commits;
  // A fact of an older chant-wave names no head: this checkout's stands in.
  const head = commits.head ?? await io.git.resolveCommit("HEAD", top);
  if (head === undefined) return unread("the repository has no commit");
  const parse = await specParser();
  const specAt = async (sha: string): Promise<BaseSpec> => {
    const found = await readTreeFile(io.git, top, sha, path);
    if (found.status === "link" || found.status === "submodule") {
      return {
        status: "unparsable",
        problem: `"${found.at}" is a ${
          found.status === "link" ? "symbolic link" : "submodule"
        } at ${sha.slice(0, 12)}`,
      };
    }
    return baseSpecOf(
      found.status === "file" ? found.text : undefined,
      path,
      parse,
    );
  };
  const k = Number(/-wave-([1-9][0-9]*)$/.exec(pending.gate)?.[1] ?? 0);
  const atHead = await specAt(head);
  const wave = atHead.status === "parsed"
    ? atHead.spec.waves.find((w) => w.k === k)
    : undefined;
  const set = await io.ledger.readPlanSet(
    pending.name,
    pending.gate,
    pending.planDigest,
  ) ?? [];
  const targets = [...(wave?.runs ?? []), ...set].map((run) => run.target);
  const specs = [];
  for (const sha of bases) specs.push({ sha, spec: await specAt(sha) });
  const judge = gateRules(
    specs,
    wave ?? { k, name: "" },
    targets,
    { top, head },
    { git: io.git, clock: io.clock, stderr: { write() {} } },
    confirmer,
  );
  return { status: "read", judge, base: bases[0], set };
}
