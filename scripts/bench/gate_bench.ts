/**
 * Gate evaluation, through the binary: `chant-wave run --decide --dry-run` of a
 * one-run wave whose gate (policy `always`) holds 10,000 records in the
 * directory ledger (pendings, approvals, claims and a few expiries), against
 * the same command with an empty gate, in paired runs: wall time, and CPU time
 * (children included), which moves far less on a busy machine. The records are
 * written through the ledger's own writer, so they are what `approve` and `run`
 * would write. Runnable alone
 * (`deno run --allow-all scripts/bench/gate_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  commitAll,
  formatMs,
  formatRatio,
  median,
  paired,
  printTable,
  type Row,
  runTimed,
  type Timed,
  withLoad,
} from "./_measure.ts";
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

/** Sizes of {@linkcode gateBench}. */
export interface GateBenchOptions {
  /** Records in the gate. @default {10000} */
  records?: number;
  /** Paired rounds. @default {7} */
  rounds?: number;
}

const NAME = "bench";
const GATE = "bench-wave-1";
const digest = (n: number) =>
  "sha256:" + n.toString(16).padStart(8, "0").repeat(8);

/**
 * The i-th record of a busy gate: pendings, approvals, claims, a revoke every
 * 400 records.
 * @param i Its place.
 * @param stamp Its id and time.
 * @returns The record.
 */
export function recordAt(i: number, stamp: RecordStamp): LedgerRecord {
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

/** Writes `count` records into the directory ledger at `root`, dated in the past hour. */
async function fill(root: string, count: number): Promise<void> {
  const ledger = dirLedger(root);
  const random = counterRandomBytes(1);
  const start = Date.now() - 3_600_000;
  for (let from = 0; from < count; from += 256) {
    const writes = [];
    for (let i = from; i < Math.min(count, from + 256); i++) {
      const id = Array.from(random(16), (b) => b.toString(16).padStart(2, "0"))
        .join("");
      const now = start + Math.floor(i * 3_000_000 / count);
      writes.push(ledger.write(recordAt(i, { id, now })));
    }
    await Promise.all(writes);
  }
}

/** A repository with a one-run spec gated `always` and `records` records in its gate. */
async function setUp(records: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  const spec = {
    name: NAME,
    plan: ["sh", "plan.sh", "{plan}"],
    apply: ["true"],
    waves: [{ name: "prod", gate: "always", runs: ["eu"] }],
  };
  await Deno.writeTextFile(`${dir}/waves.json`, JSON.stringify(spec));
  await Deno.writeTextFile(
    `${dir}/plan.sh`,
    `#!/bin/sh\nprintf '{"planDigest":"sha256:%064d"}' 0 > "$1"\n`,
  );
  await Deno.writeTextFile(`${dir}/.gitignore`, ".chant/\n");
  await commitAll(dir);
  if (records > 0) await fill(`${dir}/.chant/ledger`, records);
  return dir;
}

const DECIDE = [
  "run",
  "--spec",
  "waves.json",
  "--wave",
  "1",
  "--decide",
  "--dry-run",
];

/**
 * Measures the gate row.
 * @param options Records and rounds.
 * @returns One row.
 */
export async function gateBench(options: GateBenchOptions = {}): Promise<Row> {
  const records = options.records ?? 10_000;
  const rounds = options.rounds ?? 7;
  const [full, empty] = [await setUp(records), await setUp(0)];
  try {
    // Exit 3: the wave waits for an approval, after reading the whole gate.
    const decide = (cwd: string) => () =>
      runTimed(BINARY, DECIDE, { cwd, okCodes: [0, 3], usage: true });
    await decide(full)();
    const { value, load } = await withLoad(() =>
      paired(rounds, decide(full), decide(empty))
    );
    const mine = median(value.mine.map((t) => t.ms));
    const base = median(value.base.map((t) => t.ms));
    const cpu = (runs: readonly Timed[]) =>
      median(runs.map((t) => t.cpuMs ?? 0));
    const [mineCpu, baseCpu] = [cpu(value.mine), cpu(value.base)];
    return {
      what: `\`run --decide --dry-run\`, ${
        records.toLocaleString("en")
      } records in the gate`,
      measured: `${formatMs(mine)}, cpu ${formatMs(mineCpu)} (${
        formatMs(mine - base)
      }, cpu ${formatMs(mineCpu - baseCpu)} over the empty gate)`,
      baseline: `the same, an empty gate: ${formatMs(base)}, cpu ${
        formatMs(baseCpu)
      }`,
      ratio: formatRatio(median(value.ratios)),
      goal: "≤ 1.5× the empty gate",
      met: median(value.ratios) <= 1.5,
      load,
    };
  } finally {
    await Deno.remove(full, { recursive: true });
    await Deno.remove(empty, { recursive: true });
  }
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable([await gateBench(quick ? { records: 1000, rounds: 3 } : {})]);
}
