/**
 * Benchmark of the git ledger against a local bare remote: the median time of one
 * `approve`-like write (one record, committed and pushed), and the throughput of
 * 8 concurrent writer processes on 4 clones (records per second, and how many
 * records were lost: must be 0). Runnable alone
 * (`deno run --allow-all scripts/bench/git_ledger_bench.ts`); `gitLedgerBench()`
 * returns the figures.
 * @module
 */

import { fileURLToPath } from "node:url";
import { median, ms } from "./_measure.ts";
import type { ApprovalRecord } from "../../src/ledger/records.ts";
import {
  approvalNoted,
  ledgerWorld,
} from "../../tests/ledger/git_ledger_fixture.ts";

/** Options of {@linkcode gitLedgerBench}. */
export interface GitLedgerBenchOptions {
  /**
   * Timed single writes.
   * @default {15}
   */
  writes?: number;
  /**
   * Concurrent writer processes (spread over 4 clones).
   * @default {8}
   */
  writers?: number;
  /**
   * Records each writer process writes (at once, so they share commits).
   * @default {25}
   */
  records?: number;
}

/** The figures. */
export interface GitLedgerBenchResult {
  /** What was measured. */
  name: string;
  /** Median of one write (blob, commit, push), in ms. */
  writeMedianMs: number;
  /** Fastest and slowest single write, in ms. */
  writeMinMs: number;
  writeMaxMs: number;
  /** Writer processes and records each. */
  writers: number;
  records: number;
  /** From the common start to the last writer's exit, in ms. */
  concurrentMs: number;
  /** Records per second over that time. */
  recordsPerSecond: number;
  /** Records expected but not on the branch afterwards (must be 0). */
  lost: number;
  /** Whether no record was lost. */
  ok: boolean;
}

const WRITER = fileURLToPath(
  new URL("../../tests/fixtures/git_ledger/write_records.ts", import.meta.url),
);

/**
 * Runs the benchmark in a temporary directory (removed afterwards).
 * @param options How many writes, writers and records.
 * @returns The figures.
 */
export async function gitLedgerBench(
  options: GitLedgerBenchOptions = {},
): Promise<GitLedgerBenchResult> {
  const writes = options.writes ?? 15;
  const writers = options.writers ?? 8;
  const records = options.records ?? 25;
  await using world = await ledgerWorld();
  const single = world.open(await world.clone("single")).ledger;
  await single.write(approvalNoted("warm-up"));
  const times: number[] = [];
  for (let i = 0; i < writes; i++) {
    const started = performance.now();
    await single.write(approvalNoted(`single-${i}`));
    times.push(performance.now() - started);
  }
  const clones: string[] = [];
  for (let c = 0; c < 4; c++) clones.push(await world.clone(`c${c}`));
  const startAt = Date.now() + 2000;
  const outputs = await Promise.all(
    Array.from(
      { length: writers },
      (_, w) =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-all",
            WRITER,
            clones[w % 4],
            `w${w}`,
            String(records),
            String(startAt),
          ],
          stdout: "null",
          stderr: "piped",
        }).output(),
    ),
  );
  const concurrentMs = Date.now() - startAt;
  for (const out of outputs) {
    if (!out.success) console.error(new TextDecoder().decode(out.stderr));
  }
  const { ledger } = world.open(world.repo.path);
  const notes = new Set(
    (await ledger.readGate("tf", "tf-wave-2")).records
      .map((r) => (r as ApprovalRecord).note),
  );
  let lost = 0;
  for (let w = 0; w < writers; w++) {
    for (let i = 0; i < records; i++) if (!notes.has(`w${w}-${i}`)) lost++;
  }
  return {
    name: "git ledger (local bare remote)",
    writeMedianMs: median(times),
    writeMinMs: Math.min(...times),
    writeMaxMs: Math.max(...times),
    writers,
    records,
    concurrentMs,
    recordsPerSecond: (writers * records) / (concurrentMs / 1000),
    lost,
    ok: lost === 0,
  };
}

if (import.meta.main) {
  const r = await gitLedgerBench();
  console.log(`${r.name}`);
  console.log(
    `  one write: median ${ms(r.writeMedianMs)} (min ${ms(r.writeMinMs)}, max ${
      ms(r.writeMaxMs)
    })`,
  );
  console.log(
    `  ${r.writers} writers x ${r.records} records: ${ms(r.concurrentMs)}, ` +
      `${r.recordsPerSecond.toFixed(1)} records/s, lost ${r.lost}`,
  );
  if (!r.ok) Deno.exitCode = 1;
}
