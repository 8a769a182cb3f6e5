/**
 * The wave runner's overhead, through the binary: `chant-wave run --parallel 2`
 * of a wave whose plan and apply commands are tiny scripts, against `xargs -P 2`
 * running the same commands (one plan and one apply per run, plans first) in the
 * same run, at 1,000 runs and at 100 (where the fixed cost shows), judged by the
 * CPU time of the whole process tree (the wall time beside it); and the peak
 * memory of a 30,000-run wave against a 1,000-run wave's (the 1-run wave's
 * beside them). Runnable alone
 * (`deno run --allow-all scripts/bench/wave_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  commitAll,
  formatMb,
  formatRatio,
  formatRuns,
  median,
  paired,
  printTable,
  type Row,
  runTimed,
  withLoad,
} from "./_measure.ts";

/** Sizes of {@linkcode waveBench}. */
export interface WaveBenchOptions {
  /** Runs of the large timed wave. @default {1000} */
  large?: number;
  /** Runs of the small timed wave. @default {100} */
  small?: number;
  /** Runs of the wave whose peak memory is measured. @default {30000} */
  memory?: number;
  /** Runs of the wave whose peak memory is its baseline. @default {1000} */
  memoryBase?: number;
  /** Paired rounds of the large wave (the small one gets twice as many). @default {5} */
  rounds?: number;
}

const PLAN = `#!/bin/sh
printf '{"planDigest":"sha256:%064d","empty":false}\\n' 0 > "$2"
`;
const APPLY = `#!/bin/sh
: "$1"
`;
const XARGS = `#!/bin/sh
xargs -P 2 -L 1 sh < plan.args && xargs -P 2 -L 1 sh < apply.args
`;

/** A repository with a one-wave spec of `runs` runs and the xargs lists. */
async function setUp(runs: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  const targets = Array.from(
    { length: runs },
    (_, i) => `t-${String(i).padStart(5, "0")}`,
  );
  const spec = {
    name: "bench",
    plan: ["sh", "plan.sh", "{target}", "{plan}"],
    apply: ["sh", "apply.sh", "{target}"],
    heartbeat: "0",
    waves: [{ name: "all", gate: "never", runs: targets }],
  };
  await Deno.writeTextFile(`${dir}/waves.json`, JSON.stringify(spec));
  await Deno.writeTextFile(`${dir}/plan.sh`, PLAN);
  await Deno.writeTextFile(`${dir}/apply.sh`, APPLY);
  await Deno.writeTextFile(`${dir}/xargs.sh`, XARGS);
  await Deno.writeTextFile(`${dir}/.gitignore`, ".chant/\nplans/\n");
  const plans = targets.map((t) => `plan.sh ${t} plans/${t}.json\n`);
  await Deno.writeTextFile(`${dir}/plan.args`, plans.join(""));
  const applies = targets.map((t) => `apply.sh ${t}\n`);
  await Deno.writeTextFile(`${dir}/apply.args`, applies.join(""));
  await commitAll(dir);
  return dir;
}

const RUN = ["run", "--spec", "waves.json", "--wave", "1", "--parallel", "2"];

/** Removes what the previous run of either side left. */
async function cleanUp(dir: string): Promise<void> {
  await Deno.remove(`${dir}/.chant`, { recursive: true }).catch(() => {});
  await Deno.remove(`${dir}/plans`, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${dir}/plans`);
}

/** Times the wave against xargs in `rounds` pairs; one row. */
async function timedRow(
  runs: number,
  rounds: number,
  goal: number,
  what: string,
): Promise<Row> {
  const dir = await setUp(runs);
  try {
    const { value: pairs, load } = await withLoad(() =>
      paired(
        rounds,
        () => runTimed(BINARY, RUN, { cwd: dir, usage: true }),
        () => runTimed("sh", ["xargs.sh"], { cwd: dir, usage: true }),
        () => cleanUp(dir),
      )
    );
    const cpuRatio = median(pairs.cpuRatios);
    return {
      what,
      measured: formatRuns(pairs.mine),
      baseline: `\`xargs -P 2\`, the same ${2 * runs} commands: ${
        formatRuns(pairs.base)
      }`,
      ratio: `${formatRatio(median(pairs.ratios))}, cpu ${
        formatRatio(cpuRatio)
      }`,
      goal: `cpu ≤ ${goal.toFixed(2)}×`,
      met: cpuRatio <= goal,
      load,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The peak memory of a `runs`-run wave against a `baseRuns`-run wave's, each
 * run once, the smaller first, with a 1-run wave's for scale.
 * @param runs The large wave's runs.
 * @param baseRuns The baseline wave's runs.
 * @returns One row.
 */
export async function memoryRow(runs: number, baseRuns: number): Promise<Row> {
  const sizes = [1, baseRuns, runs];
  const dirs: string[] = [];
  try {
    for (const size of sizes) dirs.push(await setUp(size));
    const { value, load } = await withLoad(async () => {
      const timed = [];
      for (const dir of dirs) {
        await cleanUp(dir);
        timed.push(await runTimed(BINARY, RUN, { cwd: dir, usage: true }));
      }
      return timed;
    });
    const [one, base, mine] = value.map((t) => t.peakMb ?? 0);
    const n = (count: number) => count.toLocaleString("en");
    return {
      what: `peak memory of a ${n(runs)}-run wave`,
      measured: `${formatMb(mine)} (${formatRuns([value[2]])})`,
      baseline: `a ${n(baseRuns)}-run wave: ${formatMb(base)} (${
        formatRuns([value[1]])
      }); a 1-run wave: ${formatMb(one)}`,
      ratio: formatRatio(mine / base),
      goal: "≤ 1.30×",
      met: mine / base <= 1.3,
      load,
    };
  } finally {
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Measures the wave rows.
 * @param options Sizes and rounds.
 * @returns Three rows: the large wave, the small wave, the peak memory.
 */
export async function waveBench(
  options: WaveBenchOptions = {},
): Promise<Row[]> {
  const large = options.large ?? 1000;
  const small = options.small ?? 100;
  const rounds = options.rounds ?? 5;
  const n = (runs: number) => runs.toLocaleString("en");
  return [
    await timedRow(
      large,
      rounds,
      1.25,
      `\`run --parallel 2\`, a ${n(large)}-run wave of tiny scripts`,
    ),
    await timedRow(
      small,
      rounds * 2,
      1.6,
      `the same, ${n(small)} runs (the fixed cost shows)`,
    ),
    await memoryRow(options.memory ?? 30_000, options.memoryBase ?? 1000),
  ];
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(
    await waveBench(
      quick
        ? { large: 200, small: 20, memory: 1000, memoryBase: 100, rounds: 1 }
        : {},
    ),
  );
}
