/**
 * The git ledger as its branch grows (issue 25): with 100, 1,000, 10,000 and
 * 50,000 records in one gate of `chant/ledger` on a local bare remote (built in
 * one `git fast-import`, numbered as chant-wave numbers them; the same mix as
 * the gate benchmark: pendings, approvals, claims, outcomes, a revoke every 400
 * records, plus each pending fact's plan set, as jobs write them): the median
 * of `approve`, `run --decide --dry-run` and a fresh clone's (of `main` alone,
 * as CI makes it) first `run --decide --dry-run`, before and after one
 * `chant-wave ledger compact` (as a user would run it, on a copy of the branch
 * taken before the measurements, whose approvals are never applied; it settles
 * the gate, every approval since the last revoke being applied; its cost and
 * what it left at the tip reported beside), each against the cost
 * before compaction at 100 records, and `run --decide` against plain git's `fetch --depth 1` + `ls-tree`
 * of the gate in the same clone. Wall time and CPU time (the whole process
 * tree, through `os.wait4`), paired runs in alternating order. Runnable alone
 * (`deno run --allow-all scripts/bench/ledger_size_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  commitAll,
  formatMs,
  formatRatio,
  git,
  median,
  paired,
  printTable,
  type Row,
  runTimed,
  type Timed,
  withLoad,
} from "./_measure.ts";
import { formatRecord } from "../../src/gate/records.ts";
import { recordFileName } from "../../src/gate/record_name.ts";
import { entryBytes, orderPath } from "../../src/ledger/git/_order.ts";
import { posix } from "node:path";
import { recordAt, withPlanSet } from "./gate_bench.ts";
import {
  formatPlanSet,
  planSetFileName,
} from "../../src/gate/plan_set_file.ts";

/** Sizes of {@linkcode ledgerSizeBench}. */
export interface LedgerSizeBenchOptions {
  /** Records on the branch, one figure each. @default {[100, 1000, 10000, 50000]} */
  sizes?: number[];
  /** Paired rounds of each figure. @default {5} */
  rounds?: number;
}

const NAME = "bench";
const GATE = "bench-wave-1";
const APPROVED = "sha256:" + "e".repeat(64);
const encoder = new TextEncoder();

/**
 * Writes `count` numbered records into the bare remote's `chant/ledger` in one
 * fast-import (the mix of the gate benchmark).
 * @param remote The bare remote.
 * @param count How many records.
 */
export async function buildBranch(
  remote: string,
  count: number,
): Promise<void> {
  const chunks: Uint8Array[] = [];
  const put = (text: string) => chunks.push(encoder.encode(text));
  const start = Date.now() - 3_600_000;
  const paths: string[] = [];
  const sets: { path: string; text: string }[] = [];
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(32, "0");
    const { record, set } = withPlanSet(
      recordAt(i, {
        id,
        now: start + Math.floor(i * 3_000_000 / count),
      }, (j) => j.toString(16).padStart(32, "0")),
      i,
    );
    if (set) {
      sets.push({
        path: `gates/${NAME}/${GATE}/sets/${planSetFileName(set.digest)}`,
        text: formatPlanSet(set.digest, set.members),
      });
    }
    const bytes = encoder.encode(formatRecord(record));
    put(`blob\nmark :${i + 1}\ndata ${bytes.length}\n`);
    chunks.push(bytes, encoder.encode("\n"));
    paths.push(`gates/${NAME}/${GATE}/${recordFileName(record)}`);
  }
  const empty = count + 1;
  const seq = encoder.encode(`${count}\n`);
  const bytes = encoder.encode(
    `${
      paths.reduce((sum, path) => sum + entryBytes(posix.basename(path)), 0)
    }\n`,
  );
  put(`blob\nmark :${empty}\ndata 0\n\n`);
  put(`blob\nmark :${empty + 1}\ndata ${seq.length}\n`);
  chunks.push(seq, encoder.encode("\n"));
  put(`blob\nmark :${empty + 2}\ndata ${bytes.length}\n`);
  chunks.push(bytes, encoder.encode("\n"));
  const when = Math.floor(Date.now() / 1000);
  put(`commit refs/heads/chant/ledger\n`);
  put(`committer bench <bench@example.invalid> ${when} +0000\ndata 5\nbench\n`);
  paths.forEach((path, i) => {
    put(`M 100644 :${i + 1} ${path}\n`);
    put(`M 100644 :${empty} ${orderPath(path, i)}\n`);
  });
  for (const set of sets) {
    const text = encoder.encode(set.text);
    put(`M 100644 inline ${set.path}\ndata ${text.length}\n`);
    chunks.push(text, encoder.encode("\n"));
  }
  put(`M 100644 :${empty + 2} gates/${NAME}/${GATE}/order/bytes\n`);
  put(`M 100644 :${empty + 1} seq\n\ndone\n`);
  const child = new Deno.Command("git", {
    args: ["fast-import", "--quiet", "--done"],
    cwd: remote,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  for (const chunk of chunks) await writer.write(chunk);
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

/**
 * A project with a one-run gated spec (`waves.json`, its plan command
 * `plan.sh`) committed on `main` in `<root>/work`, its bare remote
 * `<root>/remote.git` holding `count` ledger records.
 * @param count How many records the remote's branch holds.
 * @returns The temporary folder and the checkout in it.
 */
export async function setUp(
  count: number,
): Promise<{ root: string; work: string }> {
  const root = await Deno.makeTempDir({ prefix: "chant-wave-ledger-bench-" });
  const work = `${root}/work`;
  await Deno.mkdir(work);
  const spec = {
    name: NAME,
    plan: ["sh", "plan.sh", "{plan}"],
    apply: ["true"],
    waves: [{ name: "prod", gate: "always", runs: ["eu"] }],
  };
  await Deno.writeTextFile(`${work}/waves.json`, JSON.stringify(spec));
  await Deno.writeTextFile(
    `${work}/plan.sh`,
    `#!/bin/sh\nprintf '{"planDigest":"sha256:%064d"}' 0 > "$1"\n`,
  );
  await Deno.writeTextFile(`${work}/.gitignore`, ".chant/\n");
  await commitAll(work);
  await git(root, "init", "-q", "--bare", "remote.git");
  await git(work, "remote", "add", "origin", `${root}/remote.git`);
  await git(work, "push", "-q", "origin", "main");
  await buildBranch(`${root}/remote.git`, count);
  return { root, work };
}

/** The decide the rows time: `run --wave 1 --decide --dry-run` on the git ledger. */
export const DECIDE = [
  "run",
  "--spec",
  "waves.json",
  "--wave",
  "1",
  "--decide",
  "--dry-run",
  "--ledger",
  "git",
];
const APPROVE = [
  "approve",
  NAME,
  GATE,
  "--plan",
  APPROVED,
  "--by",
  "bench",
  "--ledger",
  "git",
];
const COMPACT = ["ledger", "compact", "--ledger", "git"];

/** The record files at the tip of the bench's gate. */
async function tipRecords(remote: string): Promise<number> {
  const { stdout } = await new Deno.Command("git", {
    args: ["ls-tree", "--name-only", `chant/ledger:gates/${NAME}/${GATE}`],
    cwd: remote,
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(stdout).split("\n")
    .filter((name) => name.endsWith(".json")).length;
}

/** Plain git's baseline: `fetch --depth 1` + `ls-tree` of the gate (sh). */
export const PLAIN =
  `git fetch -q --depth 1 origin +refs/heads/chant/ledger:refs/remotes/origin/chant/ledger && git ls-tree -r origin/chant/ledger -- gates/${NAME}/${GATE}/ > /dev/null`;

/** What one state of a branch measured: each command's runs. */
interface Figures {
  approve: Timed[];
  decide: Timed[];
  fresh: Timed[];
  plain: Timed[];
  /** `decide / plain` of each pair. */
  plainRatios: number[];
}

/** What one size measured, before and after one `ledger compact`. */
interface SizeFigures {
  records: number;
  before: Figures;
  /** The one `ledger compact`, and the record files it left at the tip. */
  compact: Timed;
  tip: number;
  after: Figures;
}

/** `approve`, `run --decide` against plain git, and fresh clones' first decide. */
async function measureState(
  root: string,
  work: string,
  rounds: number,
  label: string,
  remote: string,
): Promise<Figures> {
  const run = (args: string[], cwd = work) => () =>
    runTimed(BINARY, args, { cwd, okCodes: [0, 3], usage: true });
  await run(DECIDE)();
  const approve: Timed[] = [];
  for (let i = 0; i < rounds; i++) approve.push(await run(APPROVE)());
  const vsPlain = await paired(
    rounds,
    run(DECIDE),
    () => runTimed("sh", ["-c", PLAIN], { cwd: work, usage: true }),
  );
  const fresh: Timed[] = [];
  for (let i = 0; i < rounds; i++) {
    const clone = `${root}/fresh-${label}-${i}`;
    await git(
      root,
      "clone",
      "-q",
      "--single-branch",
      "-b",
      "main",
      remote,
      clone,
    );
    fresh.push(await run(DECIDE, clone)());
  }
  return {
    approve,
    decide: vsPlain.mine,
    fresh,
    plain: vsPlain.base,
    plainRatios: vsPlain.ratios,
  };
}

/**
 * Copies the bare remote of {@linkcode setUp} to `<root>/settled.git`, with a
 * checkout of `main` in `<root>/settled` whose `origin` it is.
 * @param root The folder {@linkcode setUp} made.
 * @returns The copy's path.
 */
export async function settledCopy(root: string): Promise<string> {
  const settled = `${root}/settled.git`;
  await git(root, "clone", "-q", "--bare", `${root}/remote.git`, settled);
  await git(root, "clone", "-q", "-b", "main", settled, `${root}/settled`);
  return settled;
}

/**
 * Runs `ledger compact` once in `<root>/settled` ({@linkcode settledCopy}),
 * as a user would: every approval since the last revoke being applied, it
 * settles the gate.
 * @param root The folder {@linkcode setUp} made.
 * @returns What it took.
 */
export function compactSettled(root: string): Promise<Timed> {
  return runTimed(BINARY, COMPACT, { cwd: `${root}/settled`, usage: true });
}

async function measureSize(
  records: number,
  rounds: number,
): Promise<SizeFigures> {
  const { root, work } = await setUp(records);
  try {
    // Compacted on a copy taken now: the approvals the measurements add are
    // never applied, and would keep the gate from settling.
    const settled = await settledCopy(root);
    const before = await measureState(
      root,
      work,
      rounds,
      "before",
      `${root}/remote.git`,
    );
    const compact = await compactSettled(root);
    const tip = await tipRecords(settled);
    const after = await measureState(
      root,
      `${root}/settled`,
      rounds,
      "after",
      settled,
    );
    return { records, before, compact, tip, after };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const wall = (runs: readonly Timed[]) => median(runs.map((t) => t.ms));
const cpu = (runs: readonly Timed[]) => median(runs.map((t) => t.cpuMs ?? 0));
const both = (runs: readonly Timed[]) =>
  `${formatMs(wall(runs))}, cpu ${formatMs(cpu(runs))}`;

/**
 * Measures the rows: per size, `approve`, `run --decide` and a fresh clone's
 * first `run --decide` against 100 records, and `run --decide` against plain git.
 * @param options Sizes and rounds.
 * @returns The rows.
 */
export async function ledgerSizeBench(
  options: LedgerSizeBenchOptions = {},
): Promise<Row[]> {
  const sizes = options.sizes ?? [100, 1_000, 10_000, 50_000];
  const rounds = options.rounds ?? 5;
  const figures: { value: SizeFigures; load: string }[] = [];
  for (const size of sizes) {
    console.error(`  git ledger at ${size.toLocaleString("en")} records…`);
    figures.push(await withLoad(() => measureSize(size, rounds)));
  }
  const [first] = figures;
  const rows: Row[] = [];
  for (const { value, load } of figures) {
    const n = value.records.toLocaleString("en");
    const base = first.value.before;
    rows.push({
      what: `git ledger, ${n} records: \`ledger compact\`, once`,
      measured: both([value.compact]),
      baseline: `left ${
        value.tip.toLocaleString("en")
      } record files at the tip`,
      ratio: "",
      goal: "",
      met: undefined,
      load,
    });
    for (
      const [state, runs] of [["", value.before], [
        ", compacted",
        value.after,
      ]] as const
    ) {
      const against = (
        what: string,
        mine: readonly Timed[],
        of: readonly Timed[],
      ): Row => ({
        what: `git ledger, ${n} records${state}: ${what}`,
        measured: both(mine),
        baseline: `at ${first.value.records} records: ${both(of)}`,
        ratio: `${formatRatio(wall(mine) / wall(of))}, cpu ${
          formatRatio(cpu(mine) / cpu(of))
        }`,
        goal: "≤ 1.5×",
        met: cpu(mine) / cpu(of) <= 1.5,
        load,
      });
      rows.push(
        against("`approve`", runs.approve, base.approve),
        against("`run --decide`", runs.decide, base.decide),
        against(
          "a fresh clone's first `run --decide`",
          runs.fresh,
          base.fresh,
        ),
        {
          what:
            `git ledger, ${n} records${state}: \`run --decide\` vs plain git`,
          measured: both(runs.decide),
          baseline: `\`fetch --depth 1\` + \`ls-tree\` of the gate: ${
            both(runs.plain)
          }`,
          ratio: `${formatRatio(median(runs.plainRatios))}, cpu ${
            formatRatio(cpu(runs.decide) / cpu(runs.plain))
          }`,
          goal: "≤ 3×",
          met: median(runs.plainRatios) <= 3,
          load,
        },
      );
    }
  }
  return rows;
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(
    await ledgerSizeBench(quick ? { sizes: [100, 1000], rounds: 2 } : {}),
  );
}
