/**
 * Benchmark of the step console's streaming path: a child writes 1,000,000 lines
 * (about 80 MB) to stdout, streamed through `runStep` and the step console to
 * /dev/null, against `cat` of the same bytes to /dev/null. The streaming side runs
 * as its own process so its peak memory (VmHWM) is its own; `cat | cat` and a
 * `sed` that adds the same prefix are printed for scale. Run alone with
 * `deno run --allow-all scripts/bench/stream_bench.ts`; `scripts/bench/main.ts`
 * calls {@linkcode streamBench}.
 * @module
 */

import { closeSync, openSync } from "node:fs";
import { fdWriter, type Writer } from "../../src/console/writer.ts";
import { runStep } from "../../src/exec/run_step.ts";

/** Options of {@linkcode streamBench}. */
export interface StreamBenchOptions {
  /** Lines the child writes. @default {1_000_000} */
  lines?: number;
  /** Runs of each side; the figures are medians. @default {3} */
  repetitions?: number;
}

/** What {@linkcode streamBench} measured (times are medians, in milliseconds). */
export interface StreamBenchResult {
  /** Lines written by the child. */
  lines: number;
  /** Bytes written by the child. */
  bytes: number;
  /** Runs of each side. */
  repetitions: number;
  /** `cat FILE > /dev/null`. */
  catMs: number;
  /** `cat FILE | cat > /dev/null`: the same bytes through a pipe and a reader. */
  catPipeMs: number;
  /** `sed 's/^/[apply] bench | /' FILE > /dev/null`: the same prefixing, in C. */
  sedMs: number;
  /** `runStep` of `cat FILE`, step console to /dev/null (inside the streaming process). */
  streamMs: number;
  /** The streaming process's wall time, runtime start-up included. */
  streamProcessMs: number;
  /** `streamMs / catMs`; the target is under 4. */
  ratio: number;
  /** `streamMs / catPipeMs`. */
  ratioPipe: number;
  /** Lines delivered to the writer in every run (must equal `lines`). */
  delivered: number[];
  /** The streaming process's peak resident memory, in MB (median); target under 100. */
  peakMb: number;
}

/** What one streaming child process reports on stdout, as JSON. */
interface ChildReport {
  ms: number;
  delivered: number;
  peakKb: number;
}

const LINE_BYTES = 80;

/**
 * Runs the benchmark: writes the data file, times both sides `repetitions`
 * times, and removes the file.
 * @param options Sizes.
 * @returns The medians and the delivered line counts.
 * @throws {Error} When a run fails or delivers the wrong number of lines.
 */
export async function streamBench(
  options: StreamBenchOptions = {},
): Promise<StreamBenchResult> {
  const lines = options.lines ?? 1_000_000;
  const repetitions = options.repetitions ?? 3;
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  try {
    const file = `${dir}/lines.txt`;
    const bytes = await writeLines(file, lines);
    const cat: number[] = [];
    const catPipe: number[] = [];
    const sed: number[] = [];
    const stream: number[] = [];
    const process: number[] = [];
    const peak: number[] = [];
    const delivered: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      cat.push(await timeCommand("cat", [file]));
      catPipe.push(
        await timeCommand("sh", ["-c", 'cat "$1" | cat', "sh", file]),
      );
      sed.push(await timeCommand("sed", ["s/^/[apply] bench | /", file]));
      const started = performance.now();
      const report = await runChild(file);
      process.push(performance.now() - started);
      stream.push(report.ms);
      peak.push(report.peakKb / 1024);
      delivered.push(report.delivered);
      if (report.delivered !== lines) {
        throw new Error(
          `Cannot trust the benchmark: ${report.delivered} of ${lines} lines delivered`,
        );
      }
    }
    const [catMs, catPipeMs, streamMs] = [
      median(cat),
      median(catPipe),
      median(stream),
    ];
    return {
      lines,
      bytes,
      repetitions,
      catMs,
      catPipeMs,
      sedMs: median(sed),
      streamMs,
      streamProcessMs: median(process),
      ratio: streamMs / catMs,
      ratioPipe: streamMs / catPipeMs,
      delivered,
      peakMb: median(peak),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Writes `count` lines of exactly 80 bytes; returns the byte count. */
async function writeLines(path: string, count: number): Promise<number> {
  const file = await Deno.open(path, {
    write: true,
    create: true,
    truncate: true,
  });
  try {
    const encoder = new TextEncoder();
    const filler = "x".repeat(LINE_BYTES - 16);
    const batch = 10_000;
    for (let start = 1; start <= count; start += batch) {
      let text = "";
      for (let n = start; n < start + batch && n <= count; n++) {
        text += `line ${String(n).padStart(9, "0")} ${filler}\n`;
      }
      const data = encoder.encode(text);
      let written = 0;
      while (written < data.length) {
        written += await file.write(data.subarray(written));
      }
    }
  } finally {
    file.close();
  }
  return count * LINE_BYTES;
}

/** Runs a command with stdout to /dev/null; returns its wall time. */
async function timeCommand(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const { code } = await new Deno.Command(command, {
    args,
    stdout: "null",
    stderr: "inherit",
  }).output();
  const ms = performance.now() - started;
  if (code !== 0) {
    throw new Error(`Cannot time "${command}": it exited ${code}`);
  }
  return ms;
}

/** Runs this file as the streaming child and parses its report. */
async function runChild(file: string): Promise<ChildReport> {
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      new URL(import.meta.url).pathname,
      "--child",
      file,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`Cannot stream: the child exited ${code}`);
  return JSON.parse(new TextDecoder().decode(stdout)) as ChildReport;
}

/** The streaming side: `runStep` of `cat FILE`, console to /dev/null. */
async function streamChild(file: string): Promise<ChildReport> {
  const fd = openSync("/dev/null", "w");
  try {
    const sink = fdWriter(fd);
    let delivered = 0;
    const writer: Writer = {
      write(text) {
        for (
          let at = text.indexOf("\n");
          at !== -1;
          at = text.indexOf("\n", at + 1)
        ) {
          delivered++;
        }
        sink.write(text);
      },
    };
    const started = performance.now();
    const result = await runStep({
      argv: ["cat", file],
      phase: "apply",
      target: "bench",
      heartbeatMs: 60_000,
      writer,
    });
    const ms = performance.now() - started;
    if (!result.ok) throw new Error(result.failure);
    return { ms, delivered, peakKb: peakKb() };
  } finally {
    closeSync(fd);
  }
}

/** This process's peak resident memory (VmHWM), in KiB; 0 where /proc lacks it. */
function peakKb(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Prints the figures as a short table. */
function printTable(r: StreamBenchResult): void {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const rows = [
    ["lines / bytes", `${r.lines} / ${(r.bytes / 1e6).toFixed(0)} MB`],
    ["cat > /dev/null", ms(r.catMs)],
    ["cat | cat > /dev/null", ms(r.catPipeMs)],
    ["sed prefixing > /dev/null", ms(r.sedMs)],
    ["runStep → /dev/null", ms(r.streamMs)],
    ["  (process, with start-up)", ms(r.streamProcessMs)],
    ["ratio to cat (target < 4)", r.ratio.toFixed(2)],
    ["ratio to cat | cat", r.ratioPipe.toFixed(2)],
    ["peak memory (target < 100)", `${r.peakMb.toFixed(1)} MB`],
    ["lines delivered", r.delivered.join(", ")],
  ];
  console.log(`stream bench, medians of ${r.repetitions}`);
  for (const [name, value] of rows) {
    console.log(`  ${name.padEnd(28)} ${value}`);
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") {
    console.log(JSON.stringify(await streamChild(Deno.args[1])));
  } else {
    printTable(await streamBench());
  }
}
