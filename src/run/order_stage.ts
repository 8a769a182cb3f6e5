/**
 * The order check before a job plans anything (SPEC.md §4.11): with `order:
 * "strict"` read at base, wave k > 1 runs only once wave k-1 is complete for HEAD
 * (every applying job of it recorded `applied` or `nothing-to-do` at this very
 * commit; past the spec's waves, the rest wave again as wave k-1); otherwise the
 * job waits (exit 3) naming what is missing, or, with
 * `--out-of-order REASON`, runs anyway and records who did it and why.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { newRecord, newStamp } from "../ledger/records.ts";
import { jobLabel, waveCompletion } from "../order/wave_completion.ts";
import { orderAtBase } from "../policy/order_at_base.ts";
import type { BaseRead } from "../policy/read_base.ts";
import { waveAt } from "../spec/wave_at.ts";
import { ciContext } from "./ci_context.ts";
import { gateName } from "./decide_wave.ts";
import type { RunJobInput } from "./job_input.ts";
import type { RunIo } from "./run_io.ts";
import { whoRuns } from "./who.ts";

/**
 * Checks that the wave before this job's wave was applied at HEAD.
 * @param input The job (its spec, wave, `--out-of-order` and dry-run flags).
 * @param base The job's base (the spec there, and HEAD).
 * @param io The edges.
 * @returns `go`, or `wait` when the job must stop with exit 3.
 */
export async function checkOrder(
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): Promise<"go" | "wait"> {
  const { spec, selection: { wave } } = input;
  if (wave.k === 1) return "go";
  const log = lineLog(io.stderr);
  const { order, reason } = orderAtBase(base);
  if (order === "none") {
    log(`order: none (${reason}): wave ${wave.k - 1} is not checked`);
    return "go";
  }
  const previous = waveAt(spec, wave.k - 1)!;
  const { records, problems } = await io.ledger.readGate(
    spec.name,
    gateName(spec, previous.k),
    { asOf: io.asOf },
  );
  for (const problem of problems) log(`warning: ledger: ${problem}`);
  const head12 = base.head.slice(0, 12);
  const done = waveCompletion(records, previous, base.head);
  const what = `wave ${previous.k} "${previous.name}"`;
  if (done.complete) {
    log(`order: ${what} was applied at ${head12}`);
    return "go";
  }
  const missing = done.missing.map(jobLabel).join(", ");
  const notYet =
    `${what} has not been applied at ${head12} (missing: ${missing})`;
  if (input.outOfOrder === undefined) {
    log(`${notYet}; run it first`);
    log(
      `  or run wave ${wave.k} anyway, and say why: --out-of-order "<reason>"`,
    );
    return "wait";
  }
  const by = await whoRuns(io) ?? "unknown";
  log(
    `warning: ${notYet}; running wave ${wave.k} out of order (by ${by}: ${input.outOfOrder})`,
  );
  if (!input.dryRun) {
    const runId = ciContext(io.env).runId;
    await io.ledger.write(newRecord("out-of-order", {
      name: spec.name,
      gate: gateName(spec, wave.k),
      wave: wave.k,
      head: base.head,
      by,
      reason: input.outOfOrder,
      ...(runId ? { runId } : {}),
    }, newStamp(io.clock)));
  }
  return "go";
}
