/**
 * `deno task compile`: builds the single `dist/chant-wave` executable.
 *
 * With `deno compile` when its runtime (denort) is at hand: `DENORT_BIN` is set, or
 * a download succeeds. Otherwise `deno bundle` makes one ESM file and
 * `bun build --compile` (bun from npm through npx) turns it into the executable.
 * Prints which path it took.
 * @module
 */

const BUN = "bun@1.4.5";
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

async function denoCompile(): Promise<boolean> {
  const env: Record<string, string> = {};
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) env.DENORT_BIN = denort;
  console.error(
    `compile: deno compile${
      denort ? ` with DENORT_BIN=${denort}` : " (downloads denort)"
    }`,
  );
  return await run(Deno.execPath(), [
    "compile",
    "--allow-all",
    "--quiet",
    // gc() for the spawner's collections between steps, as bun's --expose-gc.
    "--v8-flags=--expose-gc",
    "--output",
    output,
    "cli.ts",
  ], env);
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
    "--outfile",
    output,
    bundle,
  ]);
}

await Deno.mkdir(dist, { recursive: true });
const denortKnown = Deno.env.get("DENORT_BIN") !== undefined;
const built = denortKnown
  ? await denoCompile()
  : (await denoCompile()) || (await bunCompile());
if (!built) {
  console.error("compile: failed");
  Deno.exit(1);
}
console.error(`compile: wrote ${output}`);
