/**
 * The wave runner's overhead: `chant-wave run` over a wave of 1,000 runs whose
 * plan and apply commands are tiny scripts, at `--parallel 1` and `--parallel 4`,
 * against `xargs -P` running the same 2,000 commands, in one run. Needs
 * `deno task compile` first.
 * @module
 */

import { median, ms, timeCommand } from "./_measure.ts";

const BINARY = new URL("../../dist/chant-wave", import.meta.url).pathname;
const RUNS = 1000;

/** The figures at one parallelism. */
export interface RunFigures {
  parallel: number;
  chantWaveMs: number;
  xargsMs: number;
  ratio: number;
}

const PLAN = `#!/bin/sh
printf '{"planDigest":"sha256:%064d","empty":false}\\n' 0 > "$2"
`;
const APPLY = `#!/bin/sh
: "$1"
`;

async function git(cwd: string, ...args: string[]): Promise<void> {
  const env = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  await new Deno.Command("git", {
    args: ["-c", "user.email=b@b", "-c", "user.name=b", ...args],
    cwd,
    env,
  }).output();
}

async function setUp(dir: string): Promise<void> {
  const runs = Array.from(
    { length: RUNS },
    (_, i) => `t-${String(i).padStart(4, "0")}`,
  );
  const spec = {
    name: "bench",
    plan: ["sh", "plan.sh", "{target}", "{plan}"],
    apply: ["sh", "apply.sh", "{target}"],
    heartbeat: "0",
    waves: [{ name: "all", gate: "never", runs }],
  };
  await Deno.writeTextFile(`${dir}/waves.json`, JSON.stringify(spec));
  await Deno.writeTextFile(`${dir}/plan.sh`, PLAN);
  await Deno.writeTextFile(`${dir}/apply.sh`, APPLY);
  await Deno.writeTextFile(`${dir}/.gitignore`, ".chant/\n");
  await Deno.mkdir(`${dir}/plans`);
  const planArgs = runs.map((t) => `plan.sh ${t} plans/${t}.json`).join("\n");
  const applyArgs = runs.map((t) => `apply.sh ${t}`).join("\n");
  await Deno.writeTextFile(`${dir}/plan.args`, planArgs + "\n");
  await Deno.writeTextFile(`${dir}/apply.args`, applyArgs + "\n");
  await Deno.writeTextFile(
    `${dir}/xargs.sh`,
    `#!/bin/sh\nxargs -P "$1" -L 1 sh < plan.args && xargs -P "$1" -L 1 sh < apply.args\n`,
  );
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "a");
  await git(dir, "commit", "-q", "--allow-empty", "-m", "b");
}

/**
 * Measures the runner against `xargs -P` at parallelism 1 and 4.
 * @param rounds Repetitions of each measurement.
 */
export async function runBench(rounds = 3): Promise<RunFigures[]> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  try {
    await setUp(dir);
    const figures: RunFigures[] = [];
    for (const parallel of [1, 4]) {
      const mine: number[] = [];
      const xargs: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const args = [
          "run",
          "--spec",
          "waves.json",
          "--wave",
          "1",
          "--parallel",
          String(parallel),
        ];
        mine.push(await timeCommand(BINARY, args, { cwd: dir }));
        xargs.push(
          await timeCommand("sh", ["xargs.sh", String(parallel)], { cwd: dir }),
        );
      }
      const chantWaveMs = median(mine);
      const xargsMs = median(xargs);
      figures.push({
        parallel,
        chantWaveMs,
        xargsMs,
        ratio: chantWaveMs / xargsMs,
      });
    }
    return figures;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Prints the figures as a table. */
export function printRun(figures: readonly RunFigures[]): void {
  for (const f of figures) {
    console.log(
      `run, ${RUNS} runs, --parallel ${f.parallel}: ${
        ms(f.chantWaveMs)
      } vs xargs -P ${f.parallel} ${ms(f.xargsMs)}: ` +
        `${f.ratio.toFixed(2)}x (target: within 1.3x)`,
    );
  }
}

if (import.meta.main) printRun(await runBench());
