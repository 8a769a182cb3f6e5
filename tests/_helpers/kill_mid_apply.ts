/**
 * A runner that dies mid-apply, for the tests of claims with no outcome
 * (SPEC.md §10, §12.1): runs a wave with one target's apply hanging (tool.sh's
 * `.apply-hang`), waits for that apply to start (and for anything else the
 * test names), then kills the runner and the apply with SIGKILL, so the claim
 * stays without an outcome. Waits on events, never on the clock.
 * @module
 */

import { startBinary } from "./binary.ts";
import { pollUntil } from "./poll.ts";
import { type Rollout, SPEC } from "./rollout.ts";

/**
 * Runs `run --wave <wave>` with `target`'s apply hanging, then kills it.
 * @param r The rollout.
 * @param target The target whose apply hangs.
 * @param options The wave (default 1), extra arguments, and what else to wait
 *   for before the kill (e.g. the other runs' outcomes in the ledger).
 */
export async function killMidApply(
  r: Rollout,
  target: string,
  options: {
    wave?: number;
    args?: readonly string[];
    until?: { what: string; check: () => Promise<boolean> };
  } = {},
): Promise<void> {
  await r.control(target, "apply-hang");
  const job = startBinary(
    [
      "run",
      ...SPEC,
      "--wave",
      String(options.wave ?? 1),
      ...options.args ?? [],
    ],
    { cwd: r.path },
  );
  const pidFile = `${r.path}/ctl/${target}.pid`;
  await pollUntil(
    `${target}'s apply to hang`,
    () =>
      Deno.readTextFile(pidFile).then((pid) => pid.trim() !== "", () => false),
  );
  if (options.until) await pollUntil(options.until.what, options.until.check);
  Deno.kill(job.pid, "SIGKILL");
  await job.finish();
  Deno.kill(Number(await Deno.readTextFile(pidFile)), "SIGKILL");
  await r.uncontrol(target, "apply-hang");
  await Deno.remove(pidFile);
}

/**
 * The targets whose run outcomes a gate's records hold.
 * @param r The rollout.
 * @param gate The gate.
 * @returns The targets, in the order their outcomes were recorded.
 */
export async function settledTargets(
  r: Rollout,
  gate: string,
): Promise<string[]> {
  return (await r.records(gate)).filter((x) => x.kind === "run-outcome")
    .flatMap((x) => x.runs as { target: string }[]).map((x) => x.target);
}
