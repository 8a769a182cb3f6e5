/**
 * `deno task compile`: builds the single `dist/chant-wave` executable.
 *
 * With `deno compile` when its runtime (denort) is at hand: `DENORT_BIN` is set, or
 * a download succeeds. Otherwise `deno bundle` makes one ESM file and
 * `bun build --compile` (bun from npm through npx) turns it into the executable.
 * Prints which path it took, in plain lines: a runtime that cannot be
 * downloaded is one line, not deno's error and backtrace.
 * @module
 */

const BUN = "bun@1.4.5";
/**
 * How many times more reluctant to compile the binary starts: at 100 a decide
 * on a settled git ledger costs about a fifth less CPU, `check` of 5,000 runs a
 * quarter less (the JIT compiled code that ran once).
 */
const JIT_POLICY = 100;
const root = new URL("..", import.meta.url).pathname;
const dist = `${root}dist`;
const output = `${dist}/chant-wave`;

async function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<boolean> {
  const { code } = await new Deno.Command(cmd, {
    args,
    cwd: root,
    env,
    stdout: "inherit",
    stderr: "inherit",
  })
    .output();
  return code === 0;
}

/**
 * What the script says when `deno compile` failed: one line when it could not
 * get its runtime (no network, and no `DENORT_BIN`) and bun takes over; else
 * deno's own error, then that bun takes over, or nothing more when there is no
 * fallback (`DENORT_BIN` was set, so deno's error is the whole story).
 * @param stderr What `deno compile` wrote on stderr.
 * @param fallback Whether bun is tried next.
 * @returns The lines to print, without newlines.
 * @example
 * ```ts
 * denoCompileFailure("error: … denort-x86_64-unknown-linux-gnu.zip …", true);
 * // ["compile: deno compile cannot get its runtime here; bundling with bun"]
 * ```
 */
export function denoCompileFailure(
  stderr: string,
  fallback: boolean,
): string[] {
  const own = stderr.trimEnd() === "" ? [] : stderr.trimEnd().split("\n");
  if (!fallback) return own;
  if (/denort|dl\.deno\.land|Setting up base binary/.test(stderr)) {
    return [
      "compile: deno compile cannot get its runtime here; bundling with bun",
    ];
  }
  return [...own, "compile: deno compile failed; bundling with bun"];
}

async function denoCompile(fallback: boolean): Promise<boolean> {
  const env: Record<string, string> = {};
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) env.DENORT_BIN = denort;
  console.error(
    `compile: deno compile${
      denort ? ` with DENORT_BIN=${denort}` : " (downloads denort)"
    }`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "--allow-all",
      "--quiet",
      // gc() for the spawner's collections between steps, as bun's --expose-gc.
      "--v8-flags=--expose-gc",
      "--output",
      output,
      "cli.ts",
    ],
    cwd: root,
    env,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code === 0) {
    if (stderr !== "") console.error(stderr.trimEnd());
    return true;
  }
  for (const line of denoCompileFailure(stderr, fallback)) console.error(line);
  return false;
}

async function bunCompile(): Promise<boolean> {
  const bundle = `${dist}/chant-wave.mjs`;
  console.error(
    `compile: deno bundle to ${bundle}, then ${BUN} build --compile`,
  );
  if (
    !await run(Deno.execPath(), [
      "bundle",
      "--quiet",
      "--output",
      bundle,
      "cli.ts",
    ])
  ) return false;
  return await run("npx", [
    "--yes",
    BUN,
    "build",
    "--compile",
    "--bytecode",
    "--format=esm",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    // gc() for the spawner's full collections between steps
    // (src/exec/pace_collections.ts).
    "--compile-exec-argv=--expose-gc",
    // Run-once start-up code stays in the interpreter; the normal policy
    // returns once the command has run a moment (src/proc/jit_policy.ts).
    `--compile-jit-policy=${JIT_POLICY}`,
    "--outfile",
    output,
    bundle,
  ]);
}

if (import.meta.main) {
  await Deno.mkdir(dist, { recursive: true });
  const denortKnown = Deno.env.get("DENORT_BIN") !== undefined;
  const built = denortKnown
    ? await denoCompile(false)
    : (await denoCompile(true)) || (await bunCompile());
  if (!built) {
    console.error("compile: failed");
    Deno.exit(1);
  }
  console.error(`compile: wrote ${output}`);
}
