/**
 * Where one `run --decide` on a settled git ledger spends its CPU (issue 40):
 * the ledger-size bench's project, its 100-record branch compacted once (the
 * gate settled), and in its checkout, in paired rounds in alternating order,
 * the CPU of the whole process tree (`os.wait4`, to the millisecond) of:
 * `chant-wave --version` (the runtime's start and module init);
 * `chant-wave check --spec waves.json` (that, and loading and validating the
 * spec); the git processes one `run --decide --dry-run` ran (caught by a `git`
 * on `PATH` that writes down its arguments, then each run again from `sh`, in
 * the same folder and isolated configuration, stdin empty) and its plan
 * command; the decide itself; and plain git's `fetch --depth 1` + `ls-tree` of
 * the gate. Rows: each part (the rest of the JS is the decide less the check
 * and the replayed processes), the number of git processes, and the decide
 * against plain git (goal: within 3× of its CPU). Runnable alone (`deno run
 * --allow-all scripts/bench/decide_cost_bench.ts [--quick]`).
 * @module
 */

import {
  BINARY,
  formatMs,
  formatRatio,
  median,
  printTable,
  type Row,
  runTimed,
  type Timed,
  withLoad,
} from "./_measure.ts";
import {
  compactSettled,
  DECIDE,
  PLAIN,
  settledCopy,
  setUp,
} from "./ledger_size_bench.ts";
import { quote } from "../../src/quote.ts";

/** Sizes of {@linkcode decideCostBench}. */
export interface DecideCostBenchOptions {
  /** Paired rounds. @default {15} */
  rounds?: number;
}

/**
 * A `git` that writes each call's folder and arguments down, then runs the
 * real one (chant-wave passes git only the variables it knows).
 */
const shim = (real: string) =>
  `#!/bin/sh
{ printf '%s' "$PWD"; for arg in "$@"; do printf '\\037%s' "$arg"; done; printf '\\n'; } >> "$(dirname "$0")/calls"
exec ${quote(real)} "$@"
`;

/** Where git is on this machine's `PATH`. */
async function realGit(): Promise<string> {
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", "command -v git"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(stdout).trim();
}

/**
 * The git processes one decide runs in `cwd`, as a script that runs each
 * again (stdin empty, output dropped, chant-wave's isolated configuration),
 * and how many there are.
 */
async function caughtGit(
  root: string,
  cwd: string,
): Promise<{ script: string; count: number }> {
  const bin = `${root}/shim`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(`${bin}/git`, shim(await realGit()), {
    mode: 0o755,
  });
  const env = {
    ...Deno.env.toObject(),
    PATH: `${bin}:${Deno.env.get("PATH")}`,
  };
  const caught = await new Deno.Command(BINARY, {
    args: DECIDE,
    cwd,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (caught.code !== 3) {
    throw new Error(new TextDecoder().decode(caught.stderr));
  }
  const calls = (await Deno.readTextFile(`${bin}/calls`)).trim().split("\n");
  const lines = calls.map((call) => {
    const [dir, ...args] = call.split("\x1f");
    return `cd ${quote(dir)} && git ${
      args.map(quote).join(" ")
    } < /dev/null > /dev/null 2>&1`;
  });
  return {
    script: "export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null\n" +
      `${lines.join("\n")}\ncd ${quote(cwd)} && sh plan.sh ${
        quote(`${root}/plan.json`)
      }\n`,
    count: calls.length,
  };
}

const cpu = (runs: readonly Timed[]) => median(runs.map((t) => t.cpuMs ?? 0));
const wall = (runs: readonly Timed[]) => median(runs.map((t) => t.ms));

/**
 * Measures the rows (see the module).
 * @param options Rounds.
 * @returns The rows.
 */
export async function decideCostBench(
  options: DecideCostBenchOptions = {},
): Promise<Row[]> {
  const rounds = options.rounds ?? 15;
  const { value, load } = await withLoad(async () => {
    const { root } = await setUp(100);
    try {
      await settledCopy(root);
      await compactSettled(root);
      const cwd = `${root}/settled`;
      const { script, count } = await caughtGit(root, cwd);
      const sides: [string, () => Promise<Timed>][] = [
        ["version", () => runTimed(BINARY, ["--version"], { usage: true })],
        ["check", () =>
          runTimed(BINARY, ["check", "--spec", "waves.json"], {
            cwd,
            usage: true,
          })],
        ["replay", () => runTimed("sh", ["-c", script], { cwd, usage: true })],
        [
          "decide",
          () => runTimed(BINARY, DECIDE, { cwd, okCodes: [3], usage: true }),
        ],
        ["plain", () => runTimed("sh", ["-c", PLAIN], { cwd, usage: true })],
      ];
      const runs = new Map<string, Timed[]>(sides.map(([name]) => [name, []]));
      await sides[3][1](); // the first decide fetches the branch
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 === 0 ? sides : [...sides].reverse();
        for (const [name, side] of order) runs.get(name)!.push(await side());
      }
      return { runs, count };
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
  const { runs, count } = value;
  const of = (name: string) => runs.get(name)!;
  const [version, check, replay, decide, plain] = [
    "version",
    "check",
    "replay",
    "decide",
    "plain",
  ].map((name) => cpu(of(name)));
  const part = (what: string, ms: number): Row => ({
    what: `\`run --decide\`, settled git ledger: ${what}`,
    measured: `cpu ${formatMs(ms)}`,
    baseline: `the decide: cpu ${formatMs(decide)}`,
    ratio: `${((ms / decide) * 100).toFixed(0)}%`,
    goal: "",
    met: undefined,
    load,
  });
  return [
    part("runtime start, module init (`--version`)", version),
    part(
      "loading and validating the spec (`check --spec`, less `--version`)",
      check - version,
    ),
    part(
      `the ${count} git processes and the plan command, run again from sh`,
      replay,
    ),
    part(
      "the rest: spawning, the JS of policy and ledger reads, the decision",
      decide - check - replay,
    ),
    {
      what: "`run --decide`, settled git ledger: git processes",
      measured: `${count}`,
      baseline: "",
      ratio: "",
      goal: "≤ 4",
      met: count <= 4,
      load,
    },
    {
      what: "`run --decide`, settled git ledger, vs plain git",
      measured: `${formatMs(wall(of("decide")))}, cpu ${formatMs(decide)}`,
      baseline: `\`fetch --depth 1\` + \`ls-tree\` of the gate: ${
        formatMs(wall(of("plain")))
      }, cpu ${formatMs(plain)}`,
      ratio: `cpu ${formatRatio(decide / plain)}`,
      goal: "≤ 3× (cpu)",
      met: decide / plain <= 3,
      load,
    },
  ];
}

if (import.meta.main) {
  const quick = Deno.args.includes("--quick");
  printTable(await decideCostBench(quick ? { rounds: 3 } : {}));
}
