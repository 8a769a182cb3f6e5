/**
 * A share or group job meeting a freeze window (SPEC.md §19): when a window of
 * the wave at base holds at the job's clock and the decided plans of its slice
 * change anything, the job applies only when an approval given with
 * `--during-freeze` lets them through, read in the ledger as the decision
 * would (the rules at base, the plans it covers); else it waits (exit 3),
 * names the window and until when, prints the command that approves the
 * decided plans during the freeze, and records the wait for `resume`. The
 * deciding job meets the freeze in its decision (`decide_wave.ts`). And what
 * every applying job asks before each run starts (`startsHold`): a window
 * that began since it decided starts no further run.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { approveCommand } from "../gate/gate_messages.ts";
import {
  type FreezeHold,
  freezeHold,
  freezeReason,
} from "../gate/freeze_hold.ts";
import type { Wave } from "../spec/types.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import type { Decision } from "../gate/decision.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import { readGate } from "../ledger/read_gate.ts";
import type { RunIo } from "./run_io.ts";
import { recordWait } from "./record_wait.ts";
import type { RunJobInput } from "./select_job.ts";

/** What {@linkcode checkFreeze} found. */
export interface FreezeCheck {
  /** The job must stop (exit 3): what it waits for, and the approve command. */
  waits?: string[];
  /** A window holds, and an approval given with `--during-freeze` let it through. */
  letThrough?: true;
}

/**
 * Checks the freeze for a share or group job's decided plans.
 * @param input The job (its spec, wave, ledger argument, dry run).
 * @param decision The decision the job applies.
 * @param checked The bases its rules were read at, the judge of approvals,
 *   HEAD and the job's slice.
 * @param io The edges.
 * @returns What the job waits for and the command that approves its plans
 *   through the freeze, when it must stop (exit 3); else whether an approval
 *   let it through a window holding now.
 */
export async function checkFreeze(
  input: RunJobInput,
  decision: Decision,
  checked: {
    bases: readonly PolicyBase[];
    judge: GateJudge;
    head: string;
    slice: readonly { target: string }[];
  },
  io: RunIo,
): Promise<FreezeCheck> {
  const { spec, selection: { wave } } = input;
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const hold = freezeHold(
    timingAtBase(checked.bases, { k: wave.k, name: wave.name, targets })
      .freeze,
    io.clock.now(),
  );
  if (hold === undefined) return {};
  const log = terminalLog(io.stderr, io.env);
  const mine = new Set(checked.slice.map((run) => run.target));
  if (
    decision.members.every((member) =>
      member.empty === true || !mine.has(member.target)
    )
  ) {
    log(`${hold.line}; this job's plans change nothing`);
    return {};
  }
  const gate = (await readGate(spec.name, decision.gate, {
    digest: decision.digest,
    members: decision.members,
    judge: checked.judge,
    whole: true,
    wave: wave.name,
    freeze: { reason: freezeReason(hold) },
  }, io)).decision;
  if (gate.status === "approved") {
    log(`${hold.line}; let through by ${gate.approvedBy} (--during-freeze)`);
    return { letThrough: true };
  }
  log(`wave ${wave.k} "${wave.name}" waits: ${hold.line}`);
  for (const reason of gate.reasons.slice(1)) log(`  ${reason}`);
  const approve = approveCommand(spec.name, decision.gate, decision.digest, {
    ...(input.ledgerArg === undefined ? {} : { ledger: input.ledgerArg }),
    sign: checked.judge.rules.mode === "sealed",
    duringFreeze: true,
  });
  log(styledLead(`then approve: ${approve}`));
  if (hold.until !== undefined) {
    await recordWait(
      spec,
      {
        k: wave.k,
        head: checked.head,
        why: "freeze",
        until: hold.until,
      },
      input,
      io,
    );
  }
  return {
    waits: [`wave ${wave.k} "${wave.name}" waits: ${hold.line}`, approve],
  };
}

/**
 * What a job asks before each run's apply starts (SPEC.md §19): whether a
 * freeze window of the wave at base holds now, when it did not hold as the
 * job decided (or checked) its plans: a window that begins mid-job starts no
 * further run. A decision made during a window was let through it by an
 * approval, and is not asked.
 * @param bases The bases the job read its rules at.
 * @param wave The wave (its number, name and runs).
 * @param decision The decision the job applies.
 * @param io The clock.
 * @returns The check, or `undefined` when there is nothing to check.
 */
export function startsHold(
  bases: readonly PolicyBase[],
  wave: Pick<Wave, "k" | "name" | "runs">,
  decision: Pick<Decision, "members" | "freeze">,
  io: Pick<RunIo, "clock">,
): (() => FreezeHold | undefined) | undefined {
  if (decision.freeze !== undefined) return undefined;
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const { freeze } = timingAtBase(bases, {
    k: wave.k,
    name: wave.name,
    targets,
  });
  if (freeze.length === 0) return undefined;
  return () => freezeHold(freeze, io.clock.now());
}
