/**
 * The first stage of `deno task test`: fetches every test oracle (the npm
 * packages the tests check rendered pipelines against, `ORACLES` in
 * `tests/pipeline/_oracles.ts`) into the deno cache once, in the user's own
 * environment (certificates, proxy, registry), pinned in `deno.lock`. Tests
 * then run them from the cache only (`--cached-only`), so a child process with
 * a cleared environment never downloads anything. Exits 1 when a fetch fails.
 * @module
 */

import { ORACLES } from "../tests/pipeline/_oracles.ts";

const root = new URL("..", import.meta.url).pathname;

const out = await new Deno.Command(Deno.execPath(), {
  args: ["cache", "--quiet", ...ORACLES],
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (!out.success) {
  console.error(
    `fetch_oracles: "deno cache ${
      ORACLES.join(" ")
    }" failed (exit ${out.code})`,
  );
  Deno.exit(1);
}
console.error(`fetch_oracles: ${ORACLES.length} test oracles in the cache`);
