// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import { tofuPlanFile } from "../../src/tofu/tofu_plan_file.ts";

const PLANS = new URL("../fixtures/terraform-plans/", import.meta.url);

function planText(name: string): string {
  return Deno.readTextFileSync(new URL(name, PLANS));
}

// deno-lint-ignore no-explicit-any
type Doc = any;

function planDoc(name: string): Doc {
  return JSON.parse(planText(name));
}

function digestOf(doc: Doc): string {
  return tofuPlanFile(JSON.stringify(doc)).planDigest;
}

function sha256(text: string): string {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

Deno.test("tofuPlanFile() reads the real plan documents of Terraform 0.12 to 1.15", async (t) => {
  // Digests were computed twice: by this module, and by a separate Python
  // script (json.dumps(sort_keys=True, separators=(",", ":")) of the same cut-down
  // document); two of them are worked out in full in the next test.
  const cases = [
    {
      // 0.12 lists every output as "create" even when nothing changed, so
      // the document is not empty: 8 outputs would be written.
      file: "no_changes.json",
      digest:
        "sha256:6e2f0f490b8425e3fa12ab73b26a78cfabf21366df09c161e082d96bc80ba271",
      destructive: false,
      empty: false,
      summary: "0 to add, 0 to change, 0 to destroy, 8 outputs to change",
    },
    {
      // One resource, actions ["no-op"], but "previous_address" is set: the
      // apply moves it in state, so the plan is not empty.
      file: "moved_block.json",
      digest:
        "sha256:4bbac6ac7d8c13710abbeba050de86569c57ab8f6afb7887eb7c8fa5a092fada",
      destructive: false,
      empty: false,
      summary: "0 to add, 0 to change, 0 to destroy, 1 to move",
    },
    {
      // 7 resources with ["create"] (module.foo's 2, bar, baz[0..2], foo) and
      // 8 outputs with ["create"].
      file: "120_basic.json",
      digest:
        "sha256:408e451031d3eefc95804590569ea5fd1fb44d9d3c58a43443a9fc220b372ebd",
      destructive: false,
      empty: false,
      summary: "7 to add, 0 to change, 0 to destroy, 8 outputs to change",
    },
    {
      // The same changes as 120_basic.json, written by 1.1.0-dev with format
      // 0.2 and without relevant_attributes: the same digest.
      file: "110_sensitive_values.json",
      digest:
        "sha256:408e451031d3eefc95804590569ea5fd1fb44d9d3c58a43443a9fc220b372ebd",
      destructive: false,
      empty: false,
      summary: "7 to add, 0 to change, 0 to destroy, 8 outputs to change",
    },
    {
      file: "deep_module.json",
      digest:
        "sha256:baa8a6137eec62c6f298c9985a258a5d7495ee4980c011da20e28ce014f7d40d",
      destructive: false,
      empty: false,
      summary: "1 to add, 0 to change, 0 to destroy",
    },
    {
      file: "explicit_null.json",
      digest:
        "sha256:a7ff8e7ce17c96811fb1de0da3a9e11e79a773bb81ba53854c33c363ff374ce4",
      destructive: false,
      empty: false,
      summary: "3 to add, 0 to change, 0 to destroy",
    },
    {
      // Two local_file instances with ["create"]; the check results are not
      // part of what the apply does.
      file: "has_checks.json",
      digest:
        "sha256:2b182b3a8da6d758e48c2f0ae5613f1099af978c9b0729ddd01ee11a07692c89",
      destructive: false,
      empty: false,
      summary: "2 to add, 0 to change, 0 to destroy",
    },
    {
      // ["update"] plus "importing": one to change, one to import.
      file: "identity.json",
      digest:
        "sha256:4d95c16e614ac4acc0277f25c38246b8e4197cc53a34d17a630a440c185fc166",
      destructive: false,
      empty: false,
      summary: "0 to add, 1 to change, 0 to destroy, 1 to import",
    },
    {
      // ["delete", "create"] with action_reason replace_because_tainted: a
      // replace counts one to add and one to destroy, as tofu's own Plan: line.
      file: "action_reason.json",
      digest:
        "sha256:824b2271a2357a10f3e8c0355853ab3075965b30a935761e50553cc1125d7c5a",
      destructive: true,
      empty: false,
      summary:
        "1 to add, 0 to change, 1 to destroy (replace null_resource.example: tainted)",
    },
    {
      // No resource_changes at all (Terraform leaves the key out when there are
      // none), one action invocation: the apply invokes it, so not empty.
      file: "actions.json",
      digest:
        "sha256:305d54f76ff3215e6f0babf758614c96376c94faa6ade3bf5525b260fdd9cf28",
      destructive: false,
      empty: false,
      summary: "0 to add, 0 to change, 0 to destroy, 1 action to invoke",
    },
  ];
  for (const c of cases) {
    await t.step(c.file, () => {
      expect(tofuPlanFile(planText(c.file))).toMatchObject({
        planDigest: c.digest,
        destructive: c.destructive,
        empty: c.empty,
        summary: c.summary,
      });
    });
  }
});

Deno.test("tofuPlanFile() digests exactly the cut-down canonical document", async (t) => {
  await t.step("action_reason.json, worked out by hand", () => {
    // From the document: one resource change; keep address and action_reason
    // (no deposed, no previous_address) and of "change" every covered field it
    // has (no replace_paths, no importing); no output_changes; keys sorted at
    // every level; drop planned_values, prior_state, configuration, timestamp.
    const canonical = '{"output_changes":{},"resource_changes":[{' +
      '"action_reason":"replace_because_tainted",' +
      '"address":"null_resource.example",' +
      '"change":{"actions":["delete","create"],' +
      '"after":{"triggers":{"name":"demo"}},' +
      '"after_sensitive":{"triggers":{}},' +
      '"after_unknown":{"id":true,"triggers":{}},' +
      '"before":{"id":"8868159889619753631","triggers":{"name":"demo"}},' +
      '"before_sensitive":{"triggers":{}}}}]}';
    expect(tofuPlanFile(planText("action_reason.json")).planDigest).toBe(
      sha256(canonical),
    );
  });
  await t.step("deep_module.json, worked out by hand", () => {
    // Format 0.1 has no sensitive markers; module_address, mode, type, name
    // and provider_name are left out (the address holds them).
    const canonical = '{"output_changes":{},"resource_changes":[{' +
      '"address":"module.foo.module.bar.null_resource.baz",' +
      '"change":{"actions":["create"],"after":{"triggers":null},' +
      '"after_unknown":{"id":true},"before":null}}]}';
    expect(tofuPlanFile(planText("deep_module.json")).planDigest).toBe(
      sha256(canonical),
    );
  });
});

Deno.test("tofuPlanFile() keeps the digest when only the plan's circumstances change", async (t) => {
  const cases: { name: string; file: string; edit: (doc: Doc) => void }[] = [
    {
      name: "another timestamp",
      file: "action_reason.json",
      edit: (doc) => doc.timestamp = "2026-06-17T08:00:00Z",
    },
    {
      name: "another terraform_version",
      file: "action_reason.json",
      edit: (doc) => doc.terraform_version = "1.15.1",
    },
    {
      name: "another prior_state serial and version",
      file: "moved_block.json",
      edit: (doc) => {
        doc.prior_state.serial = 42;
        doc.prior_state.terraform_version = "1.5.4";
      },
    },
    {
      name: "no timestamp at all",
      file: "has_checks.json",
      edit: (doc) => delete doc.timestamp,
    },
    {
      name: "other configuration, planned_values, variables and checks",
      file: "explicit_null.json",
      edit: (doc) => {
        doc.configuration = {};
        doc.planned_values = { root_module: {} };
        doc.variables = { one: { value: "three" } };
        doc.checks = [];
      },
    },
    {
      name: "resource_changes in another order",
      file: "120_basic.json",
      edit: (doc) => doc.resource_changes.reverse(),
    },
    {
      name: "another provider_name (0.12's short form)",
      file: "120_basic.json",
      edit: (doc) => {
        for (const change of doc.resource_changes) {
          change.provider_name = "null";
        }
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const doc = planDoc(c.file);
      const before = digestOf(doc);
      c.edit(doc);
      expect(digestOf(doc)).toBe(before);
    });
  }
  await t.step("other whitespace and key order", () => {
    const doc = planDoc("identity.json");
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : typeof value === "object" && value !== null
        ? Object.fromEntries(
          Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]),
        )
        : value;
    expect(tofuPlanFile(JSON.stringify(reversed(doc), null, 3)).planDigest)
      .toBe(digestOf(doc));
  });
  await t.step("a number written another way", () => {
    const text = planText("moved_block.json");
    expect(text).toContain('"byte_length":10,');
    expect(
      tofuPlanFile(text.replaceAll('"byte_length":10,', '"byte_length":1.0e1,'))
        .planDigest,
    ).toBe(tofuPlanFile(text).planDigest);
  });
});

Deno.test("tofuPlanFile() moves the digest when what the apply does changes", async (t) => {
  const cases: { name: string; file: string; edit: (doc: Doc) => void }[] = [
    {
      name: "an action",
      file: "action_reason.json",
      edit: (doc) =>
        doc.resource_changes[0].change.actions = ["create", "delete"],
    },
    {
      name: "an attribute after",
      file: "identity.json",
      edit: (doc) => doc.resource_changes[0].change.after.age = 1000,
    },
    {
      name: "an attribute before",
      file: "identity.json",
      edit: (doc) => doc.resource_changes[0].change.before.name = "old",
    },
    {
      name: "an unknown attribute",
      file: "deep_module.json",
      edit: (doc) =>
        doc.resource_changes[0].change.after_unknown.triggers = true,
    },
    {
      name: "a sensitive marker",
      file: "has_checks.json",
      edit: (doc) =>
        doc.resource_changes[0].change.after_sensitive.content = true,
    },
    {
      name: "replace paths",
      file: "action_reason.json",
      edit: (doc) =>
        doc.resource_changes[0].change.replace_paths = [["triggers"]],
    },
    {
      name: "an action reason",
      file: "action_reason.json",
      edit: (doc) =>
        doc.resource_changes[0].action_reason = "replace_by_request",
    },
    {
      name: "a previous address",
      file: "moved_block.json",
      edit: (doc) => doc.resource_changes[0].previous_address = "random_id.x",
    },
    {
      name: "an import",
      file: "identity.json",
      edit: (doc) => delete doc.resource_changes[0].change.importing,
    },
    {
      name: "a deposed object",
      file: "action_reason.json",
      edit: (doc) => doc.resource_changes[0].deposed = "00000001",
    },
    {
      name: "an address",
      file: "deep_module.json",
      edit: (doc) =>
        doc.resource_changes[0].address =
          "module.foo.module.bar.null_resource.qux",
    },
    {
      name: "an output's value",
      file: "120_basic.json",
      edit: (doc) => doc.output_changes.string.after = "fob",
    },
    {
      name: "an output's action",
      file: "120_basic.json",
      edit: (doc) => doc.output_changes.string.actions = ["update"],
    },
    {
      name: "an output's sensitivity",
      file: "120_basic.json",
      edit: (doc) => doc.output_changes.string.after_sensitive = true,
    },
    {
      name: "a resource change more",
      file: "deep_module.json",
      edit: (doc) =>
        doc.resource_changes.push({
          address: "null_resource.more",
          change: { actions: ["create"], before: null, after: {} },
        }),
    },
    {
      name: "an action invocation's config",
      file: "actions.json",
      edit: (doc) => doc.action_invocations[0].config_values.name = "other",
    },
    {
      name: "a number beyond a double's precision",
      file: "identity.json",
      edit: (doc) => doc.resource_changes[0].change.after.age = 2 ** 60,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const doc = planDoc(c.file);
      const before = digestOf(doc);
      c.edit(doc);
      expect(digestOf(doc)).not.toBe(before);
    });
  }
  await t.step("two integers a double cannot tell apart", () => {
    const text = planText("identity.json");
    expect(text).toContain('"age":999,');
    const a = text.replaceAll('"age":999,', '"age":12345678901234567890,');
    const b = text.replaceAll('"age":999,', '"age":12345678901234567891,');
    expect(tofuPlanFile(a).planDigest).not.toBe(tofuPlanFile(b).planDigest);
  });
});

Deno.test("tofuPlanFile() tells destructive and empty plans apart", async (t) => {
  const base = planDoc("deep_module.json");
  const withActions = (...lists: string[][]): Doc => ({
    ...base,
    resource_changes: lists.map((actions, i) => ({
      address: `null_resource.r${i}`,
      change: { actions, before: null, after: null },
    })),
  });
  const cases: {
    name: string;
    doc: Doc;
    destructive: boolean;
    empty: boolean;
    summary: string;
  }[] = [
    {
      name: "delete",
      doc: withActions(["delete"]),
      destructive: true,
      empty: false,
      summary: "0 to add, 0 to change, 1 to destroy (destroy null_resource.r0)",
    },
    {
      name: "replace, create before destroy",
      doc: withActions(["create", "delete"]),
      destructive: true,
      empty: false,
      summary: "1 to add, 0 to change, 1 to destroy (replace null_resource.r0)",
    },
    {
      name: "no-op and read only",
      doc: withActions(["no-op"], ["read"], ["no-op"]),
      destructive: false,
      empty: true,
      summary: "0 to add, 0 to change, 0 to destroy",
    },
    {
      name: "an ephemeral resource opened",
      doc: withActions(["open"]),
      destructive: false,
      empty: true,
      summary: "0 to add, 0 to change, 0 to destroy",
    },
    {
      name: "no resource changes",
      doc: withActions(),
      destructive: false,
      empty: true,
      summary: "0 to add, 0 to change, 0 to destroy",
    },
    {
      name: "no-op resources, one output to update",
      doc: {
        ...withActions(["no-op"]),
        output_changes: {
          a: { actions: ["no-op"], before: 1, after: 1 },
          b: { actions: ["update"], before: 1, after: 2 },
        },
      },
      destructive: false,
      empty: false,
      summary: "0 to add, 0 to change, 0 to destroy, 1 output to change",
    },
    {
      name: "an output removed is a change, not a destruction",
      doc: {
        ...withActions(),
        output_changes: { a: { actions: ["delete"], before: 1, after: null } },
      },
      destructive: false,
      empty: false,
      summary: "0 to add, 0 to change, 0 to destroy, 1 output to change",
    },
    {
      name: "forget (a removed block that keeps the object)",
      doc: withActions(["forget"]),
      destructive: false,
      empty: false,
      summary: "0 to add, 0 to change, 0 to destroy, 1 to forget",
    },
    {
      name: "more destroyed objects than the summary names",
      doc: withActions(["delete"], ["delete", "create"], ["delete"], [
        "delete",
      ], ["update"]),
      destructive: true,
      empty: false,
      summary:
        "1 to add, 1 to change, 4 to destroy (destroy null_resource.r0; replace null_resource.r1; destroy null_resource.r2; and 1 more)",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const plan = tofuPlanFile(JSON.stringify(c.doc));
      expect(plan.destructive).toBe(c.destructive);
      expect(plan.empty).toBe(c.empty);
      expect(plan.summary).toBe(c.summary);
    });
  }
});

Deno.test("tofuPlanFile() never shows a sensitive value", async (t) => {
  const secret = "hunter2-secret";
  const doc = planDoc("110_sensitive_values.json");
  doc.resource_changes[0].change.after = { triggers: { password: secret } };
  doc.resource_changes[0].change.after_sensitive = { triggers: true };
  doc.output_changes.foo.after = secret;
  await t.step("in the summary", () => {
    const plan = tofuPlanFile(JSON.stringify(doc));
    expect(JSON.stringify(plan)).not.toContain(secret);
  });
  await t.step("in an error about the same document", () => {
    const broken = JSON.stringify({ ...doc, format_version: "2.0" });
    const bad = JSON.stringify(doc).replace(secret, `${secret}\u0001`);
    for (const text of [broken, bad, JSON.stringify(doc).slice(0, 3000)]) {
      expect(() => tofuPlanFile(text)).toThrow();
      try {
        tofuPlanFile(text);
      } catch (error) {
        expect((error as Error).message).not.toContain("hunter2");
      }
    }
  });
});

Deno.test("tofuPlanFile() refuses what is not a plan with one line", async (t) => {
  const ok = planDoc("deep_module.json");
  const cases: { name: string; text: string; message: string }[] = [
    {
      name: "not JSON",
      text: "Error: Failed to load plugin schemas",
      message: 'is not JSON: unexpected character "E" at line 1, column 1',
    },
    {
      name: "cut short",
      text: '{"format_version": "1.2",\n "resource_changes": [',
      message: "is not JSON: unexpected end of input at line 2, column 23",
    },
    {
      name: "a repeated key",
      text: '{"format_version": "1.2", "format_version": "1.2"}',
      message:
        'is not JSON: key "format_version" appears twice at line 1, column 27',
    },
    {
      name: "a list",
      text: "[]",
      message: "is not a plan: it is JSON, but not an object",
    },
    {
      name: "a state",
      text: '{"format_version": "1.0", "values": {}}',
      message:
        'is a state, not a plan: give it the output of "show -json" on the saved plan file',
    },
    {
      name: "no format_version",
      text: JSON.stringify({ ...ok, format_version: undefined }),
      message:
        'has no "format_version": give it the output of "show -json" on the saved plan file',
    },
    {
      name: "a newer format",
      text: JSON.stringify({ ...ok, format_version: "2.0" }),
      message: 'has "format_version" "2.0"; chant-wave reads 0.x and 1.x',
    },
    {
      name: "an errored plan",
      text: JSON.stringify({ ...ok, errored: true }),
      message:
        "is a plan that errored: it cannot be applied; see the plan's output",
    },
    {
      name: "resource_changes not a list",
      text: JSON.stringify({ ...ok, resource_changes: {} }),
      message: '"resource_changes" is not a list',
    },
    {
      name: "a change without an address",
      text: JSON.stringify({ ...ok, resource_changes: [{ change: {} }] }),
      message: 'resource_changes[0] has no "address"',
    },
    {
      name: "an unknown action",
      text: JSON.stringify({
        ...ok,
        resource_changes: [{ address: "a.b", change: { actions: ["frob"] } }],
      }),
      message: 'resource_changes[0] "a.b": unknown actions ["frob"]',
    },
    {
      name: "the same address twice",
      text: JSON.stringify({
        ...ok,
        resource_changes: [ok.resource_changes[0], ok.resource_changes[0]],
      }),
      message:
        '"resource_changes" holds "module.foo.module.bar.null_resource.baz" twice',
    },
    {
      name: "an output without actions",
      text: JSON.stringify({ ...ok, output_changes: { a: { after: 1 } } }),
      message: 'output_changes "a": "actions" is not a list of actions',
    },
    {
      name: "nesting too deep",
      text: `{"format_version":"1.2","resource_changes":[],"x":${
        "[".repeat(600)
      }${"]".repeat(600)}}`,
      // the 513th "[" is at offset 50 + 512
      message:
        "is not JSON: nesting deeper than 512 levels at line 1, column 563",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(() => tofuPlanFile(c.text)).toThrow(c.message);
    });
  }
});

Deno.test("tofuPlanFile() lists what each resource change does, never a value", async (t) => {
  const cases = [
    {
      file: "explicit_null.json",
      changes: ["null_resource.bar", "null_resource.baz", "null_resource.foo"]
        .map((address) => ({ address, action: "create" })),
    },
    {
      file: "action_reason.json",
      changes: [{ address: "null_resource.example", action: "replace" }],
    },
    {
      file: "identity.json",
      changes: [{
        address: "corner_user_identity.user",
        action: "update",
        attributes: ["age", "name"],
      }, { address: "corner_user_identity.user", action: "import" }],
    },
    {
      file: "moved_block.json",
      // The object, under its address and under the one it moved from.
      changes: [
        { address: "random_id.test2", action: "move" },
        { address: "random_id.test", action: "move" },
      ],
    },
    {
      // Terraform 0.12 lists every root output as created in every plan.
      file: "no_changes.json",
      changes: [
        "foo",
        "interpolated",
        "interpolated_deep",
        "list",
        "map",
        "referenced",
        "referenced_deep",
        "string",
      ].map((name) => ({ address: `output.${name}`, action: "create" })),
    },
    {
      file: "actions.json",
      changes: [{ address: "action.bufo_print.success", action: "invoke" }],
    },
  ];
  for (const c of cases) {
    await t.step(c.file, () => {
      expect(tofuPlanFile(planText(c.file)).changes).toEqual(c.changes);
    });
  }
  await t.step("a delete, a deposed object and a no-op", () => {
    const doc = planDoc("action_reason.json");
    const [entry] = doc.resource_changes;
    doc.resource_changes = [
      {
        ...entry,
        address: "aws_db_instance.old",
        change: { ...entry.change, actions: ["delete"], after: null },
      },
      {
        ...entry,
        address: "aws_instance.web",
        deposed: "00000001",
        change: { ...entry.change, actions: ["delete"], after: null },
      },
      {
        ...entry,
        address: "aws_s3_bucket.same",
        change: { ...entry.change, actions: ["no-op"] },
      },
    ];
    const plan = tofuPlanFile(JSON.stringify(doc));
    expect(plan.changes).toEqual([
      { address: "aws_db_instance.old", action: "delete" },
      { address: "aws_instance.web", action: "delete" },
    ]);
    expect(JSON.stringify(plan.changes)).not.toContain(
      JSON.stringify(entry.change.before).slice(1, 20),
    );
  });
});
