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

/** A running binary whose stderr the test watches as it comes. */
export interface RunningBinary {
  /** The process id (of `env`, which execs the binary). */
  pid: number;
  /**
   * Resolves once stderr holds `text` (or matches it); rejects if the process
   * ends first, or after 60 s.
   */
  stderrHas(text: string | RegExp): Promise<void>;
  /** Waits for the end; stderr holds everything it wrote. */
  finish(): Promise<BinaryResult>;
}

/**
 * Starts `chant-wave <args>` like {@linkcode runBinary}, reading stderr while it
 * runs, so a test can wait for a line (an event) instead of sleeping.
 * @param args The arguments.
 * @param options The directory and any extra variables.
 * @returns The running binary.
 */
export function startBinary(
  args: readonly string[],
  options: BinaryOptions,
): RunningBinary {
  const extra = Object.entries(options.env ?? {}).map(([name, value]) =>
    `${name}=${value}`
  );
  const child = new Deno.Command("/usr/bin/env", {
    args: ["-i", "PATH=/usr/bin:/bin", ...extra, BINARY, ...args],
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const watchers = new Set<() => void>();
  const decoder = new TextDecoder();
  let ended = false;
  const drained = (async () => {
    for await (const chunk of child.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      for (const watch of watchers) watch();
    }
    stderr += decoder.decode();
    ended = true;
    for (const watch of watchers) watch();
  })();
  const stdout = new Response(child.stdout).text();
  return {
    pid: child.pid,
    stderrHas(text) {
      return new Promise((resolve, reject) => {
        const found = () =>
          typeof text === "string" ? stderr.includes(text) : text.test(stderr);
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`no "${text}" within 60s:\n${stderr}`));
        }, 60_000);
        const watch = () => {
          if (found()) {
            watchers.delete(watch);
            clearTimeout(timer);
            resolve();
          } else if (ended) {
            watchers.delete(watch);
            clearTimeout(timer);
            reject(new Error(`ended without printing "${text}":\n${stderr}`));
          }
        };
        watchers.add(watch);
        watch();
      });
    },
    async finish() {
      const [{ code }, out] = await Promise.all([
        child.status,
        stdout,
        drained,
      ]);
      return { code, stdout: out, stderr };
    },
  };
}
