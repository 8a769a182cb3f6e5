/**
 * The order check before a job plans anything (SPEC.md §4.11, §19): with
 * `order: "strict"` read at base (strict when any base says so), or a soak at
 * base, wave k runs only once wave k-1 is complete for HEAD (every applying
 * job of it recorded `applied` or `nothing-to-do` at this very commit; past
 * the spec's waves, the rest wave again as wave k-1), and every wave the order
 * at base puts ahead of it too; with a soak, only once each completed at least
 * that long ago by the ledger's order and the job's clock
 * (`order/soak_wait.ts`). Otherwise the job waits (exit 3) naming what is
 * missing and, for a soak, when it may go; or, with `--out-of-order REASON`,
 * runs anyway and records who did it and why. It runs before the change's
 * first command, so the clock it reads is the job's own.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { type LedgerRecord, newRecord, newStamp } from "../gate/records.ts";
import { jobLabel, waveCompletion } from "../order/wave_completion.ts";
import { wavesBefore } from "../order/waves_before.ts";
import { orderAtBase } from "../gate/policy_at_base.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import { completedAt, soakLeft } from "../order/soak_wait.ts";
import { formatDuration } from "../spec/duration.ts";
import { sayAge, sayMoment } from "../say_time.ts";
import { recordWait } from "./record_wait.ts";
import type { BaseRead } from "../base/read_base.ts";
import { ciContext } from "../ci/ci_context.ts";
import { gateName } from "../gate/gate_messages.ts";
import type { RunIo } from "./run_io.ts";
import { whoRuns } from "../ci/who_runs.ts";
import type { RunJobInput } from "./select_job.ts";

/**
 * Checks that the waves this job's wave must follow were applied at HEAD: the
 * wave before it, and every wave the order at base puts ahead of it.
 * @param input The job (its spec, wave, `--out-of-order` and dry-run flags).
 * @param base The job's base (the spec at each base commit, and HEAD).
 * @param io The edges.
 * @returns `undefined` to go on, or what the job waits for (one line each)
 *   when it must stop with exit 3.
 */
export async function checkOrder(
  input: RunJobInput,
  base: BaseRead,
  io: RunIo,
): Promise<string[] | undefined> {
  const { spec, selection: { wave } } = input;
  const log = lineLog(io.stderr);
  const reads = base.bases.map(orderAtBase);
  const strict = reads.find((read) => read.order === "strict");
  const targets = wave.runs.map((run) => run.target);
  const waits = wavesBefore(spec, wave.k, targets, base.bases);
  if (waits.length === 0) return undefined;
  const { soakMs, soakFrom } = timingAtBase(base.bases, {
    k: wave.k,
    name: wave.name,
    targets,
  });
  const soak = soakMs > 0
    ? `soak ${formatDuration(soakMs)} (read ${soakFrom})`
    : "";
  if (strict === undefined && soak === "") {
    const unchecked = wave.k > 1
      ? `wave ${wave.k - 1} is`
      : "the waves before it are";
    log(`order: none (${reads[0].reason}): ${unchecked} not checked`);
    return undefined;
  }
  const head12 = base.head.slice(0, 12);
  const now = io.clock.now();
  // Each line, and what the user does about it.
  const notYet: { line: string; next: string; until?: number }[] = [];
  for (const wait of waits) {
    if ("gone" in wait) {
      notYet.push({
        line:
          `the order is read at base: ${wait.why}, and no wave of this change stands for wave ${wait.gone.k} "${wait.gone.name}"`,
        next: "it runs in order once the change is merged",
      });
      continue;
    }
    if ("merged" in wait) {
      const [earlier, later] = wait.merged;
      notYet.push({
        line:
          `wave ${wave.k} "${wave.name}" holds runs of waves ${earlier.k} "${earlier.name}" and ${later.k} "${later.name}"${
            wait.targets.length > 0 ? ` (${namedTargets(wait.targets)})` : ""
          }, which the order read ${wait.why} runs apart${
            soak ? ` (${soak})` : ""
          }`,
        next: "it runs in order once the change is merged",
      });
      continue;
    }
    const { wave: before, why } = wait;
    const { records, problems, arrived } = await io.ledger.readGate(
      spec.name,
      gateName(spec, before.k),
      {
        asOf: io.asOf,
        ...(soak
          ? {
            arrival: (r: LedgerRecord) =>
              r.kind === "wave-outcome" && r.wave === before.k &&
              r.head === base.head,
          }
          : {}),
      },
    );
    for (const problem of problems) log(`warning: ledger: ${problem}`);
    const done = waveCompletion(records, before, base.head);
    const what = `wave ${before.k} "${before.name}"`;
    if (done.complete && soak === "") {
      log(`order: ${what} was applied at ${head12}`);
      continue;
    }
    if (done.complete) {
      const at = completedAt(records, before, base.head, arrived)!;
      const left = soakLeft(at, soakMs, now);
      const applied = `${what} applied ${head12} ${sayAge(left.ago)} ago`;
      if (left.passed) {
        log(`order: ${applied}; ${soak} has passed`);
        continue;
      }
      notYet.push({
        line:
          `wave ${wave.k} "${wave.name}" waits: ${applied}, ${soak}: may go at ${
            sayMoment(left.mayGoAt, now)
          }`,
        next: "run it again then (chant-wave resume restarts it)",
        until: left.mayGoAt,
      });
      continue;
    }
    const missing = done.missing.map(jobLabel).join(", ");
    notYet.push({
      line: `${what} has not been applied at ${head12} (missing: ${missing})${
        why ? `; the order is read at base: ${why}` : ""
      }${strict === undefined ? `; ${soak} needs it applied first` : ""}`,
      next: "run it first",
    });
  }
  if (notYet.length === 0) return undefined;
  if (input.outOfOrder === undefined) {
    for (const { line, next } of notYet) log(`${line}; ${next}`);
    const times = notYet.map((wait) => wait.until);
    if (times.every((until) => until !== undefined)) {
      await recordWait(
        spec,
        {
          k: wave.k,
          head: base.head,
          why: "soak",
          until: Math.max(...times),
        },
        input,
        io,
      );
    }
    log(
      `  or run wave ${wave.k} anyway, and say why: --out-of-order "<reason>"`,
    );
    return notYet.map(({ line }) => line);
  }
  const by = await whoRuns(io) ?? "unknown";
  for (const { line } of notYet) {
    log(
      `warning: ${line}; running wave ${wave.k} out of order (by ${by}: ${input.outOfOrder})`,
    );
  }
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
  return undefined;
}

/** A few targets by name, and how many more: `eu, us, ap and 12 more`. */
function namedTargets(targets: readonly string[]): string {
  const named = targets.slice(0, 3).join(", ");
  return targets.length > 3 ? `${named} and ${targets.length - 3} more` : named;
}
