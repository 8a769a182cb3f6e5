// Folders are layers (STYLE.md): each folder of `src/` stands on one layer, and
// imports only folders on lower layers, so no two folders import each other,
// directly or round a loop. And the gate core is pure: nothing it reaches does
// I/O. docs/development.md draws the same layers.
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";

const SRC = new URL("../src/", import.meta.url);

/**
 * The layers of `src/`, bottom first. A folder imports only folders of lower
 * layers (and the leaf files at the top of `src/`, which import nothing of a
 * folder); two folders of one layer never import each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["console", "digest", "help", "completion"],
  ["input", "http"],
  ["fs", "proc"],
  ["git"],
  ["spec", "ci", "seal"],
  ["exec", "plan"],
  ["gate"],
  ["base", "forge", "jobs", "hooks", "order"],
  ["ledger", "tofu", "sqitch", "summary", "pipeline", "notify"],
  ["review", "resume", "tool"],
  ["run"],
  ["drift"],
  ["cli"],
];

/** The folders the gate core may reach: itself and pure folders below it. */
const GATE_REACHES = [
  "gate",
  "spec",
  "digest",
  "seal",
  "plan",
  "input",
  "ci",
  "console",
];

/** The only `node:` module the gate core may reach (hashing is not I/O). */
const GATE_NODE = ["node:crypto"];

/** Each file of `src/` (relative to it) with its imports: relative ones resolved. */
type Graph = Map<string, { local: string[]; external: string[] }>;

async function importGraph(): Promise<Graph> {
  const graph: Graph = new Map();
  async function walk(dir: URL, prefix: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory) {
        await walk(new URL(`${entry.name}/`, dir), `${rel}/`);
      } else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(new URL(entry.name, dir));
        const specs = [
          ...text.matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms),
        ].map((m) => m[1]);
        graph.set(rel, {
          // Type declarations outside src/ (types/) hold no code: no layer.
          local: specs.filter((s) => s.startsWith("."))
            .map((s) => new URL(s, new URL(rel, SRC)).pathname)
            .filter((path) => path.startsWith(SRC.pathname))
            .map((path) => path.slice(SRC.pathname.length)),
          external: specs.filter((s) => !s.startsWith(".")),
        });
      }
    }
  }
  await walk(SRC, "");
  return graph;
}

/** The folder of a file of `src/` (`""` for a leaf file at the top). */
function folderOf(file: string): string {
  const slash = file.indexOf("/");
  return slash < 0 ? "" : file.slice(0, slash);
}

/** The imports that break the layers, each as `from -> to`. */
function layerBreaks(
  graph: Graph,
  layers: readonly (readonly string[])[],
): string[] {
  const rank = new Map<string, number>();
  layers.forEach((folders, i) => folders.forEach((f) => rank.set(f, i)));
  const found: string[] = [];
  for (
    const [file, { local }] of [...graph].sort(([a], [b]) => a < b ? -1 : 1)
  ) {
    const from = folderOf(file);
    for (const target of local) {
      const to = folderOf(target);
      if (to === from || to === "") continue;
      const up = from === "" || !(rank.get(from)! > rank.get(to)!);
      if (up) found.push(`${file} -> ${target}`);
    }
  }
  return found;
}

/** Every file the files of `folder` reach through their imports. */
function reached(graph: Graph, folder: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...graph.keys()].filter((f) => folderOf(f) === folder);
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !graph.has(file)) continue;
    seen.add(file);
    stack.push(...graph.get(file)!.local);
  }
  return seen;
}

Deno.test("src/ folders are layers: each imports only folders below it", async (t) => {
  const graph = await importGraph();
  await t.step("every folder of src/ has a layer, and only one", () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    folders.delete("");
    const placed = LAYERS.flat();
    expect([...folders].filter((f) => !placed.includes(f)).sort()).toEqual([]);
    expect(placed.filter((f) => !folders.has(f))).toEqual([]);
    expect(new Set(placed).size).toBe(placed.length);
  });
  await t.step("no import runs up a layer or across one", () => {
    expect(layerBreaks(graph, LAYERS)).toEqual([]);
  });
});

Deno.test("src/gate/ is the pure core: nothing it reaches does I/O", async (t) => {
  const graph = await importGraph();
  const files = reached(graph, "gate");
  await t.step("the graph is read (a sanity check)", () => {
    expect(files.has("gate/decide_gate.ts")).toBe(true);
  });
  await t.step("it reaches only pure folders and leaf files", () => {
    expect(
      [...files].filter((f) =>
        folderOf(f) !== "" && !GATE_REACHES.includes(folderOf(f))
      ).sort(),
    ).toEqual([]);
  });
  await t.step("it reaches no node: module but hashing, no package", () => {
    const external = [...files].flatMap((f) =>
      graph.get(f)!.external.filter((s) => !GATE_NODE.includes(s))
        .map((s) => `${f} -> ${s}`)
    );
    expect(external.sort()).toEqual([]);
  });
});

Deno.test("layerBreaks() on a small graph", async (t) => {
  const node = (...local: string[]) => ({ local, external: [] });
  const graph: Graph = new Map([
    ["cli/main.ts", node("run/job.ts", "quote.ts")],
    ["run/job.ts", node("gate/decide.ts", "run/stage.ts")],
    ["run/stage.ts", node()],
    ["gate/decide.ts", node("spec/types.ts")],
    ["spec/types.ts", node()],
    ["quote.ts", node()],
  ]);
  const layers = [["spec"], ["gate"], ["run"], ["cli"]];
  await t.step("imports down the layers pass", () => {
    expect(layerBreaks(graph, layers)).toEqual([]);
  });
  await t.step("an import up a layer is found", () => {
    graph.set("gate/decide.ts", node("spec/types.ts", "run/stage.ts"));
    expect(layerBreaks(graph, layers)).toEqual([
      "gate/decide.ts -> run/stage.ts",
    ]);
  });
  await t.step("two folders of one layer may not import each other", () => {
    expect(layerBreaks(graph, [["spec"], ["gate", "run"], ["cli"]]))
      .toEqual([
        "gate/decide.ts -> run/stage.ts",
        "run/job.ts -> gate/decide.ts",
      ]);
  });
  await t.step("a leaf file at the top imports no folder", () => {
    graph.set("quote.ts", node("spec/types.ts"));
    expect(layerBreaks(graph, layers)).toContain("quote.ts -> spec/types.ts");
  });
});
