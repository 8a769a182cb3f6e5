/**
 * `deno task bench`: runs every benchmark in turn, each in its own process (so
 * memory figures are its own), after building the binary when it is missing.
 * Each prints its medians and the baseline measured in the same run.
 * @module
 */

const here = new URL(".", import.meta.url).pathname;
const root = new URL("../..", import.meta.url).pathname;
const BENCHES = [
  ["start-up and check (binary vs git --version)", "startup_bench.ts"],
  ["streaming through the binary (vs cat)", "binary_stream_bench.ts"],
  ["streaming through runStep under deno (vs cat)", "stream_bench.ts"],
  ["a 1,000-run wave (binary vs xargs -P)", "run_bench.ts"],
  ["gate evaluation, 10,000 records", "gate_bench.ts"],
  ["git ledger writes", "git_ledger_bench.ts"],
  ["pipeline rendering, 200 waves", "pipeline_bench.ts"],
] as const;

if (!await Deno.stat(`${root}/dist/chant-wave`).then(() => true, () => false)) {
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["task", "compile"],
    cwd: root,
  }).output();
  if (!built.success) Deno.exit(1);
}
let failed = false;
for (const [title, file] of BENCHES) {
  console.log(`\n== ${title}`);
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${here}${file}`],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  failed ||= !success;
}
Deno.exit(failed ? 1 : 0);
