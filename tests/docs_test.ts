// Keeps README.md and docs/ honest: every `chant-wave …` command in a fenced
// block parses with the command line's own flag tables (the parser every
// command runs first), every whole spec passes the compiled binary's `check`,
// every fragment, JSON and YAML block parses, every rendered excerpt is what
// `pipeline` renders, every link stays in the repository and resolves, and the
// README's quick start (docs_quickstart_test.ts) runs end to end.
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
// @ts-types="../types/std/jsonc.d.ts"
import { parse as parseJsonc } from "@std/jsonc";
import { parse as parseYaml } from "yaml";
import { COMMANDS } from "../src/cli/main.ts";
import { parseFlags } from "../src/cli/_flags.ts";
import { RECORD_KINDS } from "../src/gate/records.ts";
import {
  jobGroupSchema,
  specSchema,
  waveSchema,
} from "../src/spec/spec_schema.ts";
import { runBinary, tempDir } from "./_helpers/binary.ts";
import {
  chantWaveCommands,
  type CommandLine,
  docFiles,
  fencedBlocks,
  headingAnchors,
  linkTargets,
  ROOT,
} from "./_helpers/markdown.ts";

const FILES = await docFiles();
const TEXTS = Object.fromEntries(
  await Promise.all(
    FILES.map(async (file) => [file, await Deno.readTextFile(ROOT + file)]),
  ),
) as Record<string, string>;
const BLOCKS = FILES.flatMap((file) => fencedBlocks(file, TEXTS[file]));
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`;

/** The positional words each command takes, after its flags are parsed. */
const POSITIONALS: Record<string, (words: string[]) => boolean> = {
  run: (p) => p.length === 0,
  approve: (p) => p.length === 0 || p.length === 2,
  show: (p) => p.length === 0 || p.length === 2,
  revoke: (p) => p.length === 0 || p.length === 2,
  resume: (p) => p.length === 0,
  status: (p) => p.length === 0,
  drift: (p) => p.length === 0,
  check: (p) => p.length === 0,
  jobs: (p) => p.length === 0,
  schema: (p) => p.length === 0,
  pipeline: (p) => p.length === 1,
  "plan-file": (p) => p.length === (p[0] === "sqitch" ? 4 : 3),
  ledger: (p) =>
    ["log", "compact"].includes(p[0]) ? p.length <= 3 : p.length === 1,
  completion: (p) => p.length === 1,
  help: (p) => p.length <= 1,
};

/** The flags a command cannot do without (one of each inner list). */
const REQUIRED: Record<string, string[][]> = {
  run: [["spec"], ["wave", "record-plans", "pull-request"]],
  status: [["spec"]],
  drift: [["spec"]],
  check: [["spec"]],
  jobs: [["spec"]],
  pipeline: [["spec"]],
};

/** Why a command line would not parse, or undefined when it does. */
function parseProblem({ args }: CommandLine): string | undefined {
  if (args.length === 0 || ["--version", "--help"].includes(args[0])) return;
  const [name, words] = args[0].startsWith("-")
    ? ["run", args]
    : [args[0], args.slice(1)];
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) return `no command "${name}"`;
  if (words.includes("--help")) return;
  const flags = parseFlags(name, words, command.flags);
  const positionals = flags.positionals;
  if (!POSITIONALS[name](positionals)) {
    return `"${name}" does not take "${positionals.join(" ")}"`;
  }
  if (command.words && positionals[0] !== undefined) {
    if (!command.words.includes(positionals[0])) {
      return `"${name}" does not take "${positionals[0]}"`;
    }
  }
  const given = (flag: string) =>
    flags.strings[flag] !== undefined || flags.booleans[flag] === true;
  const gate = ["approve", "show", "revoke"].includes(name) &&
    positionals.length === 0;
  for (
    const any of [
      ...(REQUIRED[name] ?? []),
      ...(gate ? [["spec"], ["wave"]] : []),
    ]
  ) {
    if (!any.some(given)) return `"${name}" needs --${any.join(" or --")}`;
  }
}

Deno.test("every chant-wave command in the README's and docs' blocks parses", () => {
  const commands = BLOCKS.flatMap(chantWaveCommands);
  expect(commands.length).toBeGreaterThan(60);
  const problems = commands.flatMap((command) => {
    try {
      const problem = parseProblem(command);
      return problem === undefined ? [] : [`${command.where}: ${problem}`];
    } catch (error) {
      return [`${command.where}: ${(error as Error).message}`];
    }
  });
  expect(problems).toEqual([]);
});

Deno.test("the README's command table: one example per command, each parses", () => {
  const readme = TEXTS["README.md"];
  const table = readme.slice(readme.indexOf("## Commands\n")).split("\n## ")[0];
  const rows = [
    ...table.matchAll(/^\| `([a-z-]+)` +\|.*\| `(chant-wave [^`]+)` +\|$/gm),
  ];
  expect(rows.map(([, name]) => name).sort()).toEqual(
    COMMANDS.map((command) => command.name).sort(),
  );
  for (const [, name, example] of rows) {
    const block = {
      file: "README.md",
      line: 0,
      info: ["sh"],
      text: `${example}\n`,
    };
    const [line] = chantWaveCommands(block);
    expect({ name, problem: parseProblem(line) }).toEqual({
      name,
      problem: undefined,
    });
    expect(line.args[0]).toBe(name);
  }
});

Deno.test("parseProblem() refuses what the command line refuses", () => {
  const cases: [string, string][] = [
    [
      "run --spec w.jsonc --wav 1",
      'unknown flag "--wav" for "run"; did you mean "--wave"?',
    ],
    [
      "run --spec w.jsonc",
      '"run" needs --wave or --record-plans or --pull-request',
    ],
    ["pipeline gitlub --spec w.jsonc", '"pipeline" does not take "gitlub"'],
    ["approve demo", '"approve" does not take "demo"'],
    ["ledger log a b c", '"ledger" does not take "log a b c"'],
    ["deploy", 'no command "deploy"'],
  ];
  for (const [line, want] of cases) {
    const command = { where: "case", args: line.split(" ") };
    let got: string | undefined;
    try {
      got = parseProblem(command);
    } catch (error) {
      got = (error as Error).message;
    }
    expect({ line, got }).toEqual({ line, got: want });
  }
});

Deno.test("every whole spec in the README and docs passes chant-wave check", async (t) => {
  const specs = BLOCKS.filter((b) =>
    b.info[0] === "jsonc" && b.info[1] !== "fragment"
  );
  expect(specs.length).toBeGreaterThan(8);
  await using dir = await tempDir();
  for (const block of specs) {
    await t.step(where(block), async () => {
      await Deno.writeTextFile(`${dir.path}/waves.jsonc`, block.text);
      const out = await runBinary(["check", "--spec", "waves.jsonc"], {
        cwd: dir.path,
      });
      const first = out.stderr.split("\n")[0];
      expect({
        code: out.code,
        ok: first.startsWith("ok: waves.jsonc: "),
        first,
      })
        .toEqual({ code: 0, ok: true, first });
    });
  }
});

Deno.test("every JSONC fragment, JSON and YAML block parses", () => {
  const problems: string[] = [];
  for (const block of BLOCKS) {
    try {
      if (block.info[0] === "jsonc" && block.info[1] === "fragment") {
        try {
          parseJsonc(block.text);
        } catch {
          parseJsonc(`{${block.text}}`);
        }
      } else if (block.info[0] === "json") JSON.parse(block.text);
      else if (block.info[0] === "yaml") parseYaml(block.text);
    } catch (error) {
      problems.push(
        `${where(block)}: ${(error as Error).message.split("\n")[0]}`,
      );
    }
  }
  expect(problems).toEqual([]);
});

/**
 * Whether `text` holds the excerpt's lines in a row, each behind the same
 * indentation (the formatter dedents an excerpt taken from inside a mapping).
 */
function holdsExcerpt(text: string, excerpt: string[]): boolean {
  const lines = text.split("\n");
  const want = excerpt.at(-1) === "" ? excerpt.slice(0, -1) : excerpt;
  return lines.some((line, at) => {
    const indent = line.slice(0, line.length - want[0].length);
    return line.endsWith(want[0]) && /^ *$/.test(indent) &&
      want.every((w, i) => lines[at + i] === (w === "" ? "" : indent + w));
  });
}

Deno.test("every rendered excerpt is what chant-wave pipeline renders", async (t) => {
  const excerpts = BLOCKS.filter((b) =>
    b.text.startsWith("# excerpt of: chant-wave ")
  );
  expect(excerpts.length).toBeGreaterThanOrEqual(3);
  for (const block of excerpts) {
    await t.step(where(block), async () => {
      const [first, ...rest] = block.text.split("\n");
      await using out = await tempDir();
      const args = first.slice("# excerpt of: chant-wave ".length).split(" ");
      const render = await runBinary([...args, "--out", out.path], {
        cwd: ROOT,
      });
      expect(render.code).toBe(0);
      const rendered: string[] = [];
      for (const dir of [".github/workflows", ".forgejo/workflows", "."]) {
        const entries = await Array.fromAsync(
          Deno.readDir(`${out.path}/${dir}`),
        )
          .catch(() => []);
        for (const entry of entries.filter((e) => e.name.endsWith(".yml"))) {
          rendered.push(
            await Deno.readTextFile(`${out.path}/${dir}/${entry.name}`),
          );
        }
      }
      expect(rendered.some((text) => holdsExcerpt(text, rest))).toBe(true);
    });
  }
});

Deno.test("every link stays in the repository and resolves, anchors included", async () => {
  const problems: string[] = [];
  for (const file of FILES) {
    for (const target of linkTargets(TEXTS[file])) {
      if (
        /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/") ||
        target.startsWith("//")
      ) {
        problems.push(`${file}: ${target} leaves the repository`);
        continue;
      }
      const [path, anchor] = target.split("#");
      const resolved = path === ""
        ? ROOT + file
        : new URL(path, `file://${ROOT}${file}`).pathname;
      if (!resolved.startsWith(ROOT)) {
        problems.push(`${file}: ${target} leaves the repository`);
        continue;
      }
      const text = await Deno.readTextFile(resolved).catch(() => undefined);
      if (text === undefined) problems.push(`${file}: ${target}: no such file`);
      else if (anchor !== undefined && !headingAnchors(text).has(anchor)) {
        problems.push(`${file}: ${target}: no heading with that anchor`);
      }
    }
  }
  expect(problems).toEqual([]);
});

Deno.test("the README is short and keeps its sections in a newcomer's order", () => {
  const readme = TEXTS["README.md"];
  expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map(([, h]) => h);
  expect(headings).toEqual([
    "Two commands",
    "Adopt it in ten minutes",
    "Adopt it on GitLab",
    "Commands",
    "Exit codes",
    "Documentation",
  ]);
  expect(readme).not.toContain("SPEC.md");
});

Deno.test("docs/spec.md names every field of a spec, a wave and a job group; file formats every record kind", () => {
  const spec = TEXTS["docs/spec.md"];
  const fields = [specSchema, waveSchema, jobGroupSchema]
    .flatMap((schema) => Object.keys(schema.shape));
  expect(fields.filter((field) => !spec.includes(`\`${field}\``))).toEqual([]);
  const formats = TEXTS["docs/file-formats.md"];
  expect(RECORD_KINDS.filter((kind) => !formats.includes(`| \`${kind}\``)))
    .toEqual([]);
});
