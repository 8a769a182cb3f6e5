// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { SpecError } from "../../src/errors.ts";
import { parseSpec, tooDeepAt } from "../../src/spec/parse_spec.ts";
import { lines, problemsOf, wavesSpec } from "./_helpers.ts";

const EXAMPLE = new URL("../../examples/waves.jsonc", import.meta.url);

Deno.test("parseSpec() parses the bundled example", async () => {
  const spec = parseSpec(
    await Deno.readTextFile(EXAMPLE),
    "examples/waves.jsonc",
  );
  expect(spec.name).toBe("demo");
  expect(spec.heartbeatMs).toBe(30_000);
  expect(
    spec.waves.map((
      wave,
    ) => [wave.k, wave.name, wave.gate, wave.shares, wave.parallel]),
  )
    .toEqual([
      [1, "dev", "never", 1, 2],
      [2, "staging", "always", 2, 2],
      [3, "prod", "on-destructive", 1, 2],
    ]);
  expect(spec.waves[2].environment).toEqual({ name: "production" });
});

Deno.test("parseSpec() reports JSONC syntax errors with line and column", async (t) => {
  const cases: { name: string; text: string; want: string[] }[] = [
    {
      name: "a missing value",
      text: lines(
        "{",
        '  "name": "demo",',
        "  // a comment",
        '  "plan": ,',
        "}",
      ),
      want: ['w.jsonc:4:11: invalid JSONC: unexpected token ","'],
    },
    {
      name: "a missing colon",
      text: lines("{", '  "name" "demo"', "}"),
      want: ['w.jsonc:2:10: invalid JSONC: unexpected string "demo"'],
    },
    {
      name: "text after the value",
      text: lines("{}", "}"),
      want: ['w.jsonc:2:1: invalid JSONC: unexpected token "}"'],
    },
    {
      name: "the end of the text",
      text: lines("{", '  "name": "demo",'),
      want: ["w.jsonc:2:18: invalid JSONC: unexpected end of input"],
    },
    {
      name: "an empty file",
      text: "",
      want: ["w.jsonc:1:1: invalid JSONC: unexpected end of input"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(problemsOf(c.text)).toEqual(c.want));
  }
});

Deno.test("parseSpec() accepts comments, trailing commas, a BOM and CRLF", () => {
  const text = "\ufeff" + lines(
    "// header",
    "{",
    '  "name": "demo", /* inline */',
    '  "plan": ["p", "{plan}",],',
    '  "apply": ["a",],',
    '  "waves": [{ "name": "dev", "runs": ["a",], },],',
    "}",
  ).replaceAll("\n", "\r\n");
  expect(parseSpec(text, "w.jsonc").waves[0].runs).toEqual([{
    target: "a",
    op: "demo",
  }]);
  const bad = text.replace('"runs": ["a",]', '"runs": ["a", "a"]');
  expect(problemsOf(bad)).toEqual([
    'w.jsonc:6:44: wave 1 "dev" runs[1]: target "a" appears twice',
  ]);
});

Deno.test("parseSpec() reads plain JSON as its JSONC twin, repeated and __proto__ keys alike", () => {
  const json = lines(
    "{",
    '  "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"],',
    '  "waves": [{ "name": "dev", "runs": ["a", "b"], "name": "dev2" }],',
    '  "__proto__": { "polluted": true }',
    "}",
  );
  const jsonc = json.replace("{", "{ // a comment").replace(
    '"runs": ["a", "b"]',
    '"runs": ["a", "b",]',
  );
  // Both parsers make the same document: a repeated key's last value, and
  // "__proto__" an own key (which the schema then refuses as unknown).
  expect(problemsOf(json)).toEqual(problemsOf(jsonc));
  expect(problemsOf(json).join("\n")).toContain("__proto__");
  const fine = json.replace(',\n  "__proto__": { "polluted": true }', "");
  expect(parseSpec(fine, "w.json").waves.map((w) => w.name)).toEqual(["dev2"]);
  expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
});

Deno.test("parseSpec() reads the compatibility wrapper", async (t) => {
  const wrapper = (inner: string, options = "") =>
    lines(
      "{",
      '  "waves": {',
      '    "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"],',
      `    "waves": [${inner}]`,
      "  }" + (options ? "," : ""),
      ...(options ? [`  "options": ${options}`] : []),
      "}",
    );
  await t.step("a valid one", () => {
    const spec = parseSpec(
      wrapper('{ "name": "dev", "runs": ["a"] }', '{ "image": "alpine" }'),
      "w.jsonc",
    );
    expect(spec.pipeline).toEqual({
      image: "alpine",
      setup: [],
      variables: {},
    });
  });
  await t.step(
    "problems are named as in a plain spec and located in the file",
    () => {
      expect(
        problemsOf(
          wrapper('{ "name": "dev", "runs": ["a", "a"], "share": 1 }'),
        ),
      ).toEqual([
        'w.jsonc:4:46: wave 1 "dev" runs[1]: target "a" appears twice',
        'w.jsonc:4:52: wave 1 "dev": unknown field "share"; did you mean "shares"?',
      ]);
    },
  );
  await t.step("problems of options and of the wrapper itself", () => {
    const text = lines(
      "{",
      '  "waves": { "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"], "waves": [{ "name": "dev", "runs": ["a"] }], "pipeline": {} },',
      '  "options": { "imag": "x" },',
      '  "option": 1',
      "}",
    );
    expect(problemsOf(text)).toEqual([
      'w.jsonc:3:3: options: "options" and "waves.pipeline" both set the pipeline: keep one',
      'w.jsonc:3:16: options: unknown field "imag"; did you mean "image"?',
      'w.jsonc:4:3: unknown field "option"',
    ]);
  });
  await t.step("a plain spec whose waves is a list is not a wrapper", () => {
    expect(problemsOf(lines("{", '  "waves": [],', '  "options": {}', "}")))
      .toEqual([
        'w.jsonc:1:1: missing field "name"',
        'w.jsonc:1:1: missing field "plan" (needed unless "planWave" or "tool" is set)',
        'w.jsonc:1:1: missing field "apply" (needed unless "applyWave" or "tool" is set)',
        "w.jsonc:2:12: waves: a spec needs at least one wave",
        'w.jsonc:3:3: unknown field "options"',
      ]);
  });
});

Deno.test("parseSpec() reports every problem, in file order", () => {
  const text = lines(
    "{",
    '  "name": "Demo",',
    '  "plan": ["p", "{target}"],',
    '  "timeout": "5x",',
    '  "notify": { "webhook": "https://hooks.example.com/x" },',
    '  "waves": [',
    '    { "name": "dev", "share": 2, "runs": ["a", "a"] },',
    '    { "name": "dev", "runs": [], "gate": "sometimes" },',
    '    { "name": "prod", "runs": ["x"], "jobs": [{ "name": "decide", "runs": ["y"] }] }',
    "  ]",
    "}",
  );
  const error = (() => {
    try {
      parseSpec(text, "waves.jsonc");
    } catch (error) {
      return error;
    }
  })();
  expect(error).toBeInstanceOf(SpecError);
  const lines_ = [
    (error as SpecError).message,
    ...(error as SpecError).details,
  ];
  expect(lines_).toEqual([
    'waves.jsonc:1:1: missing field "apply" (needed unless "applyWave" or "tool" is set)',
    'waves.jsonc:2:11: name: invalid name "Demo": use lowercase letters, digits, "-" and "_", starting with a letter or digit',
    'waves.jsonc:3:11: plan: the plan command must mention "{plan}", the file it writes',
    'waves.jsonc:4:14: timeout: invalid duration "5x": use a form like "90s", "15m", "2h" or "1h30m", or 0',
    "waves.jsonc:5:26: notify.webhook: a literal URL is not allowed here: name the environment variable that holds it instead",
    'waves.jsonc:7:22: wave 1 "dev": unknown field "share"; did you mean "shares"?',
    'waves.jsonc:7:48: wave 1 "dev" runs[1]: target "a" appears twice',
    'waves.jsonc:8:15: wave 2 "dev": wave name "dev" appears twice (also wave 1)',
    'waves.jsonc:8:30: wave 2 "dev" runs: a wave needs at least one run, unless "discover" is true',
    'waves.jsonc:8:42: wave 2 "dev" gate: invalid value "sometimes": expected "always", "on-destructive" or "never"',
    'waves.jsonc:9:32: wave 3 "prod" runs[0]: target "x" matches no group of "jobs"',
    'waves.jsonc:9:57: wave 3 "prod" jobs[0] "decide": group name "decide" is taken by the deciding job',
  ]);
  expect((error as SpecError).exitCode).toBe(2);
});

Deno.test("parseSpec() parses a spec of 5,000 runs in 50 waves", () => {
  const waves = Array.from({ length: 50 }, (_, w) => ({
    name: `wave-${w}`,
    runs: Array.from(
      { length: 100 },
      (_, r) => `live/region-${r % 10}/tenant-${w}-${r}`,
    ),
    jobs: Array.from({ length: 10 }, (_, g) => ({
      name: `region-${g}`,
      runs: [`live/region-${g}/**`],
      shares: 2,
    })),
  }));
  const text = JSON.stringify(
    { name: "big", plan: ["p", "{plan}"], apply: ["a"], waves },
    null,
    2,
  );
  const spec = parseSpec(text, "big.json");
  expect(spec.waves).toHaveLength(50);
  expect(spec.waves.reduce((sum, wave) => sum + wave.runs.length, 0)).toBe(
    5_000,
  );
  const broken = text.replace(
    '"live/region-3/tenant-49-93"',
    '"live/region-3/tenant-49-3"',
  );
  const problems = problemsOf(broken, "big.json");
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(
    /^big\.json:\d+:\d+: wave 50 "wave-49" runs\[93\]: target "live\/region-3\/tenant-49-3" appears twice$/,
  );
});

Deno.test("parseSpec() uses the file name it is given", () => {
  expect(
    problemsOf(
      wavesSpec('    { "name": "dev", "runs": [] }'),
      "deploy/waves.json",
    ),
  ).toEqual([
    'deploy/waves.json:6:30: wave 1 "dev" runs: a wave needs at least one run, unless "discover" is true',
  ]);
});

Deno.test('parseSpec() reads approval "pr-review" as "forge", at the top level and on a wave', () => {
  const spec = parseSpec(
    JSON.stringify({
      name: "demo",
      approval: "pr-review",
      plan: ["p", "{plan}"],
      apply: ["a"],
      waves: [
        { name: "dev", runs: ["a"] },
        { name: "prod", runs: ["b"], approval: "pr-review" },
        { name: "edge", runs: ["c"], approval: "forge" },
        { name: "vault", runs: ["d"], approval: "sealed" },
      ],
    }),
    "w.json",
  );
  expect(spec.approval).toBe("forge");
  expect(spec.waves.map((wave) => wave.approval)).toEqual([
    "forge",
    "forge",
    "forge",
    "sealed",
  ]);
});

Deno.test("tooDeepAt() finds the first bracket past the bound, skipping strings and comments", () => {
  expect(tooDeepAt("[[1]]", 2)).toBeUndefined();
  expect(tooDeepAt("[[1]]", 1)).toBe(1);
  expect(tooDeepAt('{"a": "[[[[", "b": "\\"[["}', 1)).toBeUndefined();
  expect(tooDeepAt("// [[[\n/* {{{ */ [1]", 1)).toBeUndefined();
  expect(tooDeepAt("[".repeat(100_000), 64)).toBe(64);
});
