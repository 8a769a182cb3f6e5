/**
 * What checking a spent approval's history costs a claim on the git ledger
 * (issue 23): with 10,000 and 50,000 records in one gate of `chant/ledger` on a
 * local bare remote (the ledger-size bench's branch), an approval written one
 * commit before the claim and one written 25 commits before it (each commit
 * between them a record of the same gate, so every one rewrites the gate's
 * tree: the worst case), a fresh store in this process claims under each: its
 * wall time against the same claim without the history check (write and read
 * back only), in paired rounds. In process, so CPU is this process's only
 * (the git children's is not counted); the wall time is what a job waits.
 * Runnable alone (`deno run --allow-all scripts/bench/history_bench.ts
 * [--quick]`).
 * @module
 */

import {
  formatMs,
  formatRatio,
  git,
  median,
  printTable,
  type Row,
  withLoad,
} from "./_measure.ts";
import { buildBranch } from "./ledger_size_bench.ts";
import { createGit } from "../../src/git/git.ts";
import { gitLedger } from "../../src/ledger/git/git_ledger.ts";
import { realClock } from "../../src/clock.ts";
import {
  approvalRecord,
  newRecord,
  newStamp,
  pendingRecord,
} from "../../src/gate/records.ts";

/** Sizes of {@linkcode historyBench}. */
export interface HistoryBenchOptions {
  /** Records on the branch. @default {[10000, 50000]} */
  sizes?: number[];
  /** Commits between the old approval and the claim. @default {25} */
  age?: number;
  /** Paired rounds. @default {3} */
  rounds?: number;
}

const NAME = "bench";
const GATE = "bench-wave-1";
const gate = { name: NAME, gate: GATE };
const digest = (c: string) => "sha256:" + c.repeat(64);

/** A store of the clone `work`, fresh (nothing read yet), as a new job has. */
function store(work: string) {
  return gitLedger({
    git: createGit({ env: Deno.env.toObject() }),
    cwd: work,
    clock: realClock,
    log: () => {},
  });
}

/**
 * One claim of `target` under `approvalId`, timed; `checked` with the history
 * check, else the same write and read back without it (a run outcome of the
 * same plan: the git ledger checks the history of claims only).
 */
async function claimMs(
  work: string,
  approvalId: string,
  target: string,
  checked: boolean,
): Promise<number> {
  const ledger = store(work);
  await ledger.mark();
  const claim = newRecord("claim", {
    ...gate,
    approvalId,
    decisionId: `dec${target.replaceAll("-", "")}`,
    attemptId: `att${target.replaceAll("-", "")}`,
    runs: [{ target, planDigest: digest("c"), attempt: 1 }],
  }, newStamp(realClock));
  const start = performance.now();
  if (checked) await ledger.claimRuns(claim);
  else {
    await ledger.write(newRecord("run-outcome", {
      ...claim,
      runs: claim.runs.map((run) => ({ ...run, outcome: "failed" as const })),
    }, newStamp(realClock)));
    await ledger.readGate(gate.name, gate.gate);
  }
  return performance.now() - start;
}

/** The branch with `count` records, an old approval, `age` commits, a young one. */
async function setUp(count: number, age: number) {
  const root = await Deno.makeTempDir({ prefix: "chant-wave-history-bench-" });
  await git(root, "init", "-q", "--bare", "remote.git");
  await buildBranch(`${root}/remote.git`, count);
  const work = `${root}/work`;
  await git(root, "init", "-q", work);
  await git(work, "remote", "add", "origin", `${root}/remote.git`);
  const ledger = store(work);
  const approve = async (c: string) => {
    const record = approvalRecord(
      { ...gate, planDigest: digest(c), by: "bench" },
      newStamp(realClock),
    );
    await ledger.write(record);
    return record.id;
  };
  const old = await approve("a");
  for (let i = 0; i < age - 1; i++) {
    await ledger.write(pendingRecord(
      {
        ...gate,
        planDigest: digest("f"),
        description: `filler ${i}`,
        members: 1,
        base: "0".repeat(40),
      },
      3_600_000,
      newStamp(realClock),
    ));
  }
  const young = await approve("b");
  return { root, work, old, young };
}

/**
 * Measures the rows: per size, a claim under the young and the old approval
 * against the same claim without the check.
 * @param options Sizes, age and rounds.
 * @returns Two rows per size.
 */
export async function historyBench(
  options: HistoryBenchOptions = {},
): Promise<Row[]> {
  const sizes = options.sizes ?? [10_000, 50_000];
  const age = options.age ?? 25;
  const rounds = options.rounds ?? 3;
  const rows: Row[] = [];
  for (const size of sizes) {
    const n = size.toLocaleString("en");
    const { root, work, old, young } = await setUp(size, age);
    try {
      const ages = [["1 commit", young, "y"], [`${age} commits`, old, "o"]];
      for (const [what, id, tag] of ages) {
        const { value, load } = await withLoad(async () => {
          const [mine, base] = [[] as number[], [] as number[]];
          for (let i = 0; i < rounds; i++) {
            mine.push(await claimMs(work, id, `t-${tag}-${i}`, true));
            base.push(await claimMs(work, id, `u-${tag}-${i}`, false));
          }
          return { mine: median(mine), base: median(base) };
        });
        rows.push({
          what:
            `git ledger, ${n} records: a claim under an approval ${what} old`,
          measured: formatMs(value.mine),
          baseline: `the same claim, no history check: ${formatMs(value.base)}`,
          ratio: formatRatio(value.mine / value.base),
          goal: "",
          met: undefined,
          load,
        });
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
  return rows;
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(
    await historyBench(quick ? { sizes: [1000], age: 5, rounds: 2 } : {}),
  );
}
