/**
 * Shared measuring helpers for the benchmarks: the wall time (and the CPU time
 * of its process tree and its peak memory, through `wait4`) of a command, paired runs of a command and its
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
   * Also measure the CPU time of the process tree and the peak resident
   * memory, through {@linkcode USAGE_SCRIPT} (the wall time is then its own,
   * taken around GNU `time` and the command only, so Python's start costs the
   * figure nothing).
   */
  usage?: boolean;
  /**
   * Send stderr to /dev/null too, as the baselines' output goes (a command
   * whose output is the figure, such as the step console's): a failure then
   * says only its exit code.
   */
  dropStderr?: boolean;
}

/** What one run of a command took. */
export interface Timed {
  /** Wall time in milliseconds. */
  ms: number;
  /**
   * User and system CPU time in milliseconds (microsecond resolution), of the
   * command and every descendant it waited for (with `usage`).
   */
  cpuMs?: number;
  /** Peak resident memory in MB (10^6 bytes) of the largest process (with `usage`). */
  peakMb?: number;
}

const GNU_TIME = "/usr/bin/time";

/**
 * Starts the command under GNU `time` (which writes its peak resident memory
 * in KiB to the file named first), waits for it with `wait4`, and appends to
 * that file its wall time and the user and system CPU time of the process tree
 * in milliseconds, exiting with the command's exit code. GNU `time`'s own
 * `%U %S` have 10 ms resolution, too coarse for a command of a few tens of
 * milliseconds; `wait4` gives them to the microsecond. The CPU time includes
 * GNU `time`'s own start, under a millisecond, on both sides of a pair alike.
 * (The memory comes from GNU `time`, not from this script's `wait4`: a
 * child keeps the peak of the process it was forked from, here Python's.)
 */
const USAGE_SCRIPT = `
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
argv = ["${GNU_TIME}", "-f", "%M", "-o", out, *argv]
start = time.perf_counter_ns()
pid = os.posix_spawn(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
wall = (time.perf_counter_ns() - start) / 1e6
cpu = (usage.ru_utime + usage.ru_stime) * 1000
with open(out, "a") as f:
    f.write(f"{wall} {cpu}\\n")
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
`;

/**
 * Runs a command with stdout sent to /dev/null and stderr kept for the message
 * when it fails (or sent to /dev/null too, `dropStderr`), and returns its wall
 * time, and its CPU time and peak memory when asked.
 * @throws {Error} When the command exits with a code not in `okCodes`.
 */
export async function runTimed(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<Timed> {
  const usageFile = options.usage ? await Deno.makeTempFile() : undefined;
  try {
    const [command, argv] = usageFile
      ? ["python3", ["-c", USAGE_SCRIPT, usageFile, cmd, ...args]]
      : [cmd, args];
    const start = performance.now();
    const output = await new Deno.Command(command, {
      args: argv,
      cwd: options.cwd,
      stdout: "null",
      stderr: options.dropStderr ? "null" : "piped",
    }).output();
    const ms = performance.now() - start;
    const code = output.code;
    if (!(options.okCodes ?? [0]).includes(code)) {
      const text = options.dropStderr
        ? "(stderr went to /dev/null)"
        : new TextDecoder().decode(output.stderr).slice(-2000);
      throw new Error(`${cmd} ${args.join(" ")} exited ${code}: ${text}`);
    }
    if (!usageFile) return { ms };
    // GNU time's line (after any "Command exited with non-zero status"), then ours.
    const lines = (await Deno.readTextFile(usageFile)).trim().split("\n");
    const [wall, cpu] = (lines.at(-1) ?? "").split(" ").map(Number);
    const peakKb = Number(lines.at(-2));
    return { ms: wall, cpuMs: cpu, peakMb: peakKb * 1024 / 1e6 };
  } finally {
    if (usageFile) await Deno.remove(usageFile);
  }
}

/** Paired runs of a command and its baseline. */
export interface Paired {
  mine: Timed[];
  base: Timed[];
  /** `mine[i].ms / base[i].ms` for each pair. */
  ratios: number[];
  /** `mine[i].cpuMs / base[i].cpuMs` for each pair where both sides have it. */
  cpuRatios: number[];
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
  const out: Paired = { mine: [], base: [], ratios: [], cpuRatios: [] };
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
    if (m.cpuMs !== undefined && b.cpuMs) out.cpuRatios.push(m.cpuMs / b.cpuMs);
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
