// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { canonicalJson } from "../../src/tofu/_canonical_json.ts";
import {
  MAX_PLAN_DOCUMENT,
  readPlanDocument,
} from "../../src/tofu/_plan_document.ts";

Deno.test("readPlanDocument() cuts each change down to what the digest covers", () => {
  const document = readPlanDocument(JSON.stringify({
    format_version: "1.2",
    timestamp: "2025-01-01T00:00:00Z",
    planned_values: {},
    resource_changes: [
      {
        address: "b.x",
        mode: "managed",
        type: "b",
        name: "x",
        provider_name: "registry.opentofu.org/hashicorp/b",
        deposed: "00000002",
        change: {
          actions: ["delete"],
          before: { id: "1" },
          after: null,
          generated_config: "resource ...",
        },
      },
      {
        address: "a.y",
        previous_address: "a.z",
        action_reason: "replace_by_request",
        change: {
          actions: ["create", "delete"],
          before: {},
          after: {},
          replace_paths: [["name"]],
          importing: { id: "i-1" },
          before_identity: { id: "i-1" },
        },
      },
    ],
    output_changes: {
      z: { actions: ["no-op"], before: 1, after: 1, after_unknown: false },
      a: { actions: ["create"], after: "x", importing: null },
    },
  }));
  expect(document.resources.map((r) => r.address)).toEqual(["a.y", "b.x"]);
  expect(document.resources.map((r) => canonicalJson(r.covered))).toEqual([
    '{"action_reason":"replace_by_request","address":"a.y","change":{' +
    '"actions":["create","delete"],"after":{},"before":{},' +
    '"importing":{"id":"i-1"},"replace_paths":[["name"]]},' +
    '"previous_address":"a.z"}',
    '{"address":"b.x","change":{"actions":["delete"],"after":null,' +
    '"before":{"id":"1"}},"deposed":"00000002"}',
  ]);
  expect(document.resources[0]).toMatchObject({
    reason: "replace_by_request",
    previousAddress: "a.z",
    importing: true,
  });
  expect(document.outputs.map((o) => [o.name, canonicalJson(o.covered)]))
    .toEqual([
      ["a", '{"actions":["create"],"after":"x","importing":null}'],
      ["z", '{"actions":["no-op"],"after":1,"after_unknown":false,"before":1}'],
    ]);
});

Deno.test("readPlanDocument() reads at most 64 MiB", () => {
  expect(() => readPlanDocument(" ".repeat(MAX_PLAN_DOCUMENT + 1))).toThrow(
    "is larger than 64 MiB",
  );
});

Deno.test("readPlanDocument() checks the types of the fields it uses", async (t) => {
  const plan = (change: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      format_version: "1.2",
      resource_changes: [{ address: "a.b", change, ...extra }],
    });
  const cases: [string, string, string][] = [
    ["no change", plan(undefined), 'resource_changes[0] "a.b" has no "change"'],
    [
      "empty actions",
      plan({ actions: [] }),
      'resource_changes[0] "a.b": "actions" is not a list of actions',
    ],
    [
      "an action reason that is not a string",
      plan({ actions: ["delete"] }, { action_reason: 3 }),
      'resource_changes[0] "a.b": "action_reason" is not a string',
    ],
    [
      "importing that is not an object",
      plan({ actions: ["no-op"], importing: "yes" }),
      'resource_changes[0] "a.b": "importing" is not an object',
    ],
    [
      "a format version that is not one",
      JSON.stringify({ format_version: 1, resource_changes: [] }),
      '"format_version" is not a version like "1.2"',
    ],
    [
      "output_changes that is a list",
      JSON.stringify({
        format_version: "1.0",
        planned_values: {},
        output_changes: [],
      }),
      '"output_changes" is not an object',
    ],
    [
      "action_invocations that is not a list",
      JSON.stringify({
        format_version: "1.2",
        planned_values: {},
        action_invocations: {},
      }),
      '"action_invocations" is not a list of objects',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(
      name,
      () => expect(() => readPlanDocument(text)).toThrow(message),
    );
  }
});
