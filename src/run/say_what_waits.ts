/**
 * What a share or group job of a waiting decision says (SPEC.md §4.7): the
 * command that approves the decided plans, or, when an approval covers them now,
 * that the deciding job must run again to record it; the commands chant-wave
 * prints as the next step are built from the job's own flags so that they work
 * as printed (the same spec, wave, base and ledger).
 * @module
 */

import { styled, styledLead } from "../console/colour.ts";
import { terminalLog } from "../console/line_log.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import { approveCommand } from "../gate/gate_messages.ts";
import { tallyLine } from "../gate/gate_tally.ts";
import type { BaseRead } from "../base/read_base.ts";
import { jobGateJudge } from "./wave_job.ts";
import type { Decision } from "../gate/decision.ts";
import type { RunIo } from "./run_io.ts";
import { readGate } from "../ledger/read_gate.ts";
import type { WaitingNote } from "../jobs/job_result.ts";
import { waitingNote } from "./decide_stage.ts";
import { shellLine } from "../shell_words.ts";
import type { RunJobInput } from "./select_job.ts";

/**
 * Says why a share job of a waiting decision waits: the approve command, or, when
 * an approval now covers the decided plans, that the deciding job must run again
 * to record it. Approvals are judged under the wave's rules at the job's base
 * (SPEC.md §12, §12.1).
 * @param decision The waiting decision.
 * @param input The job (its spec, spec file and wave).
 * @param base The job's base.
 * @param io The ledger, git, the clock and the log.
 * @returns The rules, the tally and the approve command, for the job summary.
 */
export async function sayWhatWaits(
  decision: Decision,
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): Promise<WaitingNote> {
  const { spec, selection: { wave } } = input;
  const log = terminalLog(io.stderr, io.env);
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  const { judge } = jobGateJudge({
    name: spec.name,
    gate: decision.gate,
    wave,
    bases: base.bases,
    targets,
    base,
    ask: !input.dryRun,
  }, io);
  const gate = await readGate(spec.name, decision.gate, {
    digest: decision.digest,
    members: decision.members,
    judge,
  }, io);
  if (gate.decision.status === "approved") {
    log(
      `wave ${wave.k} "${wave.name}": the approval by ${gate.decision.approvedBy} stands, but this decision was made before it`,
    );
    log(`then decide again: ${decideCommand(input)}, then run this job again`);
    return waitingNote(
      judge.rules,
      tallyOf(gate.decision, decision.digest),
      undefined,
    );
  }
  log([
    `wave ${wave.k} "${wave.name}" `,
    styled("waiting", "waits"),
    ` for an approval of ${decision.digest}`,
  ]);
  const approve = approveCommand(spec.name, decision.gate, decision.digest, {
    ...(input.ledgerArg === undefined ? {} : { ledger: input.ledgerArg }),
    sign: judge.rules.mode === "sealed",
  });
  const tally = tallyOf(gate.decision, decision.digest);
  if (tally !== undefined) log(`  ${tally}`);
  log(styledLead(`then approve: ${approve}`));
  return waitingNote(judge.rules, tally, approve);
}

/** The tally line of a gate some approval covers, whoever counted. */
function tallyOf(gate: GateDecision, digest: string): string | undefined {
  return gate.tally && tallyLine(gate.tally, digest);
}

/**
 * The command that runs this wave's deciding job again.
 * @param input The job (its spec file, wave, `--base` and ledger argument).
 * @returns `chant-wave run --spec F --wave K --decide [--base B] [--ledger L]`.
 * @example
 * ```ts
 * decideCommand({ specFile: "waves.jsonc", selection: { wave: { k: 2 } }, ledgerArg: "git" });
 * // "chant-wave run --spec waves.jsonc --wave 2 --decide --ledger git"
 * ```
 */
export function decideCommand(
  input: Pick<RunJobInput, "specFile" | "baseFlag" | "ledgerArg"> & {
    selection: { wave: { k: number } };
  },
): string {
  const words = [
    "chant-wave",
    "run",
    "--spec",
    input.specFile,
    "--wave",
    String(input.selection.wave.k),
    "--decide",
  ];
  if (input.baseFlag !== undefined) words.push("--base", input.baseFlag);
  if (input.ledgerArg !== undefined) words.push("--ledger", input.ledgerArg);
  return shellLine(words);
}
