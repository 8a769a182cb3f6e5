/**
 * Planning a tenant fleet, through the binary, on one real PostgreSQL server:
 * `chant-wave run --decide` of a wave of N tenant databases (`parallel: 2`,
 * the tenants example's sqitch project, each database with its first change
 * deployed, so every plan has one change to deploy) against `xargs -P 2 sqitch
 * status` over the same databases, at 5, 50 and 200 tenants, CPU time of each
 * whole process tree beside the wall time (the server's own CPU is neither's).
 * Beside them, what one registry query costs: one psql per database against
 * one psql that visits them all with `\c`. Runnable alone
 * (`deno run --allow-all scripts/bench/fleet_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  commitAll,
  formatMs,
  formatRatio,
  median,
  printTable,
  type Row,
  runTimed,
  type Timed,
  withLoad,
} from "./_measure.ts";
import { requireSqitch, startPostgres } from "../../tests/_helpers/postgres.ts";
import { exampleFiles } from "../../tests/_helpers/tenants.ts";
import {
  REGISTRY_SCRIPT,
  registryQuery,
} from "../../src/sqitch/registry_query.ts";

/** Sizes of {@linkcode fleetBench}. */
export interface FleetBenchOptions {
  /** Fleet sizes. @default {[5, 50, 200]} */
  sizes?: number[];
  /** Paired rounds at each size (fewer for the largest). @default {3} */
  rounds?: number;
}

/** The size whose row carries the goal. */
const GOAL_SIZE = 50;
/** The goal: at most this share of the baseline's CPU. */
const GOAL = 0.3;

/** A repository of the tenants example with a one-wave spec over `tenants`. */
async function setUp(tenants: readonly string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-fleet-" });
  const files: Record<string, string> = {
    ...await exampleFiles(),
    ".gitignore": ".chant/\n",
    "waves.jsonc": JSON.stringify({
      name: "fleet",
      tool: { kind: "sqitch", dir: "db", target: "db:pg:{target}" },
      heartbeat: 0,
      parallel: 2,
      waves: [{ name: "prod", runs: tenants, gate: "always" }],
    }),
    "targets.txt": tenants.map((t) => `--target=db:pg:${t}\n`).join(""),
  };
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  await commitAll(dir);
  return dir;
}

/** Medians of paired runs: wall and CPU of each side, and the CPU ratio. */
function summed(mine: Timed[], base: Timed[]) {
  const cpu = (t: Timed) => t.cpuMs ?? NaN;
  return {
    measured: `${formatMs(median(mine.map((t) => t.ms)))}, cpu ${
      formatMs(median(mine.map(cpu)))
    }`,
    baseline: `${formatMs(median(base.map((t) => t.ms)))}, cpu ${
      formatMs(median(base.map(cpu)))
    }`,
    ratio: median(mine.map((m, i) => cpu(m) / cpu(base[i]))),
  };
}

/**
 * Measures planning fleets of each size against `xargs -P 2 sqitch status`.
 * @param options The sizes and rounds.
 * @returns One row a size (the goal on the 50 row), and the `\c` row.
 */
export async function fleetBench(
  options: FleetBenchOptions = {},
): Promise<Row[]> {
  const sizes = options.sizes ?? [5, 50, 200];
  const rounds = options.rounds ?? 3;
  await requireSqitch();
  await using pg = await startPostgres();
  const largest = Math.max(...sizes);
  const all = Array.from(
    { length: largest },
    (_, i) => `tenant_${String(i).padStart(4, "0")}`,
  );
  // One database deployed by sqitch, copied for every tenant.
  const template = await setUp([]);
  const env = { PATH: "/usr/bin:/bin", ...pg.env };
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  try {
    await pg.createDatabases(["fleet_template"]);
    await runTimed("env", [
      "-i",
      ...envArgs,
      "sqitch",
      "--chdir=db",
      "deploy",
      "--target=db:pg:fleet_template",
      "--to=accounts",
    ], { cwd: template });
    for (const name of all) {
      await pg.sql(
        "postgres",
        `CREATE DATABASE "${name}" TEMPLATE fleet_template`,
      );
    }
  } finally {
    await Deno.remove(template, { recursive: true });
  }
  const rows: Row[] = [];
  for (const size of sizes) {
    const dir = await setUp(all.slice(0, size));
    try {
      const mine = () =>
        runTimed("env", [
          "-i",
          ...envArgs,
          BINARY,
          "run",
          "--spec",
          "waves.jsonc",
          "--wave",
          "1",
          "--decide",
        ], { cwd: dir, okCodes: [3], usage: true });
      const base = () =>
        runTimed("env", [
          "-i",
          ...envArgs,
          "sh",
          "-c",
          "xargs -P 2 -L 1 sqitch --chdir=db status < targets.txt",
        ], { cwd: dir, usage: true });
      const clean = () =>
        Deno.remove(`${dir}/.chant`, { recursive: true }).catch(() => {});
      const n = size >= 200 ? 1 : rounds;
      const { value, load } = await withLoad(async () => {
        const m: Timed[] = [];
        const b: Timed[] = [];
        for (let i = 0; i < n; i++) {
          for (const side of i % 2 === 0 ? ["m", "b"] : ["b", "m"]) {
            await clean();
            if (side === "m") m.push(await mine());
            else b.push(await base());
          }
        }
        return summed(m, b);
      });
      rows.push({
        what:
          `plan a fleet of ${size} tenants, \`run --decide\`, parallel 2 (CPU of the tree)`,
        measured: value.measured,
        baseline: `${value.baseline} (xargs -P 2 sqitch status)`,
        ratio: formatRatio(value.ratio),
        goal: size === GOAL_SIZE ? `≤ ${GOAL}× (CPU)` : "",
        met: size === GOAL_SIZE ? value.ratio <= GOAL : undefined,
        load,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  rows.push(await oneConnection(all.slice(0, GOAL_SIZE), envArgs, rounds));
  return rows;
}

/** One psql per database against one psql with `\c` between them. */
async function oneConnection(
  tenants: readonly string[],
  envArgs: string[],
  rounds: number,
): Promise<Row> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-psql-" });
  try {
    await Deno.writeTextFile(`${dir}/one.sql`, REGISTRY_SCRIPT);
    await Deno.writeTextFile(
      `${dir}/all.sql`,
      tenants.map((t) => `\\c dbname=${t}\n${REGISTRY_SCRIPT}`).join(""),
    );
    // The words chant-wave gives psql, but the connection.
    const flags = registryQuery("db:pg:", "sqitch", "tenants", {})!.args;
    await Deno.writeTextFile(
      `${dir}/each.sh`,
      tenants.map((t) =>
        `psql --dbname=dbname=${t} ${flags.join(" ")} --file=one.sql\n`
      ).join(""),
    );
    const each = () =>
      runTimed("env", ["-i", ...envArgs, "sh", "each.sh"], {
        cwd: dir,
        usage: true,
      });
    const once = () =>
      runTimed("env", [
        "-i",
        ...envArgs,
        "psql",
        "--dbname=dbname=postgres",
        ...flags,
        "--file=all.sql",
      ], { cwd: dir, usage: true });
    const { value, load } = await withLoad(async () => {
      const m: Timed[] = [];
      const b: Timed[] = [];
      for (let i = 0; i < rounds; i++) {
        m.push(await once());
        b.push(await each());
      }
      return summed(m, b);
    });
    return {
      what:
        `the registry query over ${tenants.length} databases: one psql with \`\\c\` (against one psql each, as chant-wave runs it)`,
      measured: value.measured,
      baseline: value.baseline,
      ratio: formatRatio(value.ratio),
      goal: "",
      met: undefined,
      load,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(
    await fleetBench(quick ? { sizes: [5, 20], rounds: 1 } : {}),
  );
}
