// The shipped code has no import circles: a stage imports what comes before it,
// never its caller (STYLE.md "A job reads as its stages"). Type-only imports
// count too, since they tie modules as tightly for a reader.
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";

const SRC = new URL("../src/", import.meta.url);

/** Every `.ts` file under `src/`, as a path relative to it, with what it imports there. */
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  async function walk(dir: URL, prefix: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory) {
        await walk(new URL(`${entry.name}/`, dir), `${rel}/`);
      } else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(new URL(entry.name, dir));
        const imports = [
          ...text.matchAll(/^(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"/gms),
        ].map((m) =>
          new URL(m[1], new URL(rel, SRC)).pathname.slice(SRC.pathname.length)
        );
        graph.set(rel, imports);
      }
    }
  }
  await walk(SRC, "");
  return graph;
}

/** The import circles of a graph, each as the files on it, in order. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") {
        found.push(path.slice(path.indexOf(next)));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) {
    if (!state.has(file)) visit(file);
  }
  return found;
}

Deno.test("src/ has no import circles", async (t) => {
  const graph = await importGraph();
  await t.step("the graph is read (a sanity check of the reader)", () => {
    expect(graph.get("run/run_job.ts")).toContain("run/run_deciding.ts");
  });
  await t.step("no file reaches itself through its imports", () => {
    expect(circles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
  });
});
