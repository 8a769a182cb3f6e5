/**
 * The wave runner's overhead, through the binary: `chant-wave run --parallel 2`
 * of a wave whose plan and apply commands are tiny scripts, against `xargs -P 2`
 * running the same commands (one plan and one apply per run, plans first) in the
 * same run, at 1,000 runs and at 100 (where the fixed cost shows); and the peak
 * memory of a 10,000-run wave against a 1-run wave's. Runnable alone
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
  /** Runs of the wave whose peak memory is measured. @default {10000} */
  memory?: number;
  /** Paired rounds of the large wave (the small one gets twice as many). @default {3} */
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
    const ratio = median(pairs.ratios);
    return {
      what,
      measured: formatRuns(pairs.mine),
      baseline: `\`xargs -P 2\`, the same ${2 * runs} commands: ${
        formatRuns(pairs.base)
      }`,
      ratio: formatRatio(ratio),
      goal: `≤ ${goal.toFixed(2)}×`,
      met: ratio <= goal,
      load,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The peak memory of a `runs`-run wave against a 1-run wave's; one row. */
async function memoryRow(runs: number): Promise<Row> {
  const [big, one] = [await setUp(runs), await setUp(1)];
  try {
    const { value, load } = await withLoad(async () => {
      const peaks = [];
      for (const dir of [one, big]) {
        await cleanUp(dir);
        peaks.push(await runTimed(BINARY, RUN, { cwd: dir, usage: true }));
      }
      return peaks;
    });
    const [base, mine] = value.map((t) => t.peakMb ?? 0);
    return {
      what: `peak memory of a ${runs.toLocaleString("en")}-run wave`,
      measured: `${formatMb(mine)} (${formatRuns([value[1]])})`,
      baseline: `a 1-run wave: ${formatMb(base)}`,
      ratio: formatRatio(mine / base),
      goal: "< 80 MiB",
      met: mine < 80 * 1.048576,
      load,
    };
  } finally {
    await Deno.remove(big, { recursive: true });
    await Deno.remove(one, { recursive: true });
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
  const rounds = options.rounds ?? 3;
  const n = (runs: number) => runs.toLocaleString("en");
  return [
    await timedRow(
      large,
      rounds,
      1.15,
      `\`run --parallel 2\`, a ${n(large)}-run wave of tiny scripts`,
    ),
    await timedRow(
      small,
      rounds * 2,
      1.5,
      `the same, ${n(small)} runs (the fixed cost shows)`,
    ),
    await memoryRow(options.memory ?? 10_000),
  ];
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(
    await waveBench(
      quick ? { large: 200, small: 20, memory: 500, rounds: 1 } : {},
    ),
  );
}
