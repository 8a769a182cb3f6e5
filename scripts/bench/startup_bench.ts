/**
 * Start-up and validation speed of the binary: `chant-wave --version` against
 * `git --version` (medians from one interleaved run), and `chant-wave check` on a
 * generated spec of 5,000 runs in 50 waves. Needs `deno task compile` first.
 * @module
 */

import { median, ms, timeCommand } from "./_measure.ts";

const BINARY = new URL("../../dist/chant-wave", import.meta.url).pathname;

/** The figures of one start-up run. */
export interface StartupFigures {
  versionMs: number;
  gitVersionMs: number;
  ratio: number;
  check5000Ms: number;
}

/** A spec with `waves` waves of `perWave` runs each. */
export function generatedSpec(waves: number, perWave: number): string {
  const list = Array.from({ length: waves }, (_, w) => ({
    name: `wave-${w + 1}`,
    gate: w % 2 ? "always" : "on-destructive",
    runs: Array.from({ length: perWave }, (_, r) => `tenant-${w + 1}-${r + 1}`),
  }));
  return JSON.stringify({
    name: "bench",
    plan: ["p", "{target}", "{plan}"],
    apply: ["a", "{plan}"],
    waves: list,
  });
}

/**
 * Measures start-up and the 5,000-run check.
 * @param rounds Repetitions of each command.
 */
export async function startupBench(rounds = 30): Promise<StartupFigures> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/waves.json`, generatedSpec(50, 100));
    const mine: number[] = [];
    const git: number[] = [];
    const check: number[] = [];
    for (let i = 0; i < rounds; i++) {
      mine.push(await timeCommand(BINARY, ["--version"]));
      git.push(await timeCommand("git", ["--version"]));
      if (i < 10) {
        check.push(
          await timeCommand(BINARY, ["check", "--spec", "waves.json"], {
            cwd: dir,
          }),
        );
      }
    }
    const versionMs = median(mine);
    const gitVersionMs = median(git);
    return {
      versionMs,
      gitVersionMs,
      ratio: versionMs / gitVersionMs,
      check5000Ms: median(check),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Prints the figures as a table. */
export function printStartup(figures: StartupFigures): void {
  console.log(`chant-wave --version      ${ms(figures.versionMs)}`);
  console.log(`git --version             ${ms(figures.gitVersionMs)}`);
  console.log(
    `ratio                     ${
      figures.ratio.toFixed(1)
    }x (target: within 15x)`,
  );
  console.log(
    `check, 5,000 runs         ${
      ms(figures.check5000Ms)
    } (target: under 150 ms)`,
  );
}

if (import.meta.main) printStartup(await startupBench());
