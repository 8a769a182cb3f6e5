/**
 * A job that stops until a time (SPEC.md §19: its soak, the end of a freeze
 * window) records a `waiting` fact naming its CI job, so `resume` restarts it
 * once the time has come. A re-run that waits for the same time from the same
 * job records nothing new. Dry runs and `--no-resume` jobs record nothing.
 * @module
 */

import { ciContext } from "../ci/ci_context.ts";
import { sameRunLocator } from "../ci/run_locator.ts";
import { runLocatorFromEnv } from "../forge/run_locator_from_env.ts";
import { gateName } from "../gate/gate_messages.ts";
import { newRecord, newStamp, type WaitReason } from "../gate/records.ts";
import type { Spec } from "../spec/types.ts";
import type { RunIo } from "./run_io.ts";

/** What a job waits for. */
export interface Wait {
  /** The wave's number. */
  k: number;
  /** The commit the job runs at. */
  head: string;
  /** Its soak, or a freeze. */
  why: WaitReason;
  /** When it may go, milliseconds since the Unix epoch. */
  until: number;
}

/**
 * Records that the job waits until a time, unless its gate's newest wait says
 * the same of the same job.
 * @param spec The spec (its name and gate prefix).
 * @param wait What the job waits for.
 * @param options A dry run records nothing; with `noResume`, neither.
 * @param io The ledger, environment and clock.
 */
export async function recordWait(
  spec: Pick<Spec, "name" | "gate">,
  wait: Wait,
  options: { dryRun: boolean; noResume?: boolean },
  io: Pick<RunIo, "ledger" | "env" | "clock">,
): Promise<void> {
  if (options.dryRun || options.noResume) return;
  const gate = gateName(spec, wait.k);
  const until = new Date(wait.until).toISOString();
  const locator = runLocatorFromEnv(io.env, {
    workflowFile: `${spec.name}.yml`,
  });
  const { records } = await io.ledger.readGate(spec.name, gate, {
    kinds: ["waiting"],
  });
  const newest = records.findLast((r) => r.kind === "waiting");
  if (
    newest?.kind === "waiting" && newest.head === wait.head &&
    newest.why === wait.why && newest.until === until &&
    (newest.locator === undefined
      ? locator === undefined
      : locator !== undefined && sameRunLocator(newest.locator, locator))
  ) return;
  const { runId } = ciContext(io.env);
  await io.ledger.write(newRecord("waiting", {
    name: spec.name,
    gate,
    wave: wait.k,
    head: wait.head,
    why: wait.why,
    until,
    ...(runId ? { runId } : {}),
    ...(locator ? { locator } : {}),
  }, newStamp(io.clock)));
}
