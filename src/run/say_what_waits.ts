/**
 * What a share or group job of a waiting decision finds (SPEC.md §4.7, §13.1):
 * when approvals now count for the decided plans (judged as the deciding job
 * would, under the wave's rules at the job's base), the decision as those
 * approvals approve it, so the job goes on (on GitLab the job runs after the
 * last manual approve job of the wave's child pipeline passed); else the way to
 * approve on the forge the job runs on, then the command that approves the
 * decided plans, built from the job's own flags so that it works as printed
 * (the same spec, wave, base and ledger).
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
import { approveClick, approveLine } from "../summary/approve_link.ts";

/** A waiting decision approved since, or what it still waits for. */
export type WhatWaits =
  /** The decision with the approvals that count now (to be verified as any). */
  | { approved: Decision }
  /** The rules, the tally and the approve command, for the job summary. */
  | { waiting: WaitingNote };

/**
 * Reads the gate of a waiting decision: approved since, or what it waits for,
 * logged. Approvals are judged under the wave's rules at the job's base
 * (SPEC.md §12, §12.1).
 * @param decision The waiting decision.
 * @param input The job (its spec, spec file and wave).
 * @param base The job's base.
 * @param io The ledger, git, the clock and the log.
 * @returns The decision as approved now, or the waiting note.
 */
export async function sayWhatWaits(
  decision: Decision,
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): Promise<WhatWaits> {
  const { spec, selection: { wave } } = input;
  const log = terminalLog(io.stderr, io.env);
  const targets = [...wave.runs, ...decision.members].map((run) => run.target);
  // What judging says (the rules at base, refusals) is said once: here when
  // the decision still waits, else by the check of the approved decision.
  const held: string[] = [];
  const quiet = { ...io, stderr: { write: (text: string) => held.push(text) } };
  const { judge } = jobGateJudge({
    name: spec.name,
    gate: decision.gate,
    wave,
    bases: base.bases,
    targets,
    base,
    ask: !input.dryRun,
  }, quiet);
  const gate = (await readGate(spec.name, decision.gate, {
    digest: decision.digest,
    members: decision.members,
    judge,
    wave: wave.name,
  }, quiet)).decision;
  if (gate.status === "approved") {
    log(
      `wave ${wave.k} "${wave.name}": approved since it was decided, by ${gate.approvedBy}`,
    );
    return {
      approved: {
        ...decision,
        status: "approved",
        approvedBy: gate.approvedBy,
        approvalId: gate.approval.id,
      },
    };
  }
  io.stderr.write(held.join(""));
  log([
    `wave ${wave.k} "${wave.name}" `,
    styled("waiting", "waits"),
    ` for an approval of ${decision.digest}`,
  ]);
  const sealed = judge.rules.mode === "sealed";
  const approve = approveCommand(spec.name, decision.gate, decision.digest, {
    ...(input.ledgerArg === undefined ? {} : { ledger: input.ledgerArg }),
    sign: sealed,
  });
  const tally = tallyOf(gate, decision.digest);
  if (tally !== undefined) log(`  ${tally}`);
  const counted = gate.tally?.counted.length ?? 0;
  const click = approveClick(spec.name, wave, io.env, counted + 1);
  const forgeWay = click &&
    approveLine(click, spec.name, wave.k, decision.digest, sealed);
  if (forgeWay) log(forgeWay);
  log(styledLead(`then approve: ${approve}`));
  return { waiting: waitingNote(judge.rules, tally, approve, counted) };
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
