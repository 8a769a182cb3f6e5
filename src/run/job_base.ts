/**
 * The first stage of every job (SPEC.md §4.4): resolve the base commits and
 * read the spec at each (the decisions the ledger records bound the chain
 * rule), logged with the rule that chose them; and, for a share or group job,
 * the bases its decision record names besides. What the policy at those bases
 * says is `policy/wave_policy.ts`'s.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import {
  type BaseRead,
  mayForbidSelfApproval,
  readBase,
  signersRefOf,
} from "../base/read_base.ts";
import { trustedDecisionHeads } from "../gate/plan_fold.ts";
import { gateName } from "../gate/gate_messages.ts";
import type { RunIo } from "./run_io.ts";
import { checkRolloutName } from "./rollout_name.ts";
import { checkPlanMechanism } from "./plan_mechanism.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
import type { GateRecords } from "../gate/screen_records.ts";
import type { RunJobInput } from "./select_job.ts";

/** The kinds of record that name a decision's head (`trusted_decision_heads.ts`). */
const HEAD_KINDS = ["pending", "wave-outcome"] as const;

/** A job's base, and what the chain rule read of the ledger to find it. */
export interface JobBase extends BaseRead {
  /**
   * Every record of each gate the chain rule read (wave 1's and this wave's),
   * by gate, read before any command of the change ran; empty for a base of
   * one trusted commit, and when the gates were not read whole. A share job's
   * check of its decision decides its gate on them, so the gate is read once.
   */
  gateRecords: ReadonlyMap<string, GateRecords>;
}

/**
 * Resolves the job's base commits and reads the spec at each; logs
 * `base <sha12>: <rule>` (for the chain rule, `base: <rule and commits>`) and
 * any warning about the commit before the push. The chain rule stops at the
 * newest commit at which the ledger records a decision of the rollout under a
 * trusted base (in wave 1's gate or this wave's): only records named as
 * pending facts and wave outcomes are read for it, unless the job asks for the
 * gates whole (a record under another name can only drop a bound, so the chain
 * walks further back: stricter).
 * @param input The job (its spec file and text, `--base` and parser).
 * @param io The edges.
 * @param whole Whether to read the gates whole, kept in `gateRecords`.
 * @returns The base, and the gates' records the chain rule read.
 * @throws {InputError} Exit 2 when the base cannot be resolved, or the spec is
 *   not HEAD's committed regular file.
 */
export async function readJobBase(
  input: RunJobInput,
  io: RunIo,
  whole: boolean,
): Promise<JobBase> {
  const log = terminalLog(io.stderr, io.env);
  const { spec, selection: { wave } } = input;
  const gateRecords = new Map<string, GateRecords>();
  // How many trusted decisions of the rollout's name the chain rule found.
  let trusted = 0;
  const base = await readBase({
    git: io.git,
    cwd: io.cwd,
    specPath: input.specFile,
    ...(input.baseFlag === undefined ? {} : { flag: input.baseFlag }),
    env: io.env,
    parse: input.parseSpec,
    ...(input.specText === undefined ? {} : { workText: input.specText }),
    dryRun: input.dryRun,
    decisions: async () => {
      const gates = [...new Set([gateName(spec, 1), gateName(spec, wave.k)])];
      const records = [];
      for (const gate of gates) {
        const read = await io.ledger.readGate(
          spec.name,
          gate,
          whole ? {} : { kinds: HEAD_KINDS },
        );
        if (whole) gateRecords.set(gate, read);
        records.push(...read.records);
      }
      // Oldest first across both gates, so the last is the newest decision.
      records.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
      const heads = [...trustedDecisionHeads(records)];
      trusted = heads.length;
      return heads;
    },
  });
  for (const warning of base.warnings) log(styledLead(`warning: ${warning}`));
  log(
    base.rule === "chain"
      ? `base: ${base.reason}`
      : `base ${base.sha.slice(0, 12)}: ${base.reason}`,
  );
  for (const note of base.notes) log(styledLead(note));
  await checkRolloutName(
    {
      name: spec.name,
      specFile: base.specPath,
      unbounded: base.rule === "chain" && trusted === 0,
    },
    base.bases,
    io.ledger,
  );
  checkPlanMechanism(spec.plan, base.specPath, base.bases);
  return { ...base, gateRecords };
}

/**
 * The bases a share or group job reads the rules at: its own and those the
 * decision record names. The record travelled as an artifact, but a base it
 * names can only add a version to read (the strictest of all wins, and the
 * job's own are always read), so it need only be a commit of this checkout;
 * the default branch's tip a manual run reads is often no ancestor of HEAD.
 * @param base The job's own base.
 * @param named The record's base commits.
 * @param io The git seam.
 * @returns Every base, the job's own first, without repeats; or the first named
 *   commit this checkout lacks.
 * @throws {InputError} When a named commit's spec path is a link there.
 */
export async function withNamedBases(
  base: BaseRead,
  named: readonly string[],
  io: Pick<RunIo, "git">,
): Promise<{ bases: PolicyBase[] } | { missing: string }> {
  const bases = [...base.bases];
  for (const sha of named) {
    const resolved = await io.git.resolveCommit(sha, base.top);
    if (resolved === undefined) return { missing: sha };
    if (bases.some((b) => b.sha === resolved)) continue;
    const at = await base.baseAt(resolved);
    // A base whose spec does not parse may stand on one read already.
    if (!bases.some((b) => b.sha === at.sha)) bases.push(at);
  }
  await base.reads.prefetch(bases.map(signersRefOf), {
    people: bases.some(mayForbidSelfApproval),
  });
  return { bases };
}
