/**
 * Benchmark of the pipeline renderers: a spec of 200 waves, each with 4 job groups
 * of 3 shares (2,600 jobs), expanded and rendered for each forge, timed over
 * several repetitions after a warm-up. Target: median under 300 ms per forge.
 * Runnable alone (`deno run --allow-all scripts/bench/pipeline_bench.ts`);
 * `scripts/bench/main.ts` may call `pipelineBench()`.
 * @module
 */

import { median, ms } from "./_measure.ts";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderPipeline } from "../../src/pipeline/render_pipeline.ts";
import { FORGES } from "../../src/pipeline/rendered_file.ts";
import type { Forge } from "../../src/pipeline/rendered_file.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

/** Options of {@linkcode pipelineBench}. */
export interface PipelineBenchOptions {
  /**
   * Waves in the spec.
   * @default {200}
   */
  waves?: number;
  /**
   * Timed renders per forge.
   * @default {7}
   */
  repetitions?: number;
}

/** The figures for one forge. */
export interface PipelineBenchResult {
  /** What was measured. */
  name: string;
  forge: Forge;
  /** Jobs in the pipeline. */
  jobs: number;
  /** Characters of YAML rendered. */
  chars: number;
  repetitions: number;
  /** Median of expand + render, in ms. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** The target for the median, in ms. */
  targetMs: number;
  /** Whether the median met the target. */
  ok: boolean;
}

/**
 * The benchmark's spec: `waves` waves of 12 runs, each split into 4 job groups
 * (`g1`…`g4`, by pattern) of 3 shares.
 * @param waves How many waves.
 * @returns The spec's JSON text.
 */
export function benchSpecText(waves: number): string {
  const list = Array.from({ length: waves }, (_, index) => ({
    name: `w${index + 1}`,
    runs: Array.from({ length: 12 }, (_, run) => `g${run % 4 + 1}/t${run}`),
    variables: { REGION: `r${index % 5}` },
    jobs: Array.from({ length: 4 }, (_, group) => ({
      name: `g${group + 1}`,
      runs: [`g${group + 1}/*`],
      shares: 3,
    })),
  }));
  return JSON.stringify({
    name: "bench",
    plan: ["tool", "plan", "{target}", "{plan}"],
    apply: ["tool", "apply", "{plan}"],
    pipeline: { install: "export PATH=$PWD/bin:$PATH" },
    waves: list,
  });
}

/**
 * Times `expandJobs` + the renderer of each forge on the benchmark spec.
 * @param options Waves and repetitions.
 * @returns One result per forge.
 */
export function pipelineBench(
  options: PipelineBenchOptions = {},
): PipelineBenchResult[] {
  const waves = options.waves ?? 200;
  const repetitions = options.repetitions ?? 7;
  const spec = parseSpec(benchSpecText(waves), "waves.json");
  return FORGES.map((forge) => {
    const render = () => {
      const jobs = expandJobs(spec, "waves.json");
      const [file] = renderPipeline(forge, spec, jobs, "waves.json");
      return { jobs: jobs.length, chars: file.text.length };
    };
    const { jobs, chars } = render();
    render();
    const times: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      const start = performance.now();
      render();
      times.push(performance.now() - start);
    }
    const medianMs = median(times);
    return {
      name: `render ${forge} (${waves} waves × 4 groups × 3 shares)`,
      forge,
      jobs,
      chars,
      repetitions,
      medianMs,
      minMs: Math.min(...times),
      maxMs: Math.max(...times),
      targetMs: 300,
      ok: medianMs < 300,
    };
  });
}

if (import.meta.main) {
  for (const r of pipelineBench()) {
    console.log(
      `${r.name}: ${r.jobs} jobs, ${r.chars} chars, ${r.repetitions} runs`,
    );
    console.log(
      `  median  ${ms(r.medianMs)}  (target < ${r.targetMs} ms: ${
        r.ok ? "met" : "MISSED"
      })  min ${ms(r.minMs)}  max ${ms(r.maxMs)}`,
    );
  }
}
