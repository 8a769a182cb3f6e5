/**
 * The log on a slow pipe, through the binary: `chant-wave run` of a one-run
 * wave whose plan prints 1,000,000 lines of 80 bytes, its stderr a pipe that a
 * reader empties slowly (64 KiB, then a millisecond's pause: a CI log
 * collector that falls behind), made non-blocking as a Node tool sharing the
 * pipe leaves it, against the same run on the same pipe left blocking, in
 * paired runs. The figure is the CPU time of the whole process tree (GNU
 * `time` around a `perl` that sets the flag and execs the binary), the wall
 * time beside it; the reader counts the delivered lines (every one must
 * arrive). Runnable alone
 * (`deno run --allow-all scripts/bench/slow_pipe_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  formatMs,
  formatRatio,
  median,
  printTable,
  type Row,
  type Timed,
  withLoad,
} from "./_measure.ts";
import { cleanUp, run, setUp } from "./stream_bench.ts";

/** Sizes of {@linkcode slowPipeBench}. */
export interface SlowPipeBenchOptions {
  /** Lines the plan command writes. @default {1_000_000} */
  lines?: number;
  /** Paired rounds. @default {3} */
  rounds?: number;
}

/** Execs its arguments with stderr made non-blocking when `NONBLOCK=1`. */
const WRAPPER = "use Fcntl; if ($ENV{NONBLOCK}) {" +
  " fcntl(STDERR, F_SETFL, fcntl(STDERR, F_GETFL, 0) | O_NONBLOCK) or die }" +
  " exec { $ARGV[0] } @ARGV or die";
/** Reads stdin 64 KiB at a time with a 1 ms pause after each; prints the step's lines. */
const SLOW_READER = 'my ($n, $carry) = (0, "");' +
  " while (sysread(STDIN, my $b, 65536)) { my $t = $carry . $b;" +
  " $n += () = $t =~ /\\| line /g; $carry = substr($t, -6);" +
  ' select(undef, undef, undef, 0.001) } print "$n\\n"';

/**
 * One run on the slow pipe: `time perl WRAPPER chant-wave run … 2>| slow
 * reader`, stdout to /dev/null.
 * @throws {Error} When the run fails or a line is missing.
 */
async function onSlowPipe(
  dir: string,
  lines: number,
  nonBlocking: boolean,
): Promise<Timed> {
  const usage = await Deno.makeTempFile();
  try {
    // GNU time notes a failed command in its file ("Command exited with…").
    const script = '/usr/bin/time -f "%U %S" -o "$1" perl -e "$2" "$3" ' +
      'run --spec flood.json --wave 1 2>&1 >/dev/null | perl -e "$4"';
    const start = performance.now();
    const out = await new Deno.Command("sh", {
      args: ["-c", script, "sh", usage, WRAPPER, BINARY, SLOW_READER],
      cwd: dir,
      env: { NONBLOCK: nonBlocking ? "1" : "0" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const ms = performance.now() - start;
    const delivered = Number(new TextDecoder().decode(out.stdout).trim());
    const timed = (await Deno.readTextFile(usage)).trim().split("\n");
    if (!out.success || timed.length > 1 || delivered !== lines) {
      const why = new TextDecoder().decode(out.stderr).slice(-2000);
      throw new Error(
        `${delivered} of ${lines} lines arrived (${timed.join("; ")}): ${why}`,
      );
    }
    const [user, system] = timed[0].split(" ").map(Number);
    return { ms, cpuMs: (user + system) * 1000 };
  } finally {
    await Deno.remove(usage);
  }
}

/** `cpu 2.31 s, wall 4.10 s`, the medians of some runs. */
function cpuAndWall(runs: readonly Timed[]): string {
  const cpu = median(runs.map((t) => t.cpuMs ?? 0));
  return `cpu ${formatMs(cpu)}, wall ${
    formatMs(median(runs.map((t) => t.ms)))
  }`;
}

/**
 * Measures the slow-pipe row.
 * @param options Lines and rounds.
 * @returns One row: the CPU time on a non-blocking pipe against a blocking one.
 * @throws {Error} When a line was not delivered.
 */
export async function slowPipeBench(
  options: SlowPipeBenchOptions = {},
): Promise<Row> {
  const lines = options.lines ?? 1_000_000;
  const rounds = options.rounds ?? 3;
  const dir = await setUp(lines);
  try {
    const clean = cleanUp(dir);
    const { value, load } = await withLoad(async () => {
      const mine: Timed[] = [];
      const base: Timed[] = [];
      const ratios: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 === 0 ? [true, false] : [false, true];
        for (const nonBlocking of order) {
          await clean();
          (nonBlocking ? mine : base).push(
            await onSlowPipe(dir, lines, nonBlocking),
          );
        }
        ratios.push(mine[i].cpuMs! / base[i].cpuMs!);
      }
      return { mine, base, ratios };
    });
    const ratio = median(value.ratios);
    return {
      what: `${(lines / 1e6).toLocaleString("en")}M lines (\`${
        run("flood.json").join(" ")
      }\`) to a slow non-blocking stderr pipe`,
      measured: cpuAndWall(value.mine),
      baseline: `the same pipe left blocking: ${cpuAndWall(value.base)}`,
      ratio: `${formatRatio(ratio)} (CPU)`,
      goal: "CPU ≤ 1.5×",
      met: ratio <= 1.5,
      load,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable([
    await slowPipeBench(quick ? { lines: 100_000, rounds: 1 } : {}),
  ]);
}
