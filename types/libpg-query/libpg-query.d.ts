/**
 * Types for the emscripten factory of `libpg-query` (npm, `wasm/libpg-query.js`)
 * and the part of its module chant-wave calls: memory, strings, and the
 * parser's entry points as the package's `wasm/index.js` calls them.
 */

/** A started parser instance. */
export interface PgQueryModule {
  _malloc(size: number): number;
  _free(pointer: number): void;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, pointer: number, size: number): void;
  UTF8ToString(pointer: number): string;
  getValue(pointer: number, type: "i32"): number;
  _wasm_parse_query_raw(query: number): number;
  _wasm_free_parse_result(result: number): void;
  _wasm_parse_plpgsql(query: number): number;
  _wasm_scan(query: number): number;
  _wasm_free_string(result: number): void;
}

/** What the factory is given: how to instantiate the WebAssembly bytes. */
export interface PgQueryModuleOptions {
  instantiateWasm(
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance) => void,
  ): Record<string, never>;
}

/** The factory: starts one instance. */
declare function createModule(
  options: PgQueryModuleOptions,
): Promise<PgQueryModule>;
export default createModule;
