/**
 * PostgreSQL's parser compiled to WebAssembly (the npm package `libpg-query`,
 * PostgreSQL 18's grammar), instantiated from bytes bundled into the program:
 * the package's own loader reads its `.wasm` from disk, which a single binary
 * does not have. Imported dynamically by `pg_parser.ts`, so only a command that
 * reads SQL pays for decoding and compiling it. It knows nothing of what the
 * parser's answers mean.
 * @module
 */

// @ts-types="../../../types/libpg-query/libpg-query.d.ts"
import createModule from "libpg-query/wasm/libpg-query.js";
import wasmBytes from "libpg-query/wasm/libpg-query.wasm" with {
  type: "bytes",
};
import type { PgQueryModule } from "../../../types/libpg-query/libpg-query.d.ts";

export type { PgQueryModule } from "../../../types/libpg-query/libpg-query.d.ts";

/**
 * Compiles and starts one instance of the parser.
 *
 * The emscripten factory's Node branch reads the free variable `__dirname`
 * when called (an ES module has none), so it is defined on `globalThis` around
 * the call only when absent, and removed right after.
 * @returns The started module.
 */
export async function instantiatePgQuery(): Promise<PgQueryModule> {
  const global = globalThis as { __dirname?: string };
  const defined = "__dirname" in global;
  if (!defined) global.__dirname = "/";
  try {
    return await createModule({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(wasmBytes, imports).then((result) =>
          receive(result.instance)
        );
        return {};
      },
    });
  } finally {
    if (!defined) delete global.__dirname;
  }
}
