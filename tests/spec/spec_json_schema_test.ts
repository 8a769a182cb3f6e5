// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
// @ts-types="../../types/std/jsonc.d.ts"
import { parse } from "@std/jsonc";
// A dev-only JSON Schema validator, for this test only.
import { Ajv2020 } from "ajv/dist/2020.js";
import { specJsonSchema } from "../../src/spec/spec_schema.ts";
import { SCHEMA_FILE, schemaFileText } from "../../scripts/write_schema.ts";

const EXAMPLE = new URL("../../examples/waves.jsonc", import.meta.url);
const TENANTS = new URL(
  "../../examples/tenants/waves.jsonc",
  import.meta.url,
);

function validator(): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile(specJsonSchema());
}

const MINIMAL = {
  name: "demo",
  plan: ["p", "{plan}"],
  apply: ["a"],
  waves: [{ name: "dev", runs: ["a", { target: "b", op: "x" }] }],
};

/** Every `properties` entry of a schema tree, with its path. */
function propertiesOf(
  node: unknown,
  path: string,
): { path: string; schema: Record<string, unknown> }[] {
  if (typeof node !== "object" || node === null) return [];
  if (Array.isArray(node)) {
    return node.flatMap((item, i) => propertiesOf(item, `${path}/${i}`));
  }
  const found: { path: string; schema: Record<string, unknown> }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const [name, schema] of Object.entries(value)) {
        found.push({
          path: `${path}/properties/${name}`,
          schema: schema as Record<string, unknown>,
        });
      }
    }
    found.push(...propertiesOf(value, `${path}/${key}`));
  }
  return found;
}

/** The errors ajv reports for a value, as `<instancePath> <message>`. */
function errorsOf(value: unknown): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(specJsonSchema());
  validate(value);
  return (validate.errors ?? []).map((error) =>
    `${error.instancePath} ${error.message}`
  );
}

Deno.test("specJsonSchema() matches the committed examples/waves.schema.json", async () => {
  // Regenerate with: deno run --allow-write scripts/write_schema.ts
  expect(await Deno.readTextFile(SCHEMA_FILE)).toBe(schemaFileText());
});

Deno.test("specJsonSchema() is draft 2020-12 and allows the $schema key", () => {
  const schema = specJsonSchema();
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(schema).toHaveProperty(["$defs", "Spec", "properties", "$schema"]);
  expect(schema).toHaveProperty([
    "$defs",
    "WrappedSpec",
    "properties",
    "$schema",
  ]);
  expect(schema).toHaveProperty(
    ["$defs", "Spec", "additionalProperties"],
    false,
  );
});

Deno.test("specJsonSchema() describes every field", () => {
  const fields = propertiesOf(specJsonSchema(), "#");
  expect(fields.length).toBeGreaterThan(60);
  const undescribed = fields
    .filter(({ schema }) =>
      typeof schema.description !== "string" || schema.description === ""
    )
    .map(({ path }) => path);
  expect(undescribed).toEqual([]);
});

Deno.test("specJsonSchema() picks the plain spec or the wrapper without a root anyOf", () => {
  const schema = specJsonSchema();
  expect(schema.anyOf).toBeUndefined();
  expect(schema.oneOf).toBeUndefined();
  expect(schema.then).toEqual({ $ref: "#/$defs/WrappedSpec" });
  expect(schema.else).toEqual({ $ref: "#/$defs/Spec" });
});

Deno.test("specJsonSchema() lets ajv report a mistyped field at its own path", async (t) => {
  await t.step("a wave's gate", () => {
    const errors = errorsOf({
      ...MINIMAL,
      waves: [{ name: "dev", runs: ["a"], gate: "sometimes" }],
    });
    expect(errors).toContain(
      "/waves/0/gate must be equal to one of the allowed values",
    );
    expect(errors.filter((error) => error.startsWith("/waves "))).toEqual([]);
    expect(errors.some((error) => /anyOf|oneOf/.test(error))).toBe(false);
  });
  await t.step("a top-level number", () => {
    const errors = errorsOf({ ...MINIMAL, parallel: "two" });
    expect(errors).toContain("/parallel must be integer");
    expect(errors).not.toContain("/waves must be object");
  });
  await t.step("an unknown key", () => {
    expect(errorsOf({ ...MINIMAL, share: 1 })).toContain(
      " must NOT have additional properties",
    );
  });
  await t.step("inside the compatibility wrapper", () => {
    const errors = errorsOf({ waves: { ...MINIMAL, parallel: "two" } });
    expect(errors).toContain("/waves/parallel must be integer");
    expect(errors).not.toContain("/waves must be array");
  });
});

Deno.test("specJsonSchema() validates spec files", async (t) => {
  const validate = validator();
  const minimal = MINIMAL;
  const cases: { name: string; value: unknown; valid: boolean }[] = [
    {
      name: "the bundled example",
      value: parse(await Deno.readTextFile(EXAMPLE)),
      valid: true,
    },
    {
      name: "examples/tenants/waves.jsonc (sqitch)",
      value: parse(await Deno.readTextFile(TENANTS)),
      valid: true,
    },
    { name: "a minimal spec", value: minimal, valid: true },
    {
      name: "the compatibility wrapper",
      value: {
        $schema: "./s.json",
        waves: minimal,
        options: { image: "alpine" },
      },
      valid: true,
    },
    {
      name: "every field",
      value: {
        ...minimal,
        op: "o",
        gate: "g",
        base: "HEAD~1",
        planWave: ["p", "{runs}"],
        applyWave: ["a", "{runs}"],
        parallel: 2,
        onFailure: "stop",
        timeout: "1h30m",
        heartbeat: 0,
        pendingTtl: "48h",
        branches: ["main"],
        runner: { group: "g", labels: ["l"] },
        notify: { webhook: "HOOK", key: "KEY" },
        pipeline: {
          image: "i",
          setup: [{ run: "x" }, { uses: "u", with: { a: 1 } }],
          variables: { A: "b" },
          install: "x",
        },
        waves: [{
          name: "w",
          runs: [],
          gate: "never",
          jobs: [{
            name: "j",
            runs: ["*"],
            shares: 2,
            runner: ["a"],
            environment: { name: "e" },
            idTokens: { T: "aud" },
          }],
          parallel: 1,
          onFailure: "continue",
          timeout: "5m",
          environment: { name: "e", url: "https://x" },
          variables: { A: "1" },
          runner: "r",
          idTokens: { T: "aud" },
          discover: true,
        }],
      },
      valid: true,
    },
    {
      name: "the tool shorthand",
      value: {
        name: "tf",
        tool: {
          kind: "opentofu",
          dir: "live/{target}",
          binary: "tofu",
          args: ["-lock-timeout=5m"],
        },
        waves: minimal.waves,
      },
      valid: true,
    },
    {
      name: "a tool of another kind",
      value: { ...minimal, tool: { kind: "pulumi", dir: "." } },
      valid: false,
    },
    {
      name: "a tool without a dir",
      value: { ...minimal, tool: { kind: "terraform" } },
      valid: false,
    },
    { name: "an unknown key", value: { ...minimal, share: 1 }, valid: false },
    { name: "a bad name", value: { ...minimal, name: "Demo" }, valid: false },
    {
      name: "a bad duration",
      value: { ...minimal, timeout: "5x" },
      valid: false,
    },
    {
      name: "a bad gate",
      value: { ...minimal, waves: [{ name: "d", runs: [], gate: "x" }] },
      valid: false,
    },
    {
      name: "a literal URL in notify",
      value: { ...minimal, notify: { webhook: "https://x" } },
      valid: false,
    },
    { name: "no waves", value: { ...minimal, waves: [] }, valid: false },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(validate(c.value)).toBe(c.valid));
  }
});
