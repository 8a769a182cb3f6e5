/**
 * Gate evaluation, through the binary: `chant-wave run --decide --dry-run` of a
 * one-run wave whose gate (policy `always`) has held 10,000 and 50,000 records
 * in the directory ledger (pendings with their plan sets, approvals, claims,
 * outcomes and a revoke every 400), before and after one `chant-wave ledger
 * compact` (as a user would run it; every approval since the last revoke being
 * applied, it settles the gate), against the same command with an empty gate, in paired runs: wall time, and CPU time
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
import { dirLedger } from "../../src/ledger/dir/dir_ledger.ts";
import { setDigest } from "../../src/digest/set_digest.ts";
import { counterRandomBytes } from "../../src/gate/random_hex.ts";
import {
  approvalRecord,
  expiredRecord,
  type LedgerRecord,
  newRecord,
  pendingRecord,
  type PlanPair,
  type RecordStamp,
} from "../../src/gate/records.ts";

/** Sizes of {@linkcode gateBench}. */
export interface GateBenchOptions {
  /** Records in the gate, one pair of figures each. @default {[10000, 50000]} */
  records?: number[];
  /** Paired rounds. @default {7} */
  rounds?: number;
}

const NAME = "bench";
const GATE = "bench-wave-1";
const digest = (n: number) =>
  "sha256:" + n.toString(16).padStart(8, "0").repeat(8);

/**
 * The i-th record of a busy gate, as jobs and approvers write them day after
 * day: a pending fact, its approval, the job's claim under that approval, the
 * claim's outcome; every 400 records a revoke in place of an outcome.
 * @param i Its place.
 * @param stamp Its id and time.
 * @param idOf The id of the record at another place (the approval a claim
 *   names, the claim an outcome settles).
 * @returns The record.
 */
export function recordAt(
  i: number,
  stamp: RecordStamp,
  idOf: (j: number) => string,
): LedgerRecord {
  const gate = { name: NAME, gate: GATE };
  const planDigest = digest(Math.floor(i / 4));
  const run = { target: `run-${Math.floor(i / 4)}`, planDigest, attempt: 1 };
  const job = { decisionId: `dec-${Math.floor(i / 4)}` };
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
        approvalId: idOf(i - 1),
        ...job,
        runs: [run],
      }, stamp);
    default:
      return i % 400 === 3 ? expiredRecord(gate, stamp) : newRecord(
        "run-outcome",
        {
          ...gate,
          approvalId: idOf(i - 2),
          ...job,
          runs: [{ ...run, outcome: "ok" }],
        },
        stamp,
      );
  }
}

/**
 * Record `i` of the mix as jobs write it: a pending fact or approval named by
 * the digest of the plan set of its one plan (the set returned beside, with
 * the pending fact), so an approval is spent once its plan applied and
 * `ledger compact` can settle the gate. Other records as they are.
 * @param record The record {@linkcode recordAt} made for place `i`.
 * @param i Its place.
 * @returns The record, and the plan set to write with a pending fact.
 */
export function withPlanSet(
  record: LedgerRecord,
  i: number,
): {
  record: LedgerRecord;
  set?: { digest: string; members: PlanPair[] };
} {
  if (record.kind !== "pending" && record.kind !== "approval") {
    return { record };
  }
  const members = [{
    target: `run-${Math.floor(i / 4)}`,
    planDigest: record.planDigest,
  }];
  const digest = setDigest(members);
  const named = { ...record, planDigest: digest };
  return record.kind === "pending"
    ? { record: named, set: { digest, members } }
    : { record: named };
}

/** Writes `count` records into the directory ledger at `root`, dated in the past hour. */
async function fill(root: string, count: number): Promise<void> {
  const ledger = dirLedger(root);
  const random = counterRandomBytes(1);
  const ids = Array.from(
    { length: count },
    () =>
      Array.from(random(16), (b) => b.toString(16).padStart(2, "0")).join(""),
  );
  const start = Date.now() - 3_600_000;
  for (let from = 0; from < count; from += 256) {
    const writes = [];
    for (let i = from; i < Math.min(count, from + 256); i++) {
      const now = start + Math.floor(i * 3_000_000 / count);
      const { record, set } = withPlanSet(
        recordAt(i, { id: ids[i], now }, (j) => ids[j]),
        i,
      );
      writes.push(
        (set
          ? ledger.writePlanSet(NAME, GATE, set.digest, set.members)
          : Promise.resolve()).then(() => ledger.write(record)),
      );
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

/** Paired decides of `full` against `empty`, as one row. */
async function decideRow(
  full: string,
  empty: string,
  rounds: number,
  what: string,
): Promise<Row> {
  // Exit 3: the wave waits for an approval, after reading the gate.
  const decide = (cwd: string) => () =>
    runTimed(BINARY, DECIDE, { cwd, okCodes: [0, 3], usage: true });
  await decide(full)();
  const { value, load } = await withLoad(() =>
    paired(rounds, decide(full), decide(empty))
  );
  const mine = median(value.mine.map((t) => t.ms));
  const base = median(value.base.map((t) => t.ms));
  const cpu = (runs: readonly Timed[]) => median(runs.map((t) => t.cpuMs ?? 0));
  const [mineCpu, baseCpu] = [cpu(value.mine), cpu(value.base)];
  return {
    what,
    measured: `${formatMs(mine)}, cpu ${formatMs(mineCpu)}`,
    baseline: `the same, an empty gate: ${formatMs(base)}, cpu ${
      formatMs(baseCpu)
    }`,
    ratio: `${formatRatio(median(value.ratios))}, cpu ${
      formatRatio(mineCpu / baseCpu)
    }`,
    goal: "≤ 1.5× the empty gate",
    met: median(value.ratios) <= 1.5,
    load,
  };
}

/** The directory ledger's mark of one spec name, in this process, in ms. */
async function markMs(dir: string): Promise<number> {
  const ledger = dirLedger(`${dir}/.chant/ledger`);
  const start = performance.now();
  await ledger.mark({ names: [NAME] });
  return performance.now() - start;
}

/** The mark (one listing per gate) of `full` against `empty`, as one row. */
async function markRow(
  full: string,
  empty: string,
  rounds: number,
  n: string,
): Promise<Row> {
  const { value, load } = await withLoad(async () => {
    const [mine, base] = [[] as number[], [] as number[]];
    for (let i = 0; i < rounds * 3; i++) {
      mine.push(await markMs(full));
      base.push(await markMs(empty));
    }
    return { mine: median(mine), base: median(base) };
  });
  return {
    what: `directory ledger, ${n} records: the job's mark, in process`,
    measured: formatMs(value.mine),
    baseline: `an empty gate: ${formatMs(value.base)}`,
    ratio: "",
    goal: "",
    met: undefined,
    load,
  };
}

/**
 * Measures the gate rows: per size, the decide before `ledger compact` and
 * after it (run once, as a user would), each against an empty gate.
 * @param options Records and rounds.
 * @returns Two rows per size (and the compaction's own cost).
 */
export async function gateBench(
  options: GateBenchOptions = {},
): Promise<Row[]> {
  const sizes = options.records ?? [10_000, 50_000];
  const rounds = options.rounds ?? 7;
  const empty = await setUp(0);
  const rows: Row[] = [];
  try {
    for (const records of sizes) {
      const n = records.toLocaleString("en");
      const full = await setUp(records);
      try {
        rows.push(
          await decideRow(
            full,
            empty,
            rounds,
            `\`run --decide --dry-run\`, ${n} records in the gate`,
          ),
        );
        rows.push(await markRow(full, empty, rounds, n));
        const { value: compact, load } = await withLoad(() =>
          runTimed(BINARY, ["ledger", "compact"], { cwd: full, usage: true })
        );
        const left = [...Deno.readDirSync(
          `${full}/.chant/ledger/gates/${NAME}/${GATE}`,
        )].filter((entry) => entry.name.endsWith(".json")).length;
        rows.push({
          what: `directory ledger, ${n} records: \`ledger compact\`, once`,
          measured: `${formatMs(compact.ms)}, cpu ${
            formatMs(compact.cpuMs ?? 0)
          }`,
          baseline: `left ${left.toLocaleString("en")} record files`,
          ratio: "",
          goal: "",
          met: undefined,
          load,
        });
        rows.push(
          await decideRow(
            full,
            empty,
            rounds,
            `\`run --decide --dry-run\`, ${n} records, compacted`,
          ),
        );
      } finally {
        await Deno.remove(full, { recursive: true });
      }
    }
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
  return rows;
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(await gateBench(quick ? { records: [1000], rounds: 3 } : {}));
}
