/**
 * Benchmark of the git ledger against a local bare remote, next to plain git
 * doing the same work in the same run: the median of one `chant-wave approve
 * --ledger git` (one record, committed and pushed) against one `git commit` and
 * `git push` of one file; and the throughput of 8 writer processes on 4 clones,
 * each recording 20 approvals one command at a time, against 8 plain-git loops
 * (`git commit`, `git push`, `git pull --rebase` while rejected) from worktrees
 * of the same clones. Records lost must be 0. Runnable alone
 * (`deno run --allow-all scripts/bench/git_ledger_bench.ts`); `gitLedgerBench()`
 * returns the figures.
 * @module
 */

import { median, ms } from "./_measure.ts";
import { BINARY } from "../../tests/_helpers/binary.ts";
import {
  type ApproverWorld,
  approverWorld,
  chantWriters,
  DIGEST,
  expectedNotes,
  notesOn,
  PLAIN_BRANCH,
  plainGitWriters,
} from "../../tests/_helpers/approvers.ts";

/** Options of {@linkcode gitLedgerBench}. */
export interface GitLedgerBenchOptions {
  /**
   * Timed single writes of each kind.
   * @default {15}
   */
  writes?: number;
  /**
   * Concurrent writer processes (spread over 4 clones).
   * @default {8}
   */
  writers?: number;
  /**
   * Records each writer writes, one command per record.
   * @default {20}
   */
  records?: number;
}

/** One side's figures under contention. */
export interface ContentionFigures {
  /** From the common start to the last writer's end, in ms. */
  ms: number;
  /** Records per second over that time. */
  recordsPerSecond: number;
  /** Records expected but not on the branch afterwards (must be 0). */
  lost: number;
}

/** The figures. */
export interface GitLedgerBenchResult {
  /** Median of one `chant-wave approve` (binary start, commit, push), in ms. */
  writeMedianMs: number;
  /** Median of one plain `git commit` + `git push`, in ms. */
  plainWriteMedianMs: number;
  /** Writer processes and records each. */
  writers: number;
  records: number;
  chant: ContentionFigures;
  plain: ContentionFigures;
  /** Whether no record was lost on either side. */
  ok: boolean;
}

async function timed(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return performance.now() - started;
}

/** Medians of single writes: `chant-wave approve` and plain git, alternating. */
async function singleWrites(
  world: ApproverWorld,
  writes: number,
): Promise<{ chant: number; plain: number }> {
  const [clone] = world.clones;
  const env = { ...world.repo.env, PATH: "/usr/bin:/bin" };
  const chant: number[] = [];
  const plain: number[] = [];
  await world.repo.gitIn(
    clone,
    "checkout",
    "-q",
    "-b",
    "single",
    "origin/main",
  );
  for (let i = -1; i < writes; i++) {
    const c = await timed(
      BINARY,
      [
        "approve",
        "tf",
        "tf-wave-2",
        "--plan",
        DIGEST,
        "--by",
        "bench",
        "--note",
        `single-${i}`,
        "--ledger",
        "git",
      ],
      clone,
      { PATH: "/usr/bin:/bin" },
    );
    await Deno.writeTextFile(`${clone}/single-${i}.json`, `{"i":${i}}\n`);
    const p = await timed(
      "sh",
      [
        "-c",
        `git add "single-${i}.json" && git commit -q -m "record ${i}" && ` +
        `git push -q origin HEAD:refs/heads/single`,
      ],
      clone,
      env,
    );
    if (i >= 0) { // the first of each warms the caches
      chant.push(c);
      plain.push(p);
    }
  }
  return { chant: median(chant), plain: median(plain) };
}

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
  const records = options.records ?? 20;
  await using world = await approverWorld();
  const single = await singleWrites(world, writes);
  const expected = expectedNotes(writers, records);
  const figures = async (
    run: Promise<{ ms: number; failures: string[] }>,
    branch: string,
    folder: string,
  ): Promise<ContentionFigures> => {
    const { ms, failures } = await run;
    for (const failure of failures) console.error(failure);
    const notes = new Set(await notesOn(world, branch, folder));
    return {
      ms,
      recordsPerSecond: (writers * records) / (ms / 1000),
      lost: expected.filter((note) => !notes.has(note)).length,
    };
  };
  const plain = await figures(
    plainGitWriters(world, writers, records),
    PLAIN_BRANCH,
    "gates/tf/plain",
  );
  const chant = await figures(
    chantWriters(world, writers, records),
    "chant/ledger",
    "gates/tf/tf-wave-2",
  );
  return {
    writeMedianMs: single.chant,
    plainWriteMedianMs: single.plain,
    writers,
    records,
    chant,
    plain,
    ok: chant.lost === 0 && plain.lost === 0,
  };
}

if (import.meta.main) {
  const r = await gitLedgerBench();
  console.log("git ledger (local bare remote) vs plain git, same run");
  console.log(
    `  one write: chant-wave approve ${ms(r.writeMedianMs)}, ` +
      `git commit + push ${ms(r.plainWriteMedianMs)} ` +
      `(${(r.writeMedianMs / r.plainWriteMedianMs).toFixed(2)}x)`,
  );
  const total = r.writers * r.records;
  const line = (name: string, f: ContentionFigures) =>
    `  ${name}: ${f.recordsPerSecond.toFixed(2)} records/s ` +
    `(${ms(f.ms)}), ${total - f.lost}/${total} landed`;
  console.log(
    `  ${r.writers} writers on 4 clones x ${r.records} records, one command each:`,
  );
  console.log(line("chant-wave approve", r.chant));
  console.log(line("plain git loops   ", r.plain));
  console.log(
    `  throughput: ${
      (r.chant.recordsPerSecond / r.plain.recordsPerSecond)
        .toFixed(2)
    }x plain git`,
  );
  if (!r.ok) Deno.exitCode = 1;
}
