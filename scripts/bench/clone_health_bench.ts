/**
 * An approver's persistent clone as rollouts go by (issue 40): on the git
 * ledger's local bare remote (the ledger-size bench's project and 100-record
 * branch), each rollout is one gate of its own (`r<i>`, `r<i>-wave-1`, so the
 * gate an approval reads stays as small as a compacted one) that a job's clone
 * writes a record to first (an approval by `job`, written in this process
 * through the git ledger, as a job writes its records: it opens the gate and
 * brings the approver's fetch new objects) and the approver's clone then
 * approves through the binary, as the approver would. The approver's clone
 * is copied after 25 rollouts and goes on to 250; the copy then fetches the
 * branch once (untimed), and the two approve `rounds` more rollouts each in
 * alternating order (so a change of the machine's load hits both alike),
 * timed: the median CPU of the process tree and wall time of the clone of 250
 * rollouts against the copy of 25, with each one's packs and loose objects
 * (`git count-objects -v`) beside, and the mean of every approval of rollouts
 * 26 to 250 (the tidying a cluttered clone gets is counted there, in the
 * approvals that ran it). Runnable alone (`deno run
 * --allow-all scripts/bench/clone_health_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  formatMs,
  formatRatio,
  git,
  median,
  printTable,
  type Row,
  runTimed,
  type Timed,
  withLoad,
} from "./_measure.ts";
import { setUp } from "./ledger_size_bench.ts";
import { createGit } from "../../src/git/git.ts";
import { gitLedger } from "../../src/ledger/git/git_ledger.ts";
import { realClock } from "../../src/clock.ts";
import { approvalRecord, newStamp } from "../../src/gate/records.ts";

/** Sizes of {@linkcode cloneHealthBench}. */
export interface CloneHealthBenchOptions {
  /** Rollouts before the first figure. @default {25} */
  early?: number;
  /** Rollouts before the second figure. @default {250} */
  late?: number;
  /** Approvals timed in each clone. @default {7} */
  rounds?: number;
}

/** Rollout `rollout`'s gate and the plan approved in it. */
function rolloutGate(rollout: number) {
  const name = `r${rollout}`;
  return {
    name,
    gate: `${name}-wave-1`,
    planDigest: "sha256:" + rollout.toString(16).padStart(64, "0"),
  };
}

/** The job's record of one rollout, written through the git ledger in `cwd`. */
async function jobWrites(cwd: string, rollout: number): Promise<void> {
  const ledger = gitLedger({
    git: createGit({ env: Deno.env.toObject() }),
    cwd,
    clock: realClock,
    log: () => {},
  });
  await ledger.write(
    approvalRecord({ ...rolloutGate(rollout), by: "job" }, newStamp(realClock)),
  );
}

/** One rollout's approval in the approver's clone `cwd`, through the binary. */
function approve(cwd: string, rollout: number): Promise<Timed> {
  const { name, gate, planDigest } = rolloutGate(rollout);
  return runTimed(BINARY, [
    "approve",
    name,
    gate,
    "--plan",
    planDigest,
    "--by",
    "bench",
    "--ledger",
    "git",
  ], { cwd, usage: true });
}

/** Copies a folder, as `cp -a` does. */
async function copy(from: string, to: string): Promise<void> {
  const { success } = await new Deno.Command("cp", { args: ["-a", from, to] })
    .output();
  if (!success) throw new Error(`cannot copy ${from} to ${to}`);
}

/** The clone's packs and loose objects, as `git count-objects -v` says. */
async function clutter(cwd: string): Promise<string> {
  const { stdout } = await new Deno.Command("git", {
    args: ["count-objects", "-v"],
    cwd,
    stdout: "piped",
  }).output();
  const fields = new Map(
    new TextDecoder().decode(stdout).trim().split("\n")
      .map((line) => line.split(": ") as [string, string]),
  );
  return `${fields.get("packs")} packs, ${fields.get("count")} loose objects`;
}

const cpu = (runs: readonly Timed[]) => median(runs.map((t) => t.cpuMs ?? 0));
const wall = (runs: readonly Timed[]) => median(runs.map((t) => t.ms));
const mean = (runs: readonly Timed[]) =>
  runs.reduce((sum, t) => sum + (t.cpuMs ?? 0), 0) / runs.length;
const both = (runs: readonly Timed[]) =>
  `${formatMs(wall(runs))}, cpu ${formatMs(cpu(runs))}`;

/**
 * Measures the rows: `approve` after `late` rollouts against after `early`.
 * @param options Sizes and rounds.
 * @returns The rows.
 */
export async function cloneHealthBench(
  options: CloneHealthBenchOptions = {},
): Promise<Row[]> {
  const early = options.early ?? 25;
  const late = options.late ?? 250;
  const rounds = options.rounds ?? 7;
  const { value, load } = await withLoad(async () => {
    const { root, work } = await setUp(100);
    try {
      const job = `${root}/job`;
      await git(root, "clone", "-q", "-b", "main", `${root}/remote.git`, job);
      let rollout = 0;
      /** The next rollout: the job writes it, `clone` approves it. */
      const next = async (clone: string) => {
        rollout++;
        await jobWrites(job, rollout);
        return await approve(clone, rollout);
      };
      for (let i = 0; i < early; i++) await next(work);
      const young = `${root}/young`;
      await copy(work, young);
      const between: Timed[] = [];
      for (let i = early; i < late; i++) between.push(await next(work));
      // The copy catches up with the branch (one fetch, not timed): both
      // clones then approve the same rollouts' gates at the same tip.
      await next(young);
      const first: Timed[] = [];
      const second: Timed[] = [];
      for (let i = 0; i < rounds; i++) {
        const pair: [string, Timed[]][] = [[work, second], [young, first]];
        for (const [clone, runs] of i % 2 ? pair.reverse() : pair) {
          runs.push(await next(clone));
        }
      }
      return {
        first: { runs: first, clutter: await clutter(young) },
        second: { runs: second, clutter: await clutter(work) },
        between,
      };
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
  const { first, second, between } = value;
  return [
    {
      what: `an approver's clone after ${late} rollouts: \`approve\``,
      measured: `${both(second.runs)}; ${second.clutter}`,
      baseline: `after ${early}: ${both(first.runs)}; ${first.clutter}`,
      ratio: `${formatRatio(wall(second.runs) / wall(first.runs))}, cpu ${
        formatRatio(cpu(second.runs) / cpu(first.runs))
      }`,
      goal: "≤ 1.3× (cpu)",
      met: cpu(second.runs) / cpu(first.runs) <= 1.3,
      load,
    },
    {
      what: `an approver's clone: mean \`approve\` cpu of rollouts ${
        early + 1
      }–${late} (tidying included)`,
      measured: `cpu ${formatMs(mean(between))}`,
      baseline: `after ${early} (median): cpu ${formatMs(cpu(first.runs))}`,
      ratio: formatRatio(mean(between) / cpu(first.runs)),
      goal: "",
      met: undefined,
      load,
    },
  ];
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(
    await cloneHealthBench(
      quick ? { early: 10, late: 40, rounds: 3 } : {},
    ),
  );
}
