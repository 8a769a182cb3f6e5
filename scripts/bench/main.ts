/**
 * `deno task bench [--quick] [--no-compile]`: builds `dist/chant-wave`, runs
 * every benchmark against it, and prints one Markdown table: each figure with
 * its baseline measured in the same run (paired runs in alternating order; the
 * figures are medians, the ratio the median of the pairs' ratios), its goal,
 * and the 1-minute load average before and after it. The git ledger benchmark
 * runs last, as its own process, and prints its own lines under the table.
 *
 * `--quick` shrinks every size and round (for a smoke test in CI: its figures
 * are not the ones to quote); `--no-compile` measures the binary already built;
 * `CHANT_WAVE_BENCH_BINARY=path` measures another build (nothing is compiled).
 * @module
 */

import {
  BINARY,
  loadAverage,
  printTable,
  type Row,
  withLoad,
} from "./_measure.ts";
import { fleetBench } from "./fleet_bench.ts";
import { gateBench } from "./gate_bench.ts";
import { slowPipeBench } from "./slow_pipe_bench.ts";
import { historyBench } from "./history_bench.ts";
import { cloneHealthBench } from "./clone_health_bench.ts";
import { decideCostBench } from "./decide_cost_bench.ts";
import { ledgerSizeBench } from "./ledger_size_bench.ts";
import { startupBench } from "./startup_bench.ts";
import { streamBench } from "./stream_bench.ts";
import { waveBench } from "./wave_bench.ts";

const root = new URL("../..", import.meta.url).pathname;
const quick = Deno.args.includes("--quick");

/** Runs a command in the repository and returns its trimmed stdout. */
async function output(cmd: string, args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command(cmd, {
    args,
    cwd: root,
    stderr: "null",
  })
    .output();
  return new TextDecoder().decode(stdout).trim();
}

if (
  !Deno.args.includes("--no-compile") &&
  !Deno.env.has("CHANT_WAVE_BENCH_BINARY")
) {
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/compile.ts"],
    cwd: root,
  }).output();
  if (!built.success) Deno.exit(1);
}

const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
  .match(/^model name\s*:\s*(.+)$/m)?.[1] ?? "unknown CPU";
const head = await output("git", ["rev-parse", "--short", "HEAD"]);
const changed = (await output("git", ["status", "--porcelain"])) !== "";
const built = Deno.env.has("CHANT_WAVE_BENCH_BINARY")
  ? ""
  : `, built from ${head}${changed ? " with uncommitted changes" : ""}`;
const version = await output(BINARY, ["--version"]);
console.log(
  `${BINARY} ${version}${built}; ${navigator.hardwareConcurrency} × ${cpu}; ` +
    `${new Date().toISOString().slice(0, 16)}Z` +
    (quick ? "; QUICK: sizes cut, not for quoting" : ""),
);
console.log(`load average at the start: ${loadAverage()}\n`);

const rows: Row[] = [];
/** Runs one group of benchmarks, saying on stderr what it does and found. */
async function measure(title: string, group: () => Promise<Row[]>) {
  console.error(`bench: ${title}…`);
  for (const row of await group()) {
    console.error(
      `  ${row.what}: ${row.measured} | ${row.baseline} | ${row.ratio}`,
    );
    rows.push(row);
  }
}

await measure(
  "waves against xargs -P 2",
  () =>
    waveBench(
      quick
        ? { large: 100, small: 20, memory: 1000, memoryBase: 100, rounds: 1 }
        : {},
    ),
);
await measure(
  "planning a tenant fleet against xargs -P 2 sqitch status",
  () => fleetBench(quick ? { sizes: [5, 20], rounds: 1 } : {}),
);
await measure(
  "streaming through the step console",
  () => streamBench(quick ? { lines: 100_000, rounds: 1 } : {}),
);
await measure("the log on a slow non-blocking pipe", async () => [
  await slowPipeBench(quick ? { lines: 100_000, rounds: 1 } : {}),
]);
await measure(
  "the gate",
  () => gateBench(quick ? { records: [1000], rounds: 2 } : {}),
);
await measure(
  "the git ledger as its branch grows",
  () =>
    ledgerSizeBench(quick ? { sizes: [100, 1_000], rounds: 2 } : { rounds: 3 }),
);
await measure(
  "one `run --decide` on a settled git ledger, part by part",
  () => decideCostBench(quick ? { rounds: 3 } : {}),
);
await measure(
  "an approver's clone as rollouts go by",
  () => cloneHealthBench(quick ? { early: 10, late: 40, rounds: 3 } : {}),
);
await measure(
  "a claim's history check on the git ledger",
  () =>
    historyBench(quick ? { sizes: [1_000], age: 5, rounds: 2 } : { rounds: 3 }),
);
console.error("bench: the git ledger (scripts/bench/git_ledger_bench.ts)…");
const { value: ledger, load } = await withLoad(() =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/bench/git_ledger_bench.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
  }).output()
);
rows.push({
  what: "git ledger: 8 writers (`git_ledger_bench.ts`)",
  measured: "see below",
  baseline: "see below",
  ratio: "",
  goal: "≥ plain git",
  met: undefined,
  load,
});
await measure(
  "start-up, check and pipeline",
  () => startupBench(quick ? { rounds: 3 } : {}),
);

printTable(rows);
console.log("\ngit ledger benchmark (scripts/bench/git_ledger_bench.ts):");
console.log(new TextDecoder().decode(ledger.stdout).trimEnd());
console.log(`\nload average at the end: ${loadAverage()}`);
Deno.exit(ledger.success ? 0 : 1);
