// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { Document, parse, visit } from "yaml";
import { AMBIGUOUS, toYaml } from "../../src/pipeline/_yaml.ts";
import { renderPipeline } from "../../src/pipeline/render_pipeline.ts";
import { FORGES } from "../../src/pipeline/rendered_file.ts";
import { fixture } from "./_fixtures.ts";

/** The library's own rendering of a whole document, with the same quoting rule. */
function libraryYaml(value: unknown, plainTop: string[] = []): string {
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(key, node, path) {
      if (typeof node.value !== "string" || !AMBIGUOUS.test(node.value)) return;
      if (key === "key" && path.length === 3 && plainTop.includes(node.value)) {
        return;
      }
      node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString({ lineWidth: 0 });
}

const HOSTILE = [
  "plain words",
  "yes",
  "No",
  "on",
  "0",
  "0o17",
  "1_000",
  "2001-01-01",
  ".5",
  "-1",
  "+1",
  ".inf",
  "~",
  "null",
  "",
  " leading space",
  "trailing space ",
  "a: b",
  "a #b",
  "#comment",
  "- dash",
  "-dash",
  "*star",
  "&amp",
  "!bang",
  "%pct",
  "@at",
  "`tick",
  "'single'",
  '"double"',
  "{brace}",
  "[bracket]",
  "a,b",
  "tab\there",
  "multi\nline",
  "multi\nline\n",
  "\nleading newline",
  "  indented\nsecond",
  "line\n  indented second",
  "trailing \nspaces",
  "unicode é ✓",
  "control \u0007",
  "--- doc",
  "...",
  "key: value\nother: x",
  "${{ github.token }}",
  '$CI_COMMIT_BRANCH == "main"',
  "always()",
  "echo 'hi' && exit 3",
  "${{ needs.decide.outputs.digest }}",
  "${{ x }}: y",
  "$x #y",
  "$x#y",
  "a:b",
  "a :b",
  "a:",
  "a ",
  "/usr/bin/env x",
  "(cd x && y)",
  "export PATH=$PWD/bin:$PATH",
  "x\ty",
  "$yes",
  "Yes",
  "_",
  "$",
  "(",
  "/",
  "a'b\"c",
  "a\\b",
  "a}",
  "a]",
  "a%",
  "a--- b",
  "a ... b",
];

Deno.test("toYaml() writes what the yaml library writes for the whole document", async (t) => {
  await t.step("hostile strings as values, keys and list items", () => {
    const value = {
      map: Object.fromEntries(HOSTILE.map((text, i) => [`k${i}`, text])),
      keys: Object.fromEntries(HOSTILE.map((text, i) => [text || "empty", i])),
      list: HOSTILE,
      nested: [{ a: HOSTILE.slice(30), b: { c: [] as string[], d: {} } }, []],
      numbers: [0, 1.5, -2, true, false],
    };
    const text = toYaml(value, ["h"]);
    expect(text).toBe(`# h\n\n${libraryYaml(value)}`);
    expect(parse(text)).toEqual(value);
  });
  for (const name of ["example", "portable", "github_only"] as const) {
    await t.step(`every forge's file for ${name}`, async () => {
      const f = await fixture(name);
      for (const forge of FORGES) {
        if (name === "github_only" && forge !== "github") continue;
        const [file] = renderPipeline(forge, f.spec, f.jobs, f.specFile);
        const body = file.text.slice(file.text.indexOf("\n\n") + 2);
        const value = parse(body);
        expect(body.replaceAll("\n\n", "\n")).toBe(
          libraryYaml(value, forge === "gitlab" ? [] : ["on"]),
        );
      }
    });
  }
});

Deno.test("toYaml() quotes what a YAML 1.1 or 1.2 reader would not read as a string", () => {
  const text = toYaml(
    { v: ["yes", "Y", "off", "0o17", "012", "1:30", "ok"] },
    [],
  );
  expect(text).toBe(
    'v:\n  - "yes"\n  - "Y"\n  - "off"\n  - "0o17"\n  - "012"\n  - "1:30"\n  - ok\n',
  );
});

Deno.test("toYaml() spaces out the entries of the named map", () => {
  expect(toYaml({ a: { p: 1, q: 2 }, b: 3 }, ["c"], { spacedMap: ["a"] }))
    .toBe("# c\n\na:\n  p: 1\n\n  q: 2\nb: 3\n");
  expect(toYaml({ a: 1, b: 2 }, ["c"], { spacedMap: [] }))
    .toBe("# c\n\na: 1\n\nb: 2\n");
});
