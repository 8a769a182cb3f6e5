/**
 * `chant-wave resume [--spec F]` (SPEC.md §13): restarts the CI job of every
 * waiting gate that an approval now covers (judged under the rules at the
 * waiting job's base, when this checkout holds it). This file picks the gates and prints
 * the result; `src/resume/` decides and restarts.
 * @module
 */

import { OK, RUN_FAILED } from "../exit_codes.ts";
import type { GateRef } from "../ledger/ledger_store.ts";
import type { Ledger } from "../ledger/ledger.ts";
import {
  resumeGates,
  type ResumeIo,
  type ResumeResult,
} from "../resume/resume_gates.ts";
import type { CliIo, Command } from "./io.ts";
import { jsonFlag, LEDGER_FLAG, parseFlags, SPEC_FLAG } from "./_flags.ts";
import { loadSpec, specParser } from "./_load_spec.ts";
import { commandLedger, openLedger } from "./_open_ledger.ts";
import { decidePending } from "../base/pending_rules.ts";
import type { ApprovalConfirmer } from "../gate/confirm_approvals.ts";

/** The `resume` command. */
export const resumeCommand: Command = {
  name: "resume",
  summary: "restart the CI jobs of waiting gates that are now approved",
  usage: ["[--spec] [--ledger] [--dry-run] [--json]"],
  about: [
    "For each gate whose standing pending fact now has an approval covering its",
    "plans, restarts the CI job that waited: GitHub re-runs the run's failed jobs,",
    "GitLab retries the job, Forgejo dispatches the workflow again. A run not",
    "completed, re-run since, or with a newer job of the name is skipped. A job",
    "that waited for its soak or for a freeze window to end is restarted once",
    "that time has come. Resuming approves nothing: the restarted job decides its",
    "gate again.",
  ].join("\n"),
  notes: [
    "Token: CHANT_WAVE_FORGE_TOKEN, else GITHUB_TOKEN or GH_TOKEN (GitHub, Forgejo),",
    "else GITLAB_TOKEN. GitHub: actions: write; GitLab: a token with the api scope",
    "(a job token cannot retry jobs); Forgejo: write:repository.",
    "statuses: resumed, skipped, not-approved, not-yet, no-job, no-token, failed;",
    "exit 1 on failed or no-token, else 0",
  ].join("\n"),
  examples: [
    "chant-wave resume --ledger git   # every approved gate's job goes on",
    "chant-wave resume --spec waves.jsonc --ledger git --dry-run",
    "chant-wave resume --spec waves.jsonc --ledger git --json",
  ],
  flags: [
    {
      ...SPEC_FLAG,
      description: "only the gates of this spec",
      default: "every gate in the ledger",
    },
    LEDGER_FLAG,
    {
      name: "dry-run",
      description: "say what would be restarted; ask the forge nothing",
    },
    jsonFlag(
      "print { exitCode, resumed, waiting, later, gates: [...] } on stdout",
    ),
  ],
  async run(argv, io) {
    const flags = parseFlags("resume", argv, resumeCommand.flags);
    const file = flags.strings.spec;
    const spec = file === undefined
      ? undefined
      : (await loadSpec(file, io.cwd)).spec;
    const ledger = await openLedger(
      await commandLedger(
        "resume",
        flags.strings.ledger,
        file === undefined || spec === undefined ? undefined : { file, spec },
        io,
      ),
      io,
    );
    const gates = await gatesOf(ledger, spec);
    const result = await resumeGates(gates, {
      dryRun: flags.booleans["dry-run"],
    }, resumeIo(ledger, io));
    const exitCode = resumeExitCode(result);
    if (flags.booleans.json) {
      io.stdout.write(JSON.stringify({ exitCode, ...result }) + "\n");
    }
    return exitCode;
  },
};

/**
 * The exit code of a resume: 1 when a job could not be restarted (`failed`) or
 * no token was set (`no-token`), else 0.
 * @param result The resume's result.
 * @returns `RUN_FAILED` or `OK`.
 */
export function resumeExitCode(result: ResumeResult): number {
  return result.gates.some((gate) =>
      gate.status === "failed" || gate.status === "no-token"
    )
    ? RUN_FAILED
    : OK;
}

/** The ledger's gates: all of them, or a spec's wave gates (`<gate>-wave-<k>`). */
async function gatesOf(
  ledger: Ledger,
  spec: { name: string; gate: string } | undefined,
): Promise<GateRef[]> {
  const gates = await ledger.listGates(spec?.name);
  if (spec === undefined) return gates;
  const prefix = `${spec.gate}-wave-`;
  return gates.filter(({ gate }) =>
    gate.startsWith(prefix) && /^[1-9]\d*$/.test(gate.slice(prefix.length))
  );
}

/**
 * Resumes one gate (`approve --resume`), as `resume` would.
 * @param gate The gate.
 * @param ledger The ledger it was approved in.
 * @param io The edges.
 * @param confirmer What a forge gate takes its unsigned approvals for here (the
 *   approve command's own approval, provisionally; SPEC.md §13.1).
 * @returns The gate's status (none when no pending fact stands) and the counts.
 * @throws {InputError} When a token variable or a forge API URL is malformed.
 */
export function resumeOne(
  gate: GateRef,
  ledger: Ledger,
  io: CliIo,
  confirmer?: ApprovalConfirmer,
): Promise<ResumeResult> {
  return resumeGates(
    [gate],
    { dryRun: false },
    resumeIo(ledger, io, confirmer),
  );
}

/**
 * The edges of a resume: the ledger, the environment, the clock, the log, and
 * the rules at each waiting job's base, read in this checkout (SPEC.md §12.1:
 * a gate whose approvals do not count under them is not resumed); on a forge
 * gate an unsigned approval counts only as `confirmer` takes it (none without).
 */
function resumeIo(
  ledger: Ledger,
  io: CliIo,
  confirmer?: ApprovalConfirmer,
): ResumeIo {
  return {
    ledger,
    env: io.env,
    clock: io.clock,
    stderr: io.stderr,
    async rulesOf(pending, records) {
      const read = await decidePending(
        pending,
        records,
        new Map(),
        { ...io, ledger, specParser },
        confirmer,
      );
      return read.status === "read" ? read.judged : undefined;
    },
  };
}
