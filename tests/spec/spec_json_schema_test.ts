// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
// @ts-types="../../types/std/jsonc.d.ts"
import { parse } from "@std/jsonc";
// A dev-only JSON Schema validator, for this test only.
import { Ajv2020 } from "ajv/dist/2020.js";
import { specJsonSchema } from "../../src/spec/spec_json_schema.ts";
import { SCHEMA_FILE, schemaFileText } from "../../scripts/write_schema.ts";

const EXAMPLE = new URL("../../examples/waves.jsonc", import.meta.url);

function validator(): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile(specJsonSchema());
}

Deno.test("specJsonSchema() matches the committed examples/waves.schema.json", async () => {
  // Regenerate with: deno run --allow-write scripts/write_schema.ts
  expect(await Deno.readTextFile(SCHEMA_FILE)).toBe(schemaFileText());
});

Deno.test("specJsonSchema() is draft 2020-12 and allows the $schema key", () => {
  const schema = specJsonSchema();
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(schema).toHaveProperty(["$defs", "Spec", "properties", "$schema"]);
  expect(schema).toHaveProperty(
    ["$defs", "Spec", "additionalProperties"],
    false,
  );
});

Deno.test("specJsonSchema() validates spec files", async (t) => {
  const validate = validator();
  const minimal = {
    name: "demo",
    plan: ["p", "{plan}"],
    apply: ["a"],
    waves: [{ name: "dev", runs: ["a", { target: "b", op: "x" }] }],
  };
  const cases: { name: string; value: unknown; valid: boolean }[] = [
    {
      name: "the bundled example",
      value: parse(await Deno.readTextFile(EXAMPLE)),
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
