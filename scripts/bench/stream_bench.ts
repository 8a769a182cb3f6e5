/**
 * Streaming through the step console, through the binary: `chant-wave run` of a
 * one-run wave whose plan command writes 1,000,000 lines of 80 bytes to stdout,
 * the log sent to /dev/null, against `cat` of the same file to /dev/null and
 * against `sed` adding the same `[plan] flood | ` prefix to `cat`'s output
 * (judged by the CPU time of the process tree: what the console adds, the run
 * less the same run with a plan that prints nothing, both measured in the
 * pair; the whole run's ratio printed beside it), in paired runs; and
 * the run's peak memory against the same run with a plan that prints nothing,
 * and the peak memory of a step printing ten times as much (10,000,000 lines,
 * from `yes`) against one printing 1,000,000 the same way. One more run counts
 * the delivered lines (every one must arrive). Runnable
 * alone (`deno run --allow-all scripts/bench/stream_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  commitAll,
  formatMb,
  formatMs,
  formatRatio,
  formatRuns,
  median,
  paired,
  printTable,
  type Row,
  runTimed,
  type Timed,
  withLoad,
} from "./_measure.ts";

/** Sizes of {@linkcode streamBench}. */
export interface StreamBenchOptions {
  /** Lines the plan command writes. @default {1_000_000} */
  lines?: number;
  /** Paired rounds against each baseline. @default {9} */
  rounds?: number;
  /**
   * Lines of the long stream whose peak memory is compared with that of
   * `lines` lines of the same kind (one run each). @default {10 × lines}
   */
  longLines?: number;
}

const LINE_BYTES = 80;
const PREFIX = "[plan] flood | ";

/** Writes `count` lines of exactly 80 bytes. */
async function writeLines(path: string, count: number): Promise<void> {
  using file = await Deno.open(path, { write: true, create: true });
  const filler = "x".repeat(LINE_BYTES - 16);
  const encoder = new TextEncoder();
  for (let start = 1; start <= count; start += 10_000) {
    let text = "";
    for (let n = start; n < start + 10_000 && n <= count; n++) {
      text += `line ${String(n).padStart(9, "0")} ${filler}\n`;
    }
    const data = encoder.encode(text);
    for (let at = 0; at < data.length;) {
      at += await file.write(data.subarray(at));
    }
  }
}

/**
 * A repository with three one-run specs: `flood.json` prints `lines.txt`
 * (`lines` lines of 80 bytes), `quiet.json` nothing, and `many.json` as many
 * 80-byte lines as the file `many.count` says (from `yes`, so no file holds
 * them).
 * @param lines The lines of `lines.txt`.
 * @returns The repository's path.
 */
export async function setUp(lines: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  await writeLines(`${dir}/lines.txt`, lines);
  const plan = (print: string) =>
    `#!/bin/sh\n${print}printf '{"planDigest":"sha256:%064d"}' 0 > "$1"\n`;
  await Deno.writeTextFile(`${dir}/flood.sh`, plan("cat lines.txt\n"));
  await Deno.writeTextFile(`${dir}/quiet.sh`, plan(""));
  await Deno.writeTextFile(
    `${dir}/many.sh`,
    plan(`yes '${"y".repeat(LINE_BYTES - 1)}' | head -n "$(cat many.count)"\n`),
  );
  for (const name of ["flood", "quiet", "many"]) {
    const spec = {
      name,
      plan: ["sh", `${name}.sh`, "{plan}"],
      apply: ["true"],
      heartbeat: "0",
      waves: [{ name: "w", gate: "never", runs: ["flood"] }],
    };
    await Deno.writeTextFile(`${dir}/${name}.json`, JSON.stringify(spec));
  }
  await Deno.writeTextFile(
    `${dir}/.gitignore`,
    ".chant/\nlines.txt\nmany.count\n",
  );
  await commitAll(dir);
  return dir;
}

/**
 * The arguments of a `run` of the one-run wave of a spec.
 * @param spec The spec file.
 * @returns The arguments after the binary.
 */
export const run = (spec: string) => ["run", "--spec", spec, "--wave", "1"];

/**
 * Removes what the previous run left, so each run plans and applies anew.
 * @param dir The repository.
 * @returns The clean-up to run before each run.
 */
export const cleanUp = (dir: string) => () =>
  Deno.remove(`${dir}/.chant`, { recursive: true }).catch(() => {});

/** Runs the flood wave once more and counts the console lines it printed. */
async function countDelivered(dir: string): Promise<number> {
  const { stderr } = await new Deno.Command(BINARY, {
    args: run("flood.json"),
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stderr);
  let count = 0;
  for (let at = text.indexOf(`${PREFIX}line `); at !== -1;) {
    count++;
    at = text.indexOf(`${PREFIX}line `, at + 1);
  }
  return count;
}

/** `1M lines (80 MB)` */
function sizeOf(lines: number): string {
  return `${(lines / 1e6).toLocaleString("en")}M lines (${
    (lines * LINE_BYTES / 1e6).toFixed(0)
  } MB)`;
}

/**
 * The peak memory of a step printing `long` lines against one printing
 * `lines` (the same lines, from `yes`), one run each: what ten times the
 * output costs in memory, measured (no goal: the issues set none).
 */
async function longStreamRow(
  dir: string,
  lines: number,
  long: number,
): Promise<Row> {
  const { value, load } = await withLoad(async () => {
    const timed = [];
    for (const count of [lines, long]) {
      await cleanUp(dir)();
      await Deno.writeTextFile(`${dir}/many.count`, `${count}\n`);
      timed.push(
        await runTimed(BINARY, run("many.json"), {
          cwd: dir,
          usage: true,
          dropStderr: true,
        }),
      );
    }
    return timed;
  });
  const [short, longer] = value.map((t) => t.peakMb ?? 0);
  return {
    what: `peak memory streaming ${sizeOf(long)}`,
    measured: `${formatMb(longer)} (${formatRuns([value[1]])})`,
    baseline: `the same step printing ${sizeOf(lines)}: ${formatMb(short)} (${
      formatRuns([value[0]])
    })`,
    ratio: formatRatio(longer / short),
    goal: "",
    met: undefined,
    load,
  };
}

/**
 * Measures the streaming rows.
 * @param options Lines and rounds.
 * @returns Four rows: against `cat`, against `sed`, the peak memory, and the
 * peak memory of a ten times longer stream.
 * @throws {Error} When a line was not delivered.
 */
export async function streamBench(
  options: StreamBenchOptions = {},
): Promise<Row[]> {
  const lines = options.lines ?? 1_000_000;
  const rounds = options.rounds ?? 9;
  const dir = await setUp(lines);
  try {
    const delivered = await countDelivered(dir);
    if (delivered !== lines) {
      throw new Error(`${delivered} of ${lines} lines were delivered`);
    }
    // The console's lines go to /dev/null, as the baselines' do.
    const flood = () =>
      runTimed(BINARY, run("flood.json"), {
        cwd: dir,
        usage: true,
        dropStderr: true,
      });
    const cat = await withLoad(() =>
      paired(
        rounds,
        flood,
        () => runTimed("cat", ["lines.txt"], { cwd: dir, usage: true }),
        cleanUp(dir),
      )
    );
    const quiet = () =>
      runTimed(BINARY, run("quiet.json"), {
        cwd: dir,
        usage: true,
        dropStderr: true,
      });
    // What the console adds: the flood run less the same run printing nothing,
    // taken back to back (a run's fixed start is its own row, `--decide`).
    const wholes: number[] = [];
    const console = async (): Promise<Timed> => {
      const without = await quiet();
      const whole = await flood();
      wholes.push(whole.cpuMs ?? 0);
      return {
        ms: whole.ms - without.ms,
        cpuMs: (whole.cpuMs ?? 0) - (without.cpuMs ?? 0),
      };
    };
    const sed = await withLoad(() =>
      paired(
        rounds,
        console,
        () =>
          runTimed("sh", ["-c", `cat lines.txt | sed 's/^/${PREFIX}/'`], {
            cwd: dir,
            usage: true,
          }),
        cleanUp(dir),
      )
    );
    const memory = await withLoad(() =>
      paired(
        rounds,
        flood,
        quiet,
        cleanUp(dir),
      )
    );
    const size = sizeOf(lines);
    const ms = (p: typeof cat.value, side: "mine" | "base") =>
      formatRuns(p[side]);
    const catRatio = median(cat.value.ratios);
    const sedRatio = median(sed.value.cpuRatios);
    const wholeCpu = median(wholes);
    const wholeRatios = wholes.map((w, i) =>
      w / (sed.value.base[i].cpuMs ?? 1)
    );
    const peak = median(memory.value.mine.map((t) => t.peakMb ?? 0));
    const quietPeak = median(memory.value.base.map((t) => t.peakMb ?? 0));
    return [
      {
        what: `${size} through the step console (\`run\`, log to /dev/null)`,
        measured: `${ms(cat.value, "mine")}; every line delivered`,
        baseline: `\`cat\` to /dev/null: ${ms(cat.value, "base")}`,
        ratio: formatRatio(catRatio),
        goal: "≤ 6× `cat`",
        met: catRatio <= 6,
        load: cat.load,
      },
      {
        what:
          "the same, against `sed` adding the same prefix: what the console adds (the run less one printing nothing)",
        measured: `${ms(sed.value, "mine")}; the whole run: cpu ${
          formatMs(wholeCpu)
        }`,
        baseline: `\`cat lines.txt | sed 's/^/${PREFIX}/'\`: ${
          ms(sed.value, "base")
        }`,
        ratio: `cpu ${formatRatio(sedRatio)}; the whole run: cpu ${
          formatRatio(median(wholeRatios))
        }`,
        goal: "cpu ≤ 1.2× `sed`",
        met: sedRatio <= 1.2,
        load: sed.load,
      },
      {
        what: `peak memory streaming ${size}`,
        measured: formatMb(peak),
        baseline: `the same run, a plan that prints nothing: ${
          formatMb(quietPeak)
        } (${ms(memory.value, "base")})`,
        ratio: formatRatio(peak / quietPeak),
        goal: "< 60 MB",
        met: peak < 60,
        load: memory.load,
      },
      await longStreamRow(dir, lines, options.longLines ?? 10 * lines),
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(await streamBench(quick ? { lines: 100_000, rounds: 1 } : {}));
}
