/**
 * Streaming through the shipped binary: `chant-wave run` of a one-run wave whose
 * plan command writes 1,000,000 lines (80 MB) to stdout, the log sent to
 * /dev/null, against `cat` of the same bytes to /dev/null and through a pipe,
 * in one run. Peak memory comes from `/usr/bin/time`; one extra run counts every
 * delivered `[plan] flood | …` line. Needs `deno task compile` first.
 * @module
 */

import { median, ms, timeCommand } from "./_measure.ts";

const BINARY = new URL("../../dist/chant-wave", import.meta.url).pathname;

/** The figures of one run. */
export interface BinaryStreamFigures {
  lines: number;
  catMs: number;
  catPipeMs: number;
  chantWaveMs: number;
  ratio: number;
  ratioPipe: number;
  peakMb: number;
  delivered: number;
}

async function setUp(dir: string, lines: number): Promise<void> {
  const filler = "x".repeat(64);
  const chunk: string[] = [];
  const file = await Deno.open(`${dir}/lines.txt`, {
    write: true,
    create: true,
  });
  for (let n = 1; n <= lines; n++) {
    chunk.push(`line ${String(n).padStart(9, "0")} ${filler}`);
    if (chunk.length === 10_000 || n === lines) {
      await file.write(new TextEncoder().encode(chunk.join("\n") + "\n"));
      chunk.length = 0;
    }
  }
  file.close();
  await Deno.writeTextFile(
    `${dir}/flood.sh`,
    `#!/bin/sh\ncat lines.txt\nprintf '{"planDigest":"sha256:%064d"}' 0 > "$1"\n`,
  );
  const spec = {
    name: "flood",
    plan: ["sh", "flood.sh", "{plan}"],
    apply: ["true"],
    waves: [{ name: "w", gate: "never", runs: ["flood"] }],
  };
  await Deno.writeTextFile(`${dir}/waves.json`, JSON.stringify(spec));
  await Deno.writeTextFile(`${dir}/.gitignore`, ".chant/\n");
  const env = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  for (
    const args of [["init", "-q", "-b", "main"], ["add", "-A"], [
      "commit",
      "-qm",
      "a",
    ], ["commit", "-qm", "b", "--allow-empty"]]
  ) {
    await new Deno.Command("git", {
      args: ["-c", "user.email=b@b", "-c", "user.name=b", ...args],
      cwd: dir,
      env,
    }).output();
  }
}

/**
 * Measures streaming through the binary.
 * @param rounds Repetitions of each side.
 * @param lines Lines the plan command writes.
 */
export async function binaryStreamBench(
  rounds = 3,
  lines = 1_000_000,
): Promise<BinaryStreamFigures> {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-bench-" });
  try {
    await setUp(dir, lines);
    const run = [
      "run",
      "--spec",
      "waves.json",
      "--wave",
      "1",
      "--heartbeat",
      "0",
    ];
    const cat: number[] = [];
    const pipe: number[] = [];
    const mine: number[] = [];
    for (let i = 0; i < rounds; i++) {
      cat.push(
        await timeCommand("sh", ["-c", "cat lines.txt > /dev/null"], {
          cwd: dir,
        }),
      );
      pipe.push(
        await timeCommand("sh", ["-c", "cat lines.txt | cat > /dev/null"], {
          cwd: dir,
        }),
      );
      mine.push(
        await timeCommand("sh", [
          "-c",
          `"${BINARY}" "$@" 2>/dev/null`,
          "sh",
          ...run,
        ], { cwd: dir }),
      );
    }
    const counted = await new Deno.Command("sh", {
      args: [
        "-c",
        `/usr/bin/time -f "%M" "${BINARY}" "$@" 2>&1 >/dev/null | grep -c '^\\[plan\\] flood | line '; /usr/bin/time -f "%M" "${BINARY}" "$@" 2>&1 >/dev/null | tail -n 1`,
        "sh",
        ...run,
      ],
      cwd: dir,
      stdout: "piped",
    }).output();
    const [delivered, peakKb] = new TextDecoder().decode(counted.stdout).trim()
      .split("\n").map(Number);
    const [catMs, catPipeMs, chantWaveMs] = [
      median(cat),
      median(pipe),
      median(mine),
    ];
    return {
      lines,
      catMs,
      catPipeMs,
      chantWaveMs,
      ratio: chantWaveMs / catMs,
      ratioPipe: chantWaveMs / catPipeMs,
      peakMb: peakKb / 1024,
      delivered,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Prints the figures. */
export function printBinaryStream(f: BinaryStreamFigures): void {
  console.log(
    `stream ${f.lines} lines via chant-wave run: ${
      ms(f.chantWaveMs)
    }, delivered ${f.delivered}`,
  );
  console.log(
    `  cat > /dev/null ${ms(f.catMs)} (${f.ratio.toFixed(1)}x), cat | cat ${
      ms(f.catPipeMs)
    } (${f.ratioPipe.toFixed(1)}x)`,
  );
  console.log(`  peak memory ${f.peakMb.toFixed(1)} MB (target: under 100 MB)`);
}

if (import.meta.main) printBinaryStream(await binaryStreamBench());
