/**
 * Benchmark of gate evaluation on the directory ledger: a gate directory holding
 * 10,000 records, read whole and decided (`readGate` + `decideGate`), timed over
 * several repetitions. Target: median under 300 ms. Runnable alone
 * (`deno run --allow-all scripts/bench/gate_bench.ts`); `scripts/bench/main.ts`
 * calls `gateBench()`.
 * @module
 */

import { median, ms } from "./_measure.ts";
import { decideGate } from "../../src/ledger/decide_gate.ts";
import { dirLedger } from "../../src/ledger/dir_ledger.ts";
import { counterRandomBytes } from "../../src/ledger/random_hex.ts";
import {
  approvalRecord,
  expiredRecord,
  type LedgerRecord,
  newRecord,
  pendingRecord,
  type RecordStamp,
} from "../../src/ledger/records.ts";

/** Options of {@linkcode gateBench}. */
export interface GateBenchOptions {
  /**
   * How many records the gate holds.
   * @default {10000}
   */
  records?: number;
  /**
   * How many timed evaluations.
   * @default {7}
   */
  repetitions?: number;
}

/** The figures of one benchmark. */
export interface GateBenchResult {
  /** What was measured. */
  name: string;
  /** Records in the gate's directory. */
  records: number;
  /** Timed evaluations. */
  repetitions: number;
  /** Writing the records through `LedgerStore.write`, once, in ms. */
  setupMs: number;
  /** Median evaluation (read all + decide), in ms. */
  medianMs: number;
  /** Fastest evaluation, in ms. */
  minMs: number;
  /** Slowest evaluation, in ms. */
  maxMs: number;
  /** The target for the median, in ms. */
  targetMs: number;
  /** Whether the median met the target. */
  ok: boolean;
}

const NAME = "bench";
const GATE = "bench-wave-1";
const T0 = Date.UTC(2026, 0, 1);
const digest = (n: number) =>
  "sha256:" + n.toString(16).padStart(8, "0").repeat(8);

/** The i-th record of a busy gate: pendings, approvals, claims, revokes. */
function recordAt(i: number, stamp: RecordStamp): LedgerRecord {
  const gate = { name: NAME, gate: GATE };
  const planDigest = digest(Math.floor(i / 4));
  switch (i % 4) {
    case 0:
      return pendingRecord(
        {
          ...gate,
          planDigest,
          description: `run ${i}: 1 to add, 0 to destroy`,
          members: 3,
          base: "b".repeat(40),
        },
        48 * 3_600_000,
        stamp,
      );
    case 1:
      return approvalRecord({ ...gate, planDigest, by: "ann" }, stamp);
    case 2:
      return newRecord("claim", {
        ...gate,
        approvalId: "x",
        decisionId: `dec-${i}`,
        runs: [{ target: `run-${i}`, planDigest, attempt: 1 }],
      }, stamp);
    default:
      return i % 400 === 3
        ? expiredRecord(gate, stamp)
        : approvalRecord({ ...gate, planDigest, by: "bob" }, stamp);
  }
}

async function fill(root: string, count: number): Promise<void> {
  const ledger = dirLedger(root);
  const random = counterRandomBytes(1);
  const batch = 256;
  for (let start = 0; start < count; start += batch) {
    const writes = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const id = Array.from(random(16), (b) => b.toString(16).padStart(2, "0"))
        .join("");
      writes.push(ledger.write(recordAt(i, { id, now: T0 + i * 1000 })));
    }
    await Promise.all(writes);
  }
}

/**
 * Fills a temporary directory ledger with one gate of `records` records, then
 * times `readGate` + `decideGate` `repetitions` times (after one warm-up run).
 * The temporary directory is removed afterwards.
 * @param options How many records and repetitions.
 * @returns The figures.
 * @throws {Error} When an evaluation reads problems or the wrong count.
 */
export async function gateBench(
  options: GateBenchOptions = {},
): Promise<GateBenchResult> {
  const count = options.records ?? 10_000;
  const repetitions = options.repetitions ?? 7;
  const root = await Deno.makeTempDir({ prefix: "chant-gate-bench-" });
  try {
    const setupStart = performance.now();
    await fill(root, count);
    const setupMs = performance.now() - setupStart;
    const ledger = dirLedger(root);
    const evaluate = async () => {
      const { records, problems } = await ledger.readGate(NAME, GATE);
      if (problems.length > 0 || records.length !== count) {
        throw new Error(
          `read ${records.length} records, ${problems.length} problems`,
        );
      }
      const planDigest = digest(Math.floor((count - 1) / 4));
      return decideGate(records, new Map(), {
        gate: GATE,
        digest: planDigest,
        members: [{ target: "run-0", planDigest }],
        now: T0 + count * 1000,
      });
    };
    await evaluate();
    const times: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      const start = performance.now();
      await evaluate();
      times.push(performance.now() - start);
    }
    const medianMs = median(times);
    return {
      name: "gate evaluation (directory ledger)",
      records: count,
      repetitions,
      setupMs,
      medianMs,
      minMs: Math.min(...times),
      maxMs: Math.max(...times),
      targetMs: 300,
      ok: medianMs < 300,
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await gateBench();
  console.log(`${r.name}: ${r.records} records, ${r.repetitions} runs`);
  console.log(
    `  median  ${ms(r.medianMs)}  (target < ${r.targetMs} ms: ${
      r.ok ? "met" : "MISSED"
    })`,
  );
  console.log(`  min     ${ms(r.minMs)}`);
  console.log(`  max     ${ms(r.maxMs)}`);
  console.log(`  setup   ${ms(r.setupMs)} (writing the records)`);
}
