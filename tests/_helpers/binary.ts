/**
 * Runs the compiled `dist/chant-wave` the way a CI runner would: through
 * `env -i` with only `PATH=/usr/bin:/bin` (no HOME, no deno), in a given directory;
 * a test may give another PATH (to put a stand-in tool first).
 * End-to-end tests use it; `deno task test` builds the binary first.
 * @module
 */

/** The built executable. */
export const BINARY =
  new URL("../../dist/chant-wave", import.meta.url).pathname;

/** What a run of the binary showed. */
export interface BinaryResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@linkcode runBinary}. */
export interface BinaryOptions {
  /** Working directory. */
  cwd: string;
  /** Variables added to the empty environment; `PATH` is `/usr/bin:/bin` unless this gives one. */
  env?: Record<string, string>;
  /** Text for stdin. */
  stdin?: string;
  /** Kills the binary when aborted (a guard for tests of things that must not hang). */
  signal?: AbortSignal;
}

/**
 * Runs `chant-wave <args>` under `env -i PATH=/usr/bin:/bin` (or the `PATH` of
 * `options.env`).
 * @param args The arguments.
 * @param options The directory and any extra variables.
 * @returns Exit code and decoded output.
 */
export async function runBinary(
  args: readonly string[],
  options: BinaryOptions,
): Promise<BinaryResult> {
  const { PATH = "/usr/bin:/bin", ...rest } = options.env ?? {};
  const extra = Object.entries(rest).map(([name, value]) => `${name}=${value}`);
  const child = new Deno.Command("/usr/bin/env", {
    args: ["-i", `PATH=${PATH}`, ...extra, BINARY, ...args],
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.signal ? { signal: options.signal } : {}),
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
  };
}

/**
 * A temporary directory that removes itself (`await using dir = await tempDir()`).
 * @param files Files to write first, by relative path.
 */
export async function tempDir(
  files: Record<string, string> = {},
): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "chant-wave-test-" });
  for (const [name, text] of Object.entries(files)) {
    const full = `${path}/${name}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}
