/**
 * Shared measuring helpers for the benchmarks: wall time of a command run several
 * times, medians, and a small table printer.
 * @module
 */

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs a command and returns its wall time in milliseconds.
 * @throws {Error} When the command exits with a code not in `okCodes`.
 */
export async function timeCommand(
  cmd: string,
  args: string[],
  options: { cwd?: string; okCodes?: number[] } = {},
): Promise<number> {
  const start = performance.now();
  const { code, stderr } = await new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  const elapsed = performance.now() - start;
  if (!(options.okCodes ?? [0]).includes(code)) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${code}: ${
        new TextDecoder().decode(stderr)
      }`,
    );
  }
  return elapsed;
}

/** Formats milliseconds with one decimal. */
export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
