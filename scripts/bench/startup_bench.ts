/**
 * Start-up, validation and rendering through the binary: `chant-wave --version`
 * against `git --version`; `chant-wave check` of a 5,000-run spec and
 * `chant-wave pipeline <forge>` of a 200-wave spec (2,600 jobs), each against
 * `--version` (the start-up they include), in paired runs. Runnable alone
 * (`deno run --allow-all scripts/bench/startup_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  formatMs,
  formatRatio,
  median,
  paired,
  printTable,
  type Row,
  runTimed,
  withLoad,
} from "./_measure.ts";

/** Rounds of {@linkcode startupBench}. */
export interface StartupBenchOptions {
  /** Paired rounds of `--version` against `git --version`. @default {30} */
  rounds?: number;
}

/** A spec with `waves` waves of `perWave` runs each. */
function checkSpec(waves: number, perWave: number): string {
  const list = Array.from({ length: waves }, (_, w) => ({
    name: `wave-${w + 1}`,
    gate: w % 2 ? "always" : "on-destructive",
    runs: Array.from({ length: perWave }, (_, r) => `tenant-${w + 1}-${r + 1}`),
  }));
  return JSON.stringify({
    name: "bench",
    plan: ["p", "{target}", "{plan}"],
    apply: ["a", "{plan}"],
    waves: list,
  });
}

/** `waves` waves of 12 runs, each split into 4 job groups of 3 shares. */
function pipelineSpec(waves: number): string {
  const list = Array.from({ length: waves }, (_, index) => ({
    name: `w${index + 1}`,
    runs: Array.from({ length: 12 }, (_, run) => `g${run % 4 + 1}/t${run}`),
    variables: { REGION: `r${index % 5}` },
    jobs: Array.from({ length: 4 }, (_, group) => ({
      name: `g${group + 1}`,
      runs: [`g${group + 1}/*`],
      shares: 3,
    })),
  }));
  return JSON.stringify({
    name: "bench",
    plan: ["tool", "plan", "{target}", "{plan}"],
    apply: ["tool", "apply", "{plan}"],
    pipeline: { install: "export PATH=$PWD/bin:$PATH" },
    waves: list,
  });
}

/** One paired row against a baseline command, with an absolute goal or none. */
async function row(
  what: string,
  rounds: number,
  mine: () => Promise<{ ms: number }>,
  base: () => Promise<{ ms: number }>,
  baseline: string,
  goal: { text: string; met: (ms: number, ratio: number) => boolean },
): Promise<Row> {
  const { value, load } = await withLoad(() => paired(rounds, mine, base));
  const ms = median(value.mine.map((t) => t.ms));
  const ratio = median(value.ratios);
  return {
    what,
    measured: formatMs(ms),
    baseline: `${baseline}: ${formatMs(median(value.base.map((t) => t.ms)))}`,
    ratio: formatRatio(ratio),
    goal: goal.text,
    met: goal.met(ms, ratio),
    load,
  };
}

/**
 * Measures the start-up, check and pipeline rows.
 * @param options Rounds.
 * @returns Five rows.
 */
export async function startupBench(
  options: StartupBenchOptions = {},
): Promise<Row[]> {
  const rounds = options.rounds ?? 30;
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  try {
    await Deno.writeTextFile(`${dir}/check.json`, checkSpec(50, 100));
    await Deno.writeTextFile(`${dir}/pipeline.json`, pipelineSpec(200));
    const version = () => runTimed(BINARY, ["--version"]);
    const rows = [
      await row(
        "`chant-wave --version`",
        rounds,
        version,
        () => runTimed("git", ["--version"]),
        "`git --version`",
        { text: "≤ 15×", met: (_ms, ratio) => ratio <= 15 },
      ),
      await row(
        "`chant-wave check`, 5,000 runs in 50 waves",
        Math.ceil(rounds / 3),
        () => runTimed(BINARY, ["check", "--spec", "check.json"], { cwd: dir }),
        version,
        "`--version`",
        { text: "< 150 ms", met: (ms) => ms < 150 },
      ),
    ];
    for (const forge of ["github", "gitlab", "forgejo"]) {
      const args = [
        "pipeline",
        forge,
        "--spec",
        "pipeline.json",
        "--out",
        `out-${forge}`,
      ];
      rows.push(
        await row(
          `\`chant-wave pipeline ${forge}\`, 200 waves × 4 groups × 3 shares`,
          Math.ceil(rounds / 3),
          () => runTimed(BINARY, args, { cwd: dir }),
          version,
          "`--version`",
          { text: "< 300 ms", met: (ms) => ms < 300 },
        ),
      );
    }
    return rows;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(await startupBench(quick ? { rounds: 3 } : {}));
}
