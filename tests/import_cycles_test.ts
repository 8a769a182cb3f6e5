// The shipped code has no import circles: a stage imports what comes before it,
// never its caller (STYLE.md "A job reads as its stages"). Type-only imports
// count too, since they tie modules as tightly for a reader. And the run flow
// sits on top: no module it builds on (the forge, the ledger, the policy, the
// tools, the neutral homes of shared helpers) imports anything of `src/run/`,
// so a helper two stages share never lives in one of them.
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";

const SRC = new URL("../src/", import.meta.url);

/** An import graph: each file (relative to `src/`) and the files it imports there. */
type Graph = Map<string, string[]>;

/** Every `.ts` file under `src/`, as a path relative to it, with what it imports there. */
async function importGraph(): Promise<Graph> {
  const graph: Graph = new Map();
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
function circles(graph: Graph): string[][] {
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

/**
 * The folders of `src/` the run flow builds on: none of them may import from
 * `run/` (the brief of issue 26 names the first fifteen; the rest hold too).
 */
const LOWER = [
  "forge",
  "notify",
  "review",
  "ledger",
  "base",
  "tofu",
  "sqitch",
  "seal",
  "spec",
  "jobs",
  "digest",
  "http",
  "input",
  "exec",
  "git",
  "console",
  // Neutral homes of what several stages and commands share.
  "ci",
  "gate",
  "plan",
  "summary",
  // Below the run flow as well.
  "fs",
  "hooks",
  "order",
  "tool",
  "resume",
  "pipeline",
  "completion",
  "help",
] as const;

/**
 * The imports into `run/` from a lower folder (or from a file at the top of
 * `src/`, which holds small shared helpers), each as `from -> to`.
 * @param graph The import graph.
 * @param lower The lower folders.
 */
function importsIntoRun(graph: Graph, lower: readonly string[]): string[] {
  const below = new Set(lower);
  const found: string[] = [];
  for (const [file, imports] of [...graph].sort(([a], [b]) => a < b ? -1 : 1)) {
    const slash = file.indexOf("/");
    const folder = slash < 0 ? "" : file.slice(0, slash);
    if (folder !== "" && !below.has(folder)) continue;
    for (const target of imports) {
      if (target.startsWith("run/")) found.push(`${file} -> ${target}`);
    }
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

Deno.test("no module below the run flow imports from src/run/", async (t) => {
  const graph = await importGraph();
  await t.step("every lower folder is a folder of src/", () => {
    const folders = new Set(
      [...graph.keys()].filter((f) => f.includes("/")).map((f) =>
        f.slice(0, f.indexOf("/"))
      ),
    );
    expect(LOWER.filter((folder) => !folders.has(folder))).toEqual([]);
  });
  await t.step("none of them imports a module of run/", () => {
    expect(importsIntoRun(graph, LOWER)).toEqual([]);
  });
});

Deno.test("importsIntoRun() and circles() on a small graph", async (t) => {
  const graph: Graph = new Map([
    ["run/run_job.ts", ["run/stage.ts", "forge/client.ts"]],
    ["run/stage.ts", ["ledger/store.ts", "count_of.ts"]],
    ["forge/client.ts", ["run/stage.ts"]],
    ["ledger/store.ts", ["ledger/records.ts"]],
    ["ledger/records.ts", []],
    ["cli/run_command.ts", ["run/run_job.ts"]],
    ["count_of.ts", ["run/log.ts"]],
    ["run/log.ts", []],
  ]);
  await t.step("an import from a lower folder into run/ is found", () => {
    expect(importsIntoRun(graph, ["forge", "ledger"])).toEqual([
      "count_of.ts -> run/log.ts",
      "forge/client.ts -> run/stage.ts",
    ]);
  });
  await t.step("the CLI above the run flow may import it", () => {
    expect(importsIntoRun(graph, ["ledger"])).toEqual([
      "count_of.ts -> run/log.ts",
    ]);
  });
  await t.step("without such imports nothing is found", () => {
    const clean: Graph = new Map([
      ["run/stage.ts", ["ledger/store.ts"]],
      ["ledger/store.ts", []],
    ]);
    expect(importsIntoRun(clean, LOWER)).toEqual([]);
  });
  await t.step("circles() finds a circle and names it in order", () => {
    const circular: Graph = new Map([
      ["run/a.ts", ["run/b.ts"]],
      ["run/b.ts", ["run/c.ts"]],
      ["run/c.ts", ["run/a.ts"]],
      ["run/d.ts", ["run/a.ts"]],
    ]);
    expect(circles(circular)).toEqual([["run/a.ts", "run/b.ts", "run/c.ts"]]);
    expect(circles(new Map([["run/a.ts", ["run/b.ts"]], ["run/b.ts", []]])))
      .toEqual([]);
  });
});
