/**
 * A share or group job meeting a freeze window (SPEC.md §19): when a window of
 * the wave at base holds at the job's clock and the decided plans of its slice
 * change anything, the job applies only when an approval given with
 * `--during-freeze` lets them through, read in the ledger as the decision
 * would (the rules at base, the plans it covers); else it waits (exit 3),
 * names the window and until when, prints the command that approves the
 * decided plans during the freeze, and records the wait for `resume`. The
 * deciding job meets the freeze in its decision (`decide_wave.ts`).
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import { approveCommand } from "../gate/gate_messages.ts";
import { freezeHold, freezeReason } from "../gate/freeze_hold.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import type { Decision } from "../gate/decision.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import { readGate } from "../ledger/read_gate.ts";
import type { RunIo } from "./run_io.ts";
import { recordWait } from "./record_wait.ts";
import type { RunJobInput } from "./select_job.ts";

/**
 * Checks the freeze for a share or group job's decided plans.
 * @param input The job (its spec, wave, ledger argument, dry run).
 * @param decision The decision the job applies.
 * @param checked The bases its rules were read at, the judge of approvals,
 *   HEAD and the job's slice.
 * @param io The edges.
 * @returns `undefined` to go on, or what the job waits for and the command
 *   that approves its plans through the freeze, when it must stop (exit 3).
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
): Promise<string[] | undefined> {
  const { spec, selection: { wave } } = input;
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const hold = freezeHold(
    timingAtBase(checked.bases, { k: wave.k, name: wave.name, targets })
      .freeze,
    io.clock.now(),
  );
  if (hold === undefined) return undefined;
  const log = terminalLog(io.stderr, io.env);
  const mine = new Set(checked.slice.map((run) => run.target));
  if (
    decision.members.every((member) =>
      member.empty === true || !mine.has(member.target)
    )
  ) {
    log(`${hold.line}; this job's plans change nothing`);
    return undefined;
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
    return undefined;
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
  return [`wave ${wave.k} "${wave.name}" waits: ${hold.line}`, approve];
}
