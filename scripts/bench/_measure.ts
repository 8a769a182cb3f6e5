/**
 * Shared measuring helpers for the benchmarks: the wall time (and, through
 * `python3`'s `os.wait4`, the CPU time and peak memory of its process tree, to
 * the millisecond) of a command, paired runs of a command and its
 * baseline in alternating order, medians, the machine's load, and the row every
 * benchmark reports for the table `main.ts` prints.
 * @module
 */

/** One row of the table: a figure, its same-run baseline, and its goal. */
export interface Row {
  /** What was measured. */
  what: string;
  /** The figure, formatted (`2.31 s`, `58.2 MB`). */
  measured: string;
  /** The baseline measured in the same run, formatted, or `""`. */
  baseline: string;
  /** `measured / baseline`, formatted (`1.12×`), or `""`. */
  ratio: string;
  /** The goal, in words (`≤ 1.15×`, `< 60 MB`). */
  goal: string;
  /** Whether the goal was met; `undefined` when there is no goal to judge. */
  met: boolean | undefined;
  /** The 1-minute load average before and after the measurement. */
  load: string;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The 1-minute load average, or `?` where `/proc/loadavg` is missing. */
export function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  } catch {
    return "?";
  }
}

/** Runs `measure` and returns its result with the load before and after it. */
export async function withLoad<T>(
  measure: () => Promise<T>,
): Promise<{ value: T; load: string }> {
  const before = loadAverage();
  const value = await measure();
  return { value, load: `${before} → ${loadAverage()}` };
}

/** How to run a command. */
export interface RunOptions {
  cwd?: string;
  /** Exit codes that count as success. @default {[0]} */
  okCodes?: number[];
  /**
   * Also measure the CPU time and the peak resident memory of the command's
   * process tree (`os.wait4` in a `python3` wrapper; wall time measured there).
   */
  usage?: boolean;
}

/** What one run of a command took. */
export interface Timed {
  /** Wall time in milliseconds. */
  ms: number;
  /** User and system CPU time in milliseconds, its children's included (with `usage`). */
  cpuMs?: number;
  /** Peak resident memory in MB (10^6 bytes) of the largest process (with `usage`). */
  peakMb?: number;
}

/**
 * Runs a command (argv after the script's name) and prints its wall time, and
 * the CPU time and peak memory of its whole tree (`wait4`'s rusage: the child
 * and every descendant it waited for), in milliseconds with microsecond
 * resolution (GNU `time` prints hundredths of a second), and kilobytes.
 */
const USAGE_PY = `
import os, sys, time
start = time.perf_counter()
pid = os.spawnvp(os.P_NOWAIT, sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
wall = (time.perf_counter() - start) * 1000
sys.stderr.write("\\nchant-wave-usage %f %f %d %d\\n" % (
    wall, (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_maxrss,
    os.waitstatus_to_exitcode(status)))
`;

/**
 * Runs a command with stdout and stderr sent to /dev/null (stderr is kept when
 * it fails) and returns its wall time, and its CPU time and peak memory when
 * asked (through `python3`'s `os.wait4`, the wall time then measured there too,
 * so the wrapper's own start is not counted).
 * @throws {Error} When the command exits with a code not in `okCodes`.
 */
export async function runTimed(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<Timed> {
  const [command, argv] = options.usage
    ? ["python3", ["-c", USAGE_PY, cmd, ...args]]
    : [cmd, args];
  const start = performance.now();
  const { code, stderr } = await new Deno.Command(command, {
    args: argv,
    cwd: options.cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  const text = new TextDecoder().decode(stderr);
  const usage = options.usage
    ? /\nchant-wave-usage (\S+) (\S+) (\d+) (-?\d+)\n$/.exec(text)
    : null;
  const exit = usage ? Number(usage[4]) : code;
  if (!(options.okCodes ?? [0]).includes(exit) || (options.usage && !usage)) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${exit}: ${text.slice(-2000)}`,
    );
  }
  if (!usage) return { ms };
  return {
    ms: Number(usage[1]),
    cpuMs: Number(usage[2]),
    peakMb: Number(usage[3]) * 1024 / 1e6,
  };
}

/** Paired runs of a command and its baseline. */
export interface Paired {
  mine: Timed[];
  base: Timed[];
  /** `mine[i].ms / base[i].ms` for each pair. */
  ratios: number[];
}

/**
 * Runs `mine` and `base` `rounds` times each, in pairs, alternating which goes
 * first, so that a change of load hits both sides alike.
 * @param before Runs before each run of either side (a clean-up), untimed.
 */
export async function paired(
  rounds: number,
  mine: () => Promise<Timed>,
  base: () => Promise<Timed>,
  before: () => Promise<void> = () => Promise.resolve(),
): Promise<Paired> {
  const out: Paired = { mine: [], base: [], ratios: [] };
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? [mine, base] : [base, mine];
    const times: Timed[] = [];
    for (const side of order) {
      await before();
      times.push(await side());
    }
    const [m, b] = i % 2 === 0 ? times : [times[1], times[0]];
    out.mine.push(m);
    out.base.push(b);
    out.ratios.push(m.ms / b.ms);
  }
  return out;
}

/**
 * Runs a command and returns its wall time in milliseconds (kept for the
 * benchmarks that predate {@linkcode runTimed}).
 * @throws {Error} When the command exits with a code not in `okCodes`.
 */
export async function timeCommand(
  cmd: string,
  args: string[],
  options: { cwd?: string; okCodes?: number[] } = {},
): Promise<number> {
  return (await runTimed(cmd, args, options)).ms;
}

/** Formats milliseconds with one decimal: `812.0 ms`. */
export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/**
 * Formats the medians of some runs: wall time, then CPU time and peak memory
 * when they were measured (`2.31 s, cpu 1.20 s, peak 58.2 MB`).
 */
export function formatRuns(runs: readonly Timed[]): string {
  const parts = [formatMs(median(runs.map((t) => t.ms)))];
  const cpu = runs.map((t) => t.cpuMs).filter((v) => v !== undefined);
  if (cpu.length > 0) parts.push(`cpu ${formatMs(median(cpu))}`);
  const peak = runs.map((t) => t.peakMb).filter((v) => v !== undefined);
  if (peak.length > 0) parts.push(`peak ${formatMb(median(peak))}`);
  return parts.join(", ");
}

/** Formats milliseconds: `812.0 ms`, `2.31 s`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

/** Formats a ratio: `1.12×`. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}

/** Formats megabytes: `58.2 MB`. */
export function formatMb(mb: number): string {
  return `${mb.toFixed(1)} MB`;
}

/** Prints rows as a Markdown table. */
export function printTable(rows: readonly Row[]): void {
  const header = [
    "what",
    "measured",
    "baseline, same run",
    "ratio",
    "goal",
    "met",
    "load (1 min)",
  ];
  const cells = rows.map((r) => [
    r.what,
    r.measured,
    r.baseline,
    r.ratio,
    r.goal,
    r.met === undefined ? "" : r.met ? "yes" : "**no**",
    r.load,
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...cells.map((c) => c[i].length))
  );
  const line = (c: string[]) =>
    `| ${c.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const c of cells) {
    console.log(line(c.map((v) => v.replace(/\|/g, "\\|"))));
  }
}

/** Runs git with an isolated configuration in `cwd`. */
export async function git(cwd: string, ...args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command("git", {
    args: [
      "-c",
      "user.email=bench@example.invalid",
      "-c",
      "user.name=bench",
      ...args,
    ],
    cwd,
    env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `git ${args.join(" ")}: ${new TextDecoder().decode(stderr)}`,
    );
  }
}

/**
 * Makes `dir` a git repository with everything in it committed twice (the
 * second commit empty), as a CI checkout of a change would be.
 */
export async function commitAll(dir: string): Promise<void> {
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "base");
  await git(dir, "commit", "-q", "--allow-empty", "-m", "change");
}

/**
 * The compiled binary the benchmarks measure: `dist/chant-wave`, or the one
 * `CHANT_WAVE_BENCH_BINARY` names (to measure another build the same way).
 */
export const BINARY = Deno.env.get("CHANT_WAVE_BENCH_BINARY") ??
  new URL("../../dist/chant-wave", import.meta.url).pathname;
