// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { changesOf, summarise } from "../../src/tofu/_summary.ts";
import type {
  PlanDocument,
  ResourceChange,
} from "../../src/tofu/_plan_document.ts";

function change(
  address: string,
  actions: string[],
  more: Partial<ResourceChange> = {},
): ResourceChange {
  return { address, actions, importing: false, covered: {}, ...more };
}

function doc(...resources: ResourceChange[]): PlanDocument {
  return { resources, outputs: [], invocations: [] };
}

Deno.test("summarise() counts as tofu does and names what is destroyed", async (t) => {
  const cases: [string, PlanDocument, string][] = [
    ["nothing", doc(), "0 to add, 0 to change, 0 to destroy"],
    [
      "the brief's example",
      doc(
        change("null_resource.a", ["create"]),
        change("null_resource.b", ["update"]),
        change("null_resource.example", ["delete", "create"], {
          reason: "replace_because_tainted",
        }),
      ),
      "2 to add, 1 to change, 1 to destroy (replace null_resource.example: tainted)",
    ],
    [
      "every reason word",
      doc(
        change("a.requested", ["create", "delete"], {
          reason: "replace_by_request",
        }),
        change("a.gone", ["delete"], {
          reason: "delete_because_no_resource_config",
        }),
        change("a.old", ["delete"], { deposed: "0a1b2c3d" }),
      ),
      "1 to add, 0 to change, 3 to destroy (replace a.requested: requested; destroy a.gone: not in the configuration; destroy deposed a.old)",
    ],
    [
      "a reason chant-wave does not know is shown as written",
      doc(change("a.b", ["delete"], { reason: "delete_because_\u001b[2J" })),
      "0 to add, 0 to change, 1 to destroy (destroy a.b: delete_because_\\x1b[2J)",
    ],
    [
      "control characters of an address are made visible",
      doc(change('a.b["x\nerror: y"]', ["delete"])),
      '0 to add, 0 to change, 1 to destroy (destroy a.b["x\\nerror: y"])',
    ],
    [
      "a long address is cut",
      doc(change(`a.b["${"k".repeat(200)}"]`, ["delete"])),
      `0 to add, 0 to change, 1 to destroy (destroy a.b["${"k".repeat(115)}…)`,
    ],
    [
      "imports, moves, forgets",
      doc(
        change("a.i", ["no-op"], { importing: true }),
        change("a.m", ["update"], { previousAddress: "a.n" }),
        change("a.f", ["forget"]),
        change("a.g", ["create", "forget"]),
      ),
      "1 to add, 1 to change, 0 to destroy, 1 to import, 1 to move, 2 to forget",
    ],
  ];
  for (const [name, document, want] of cases) {
    await t.step(name, () => expect(summarise(document)).toBe(want));
  }
});

Deno.test("changesOf() lists every effect on an object, so a rule over any of them sees it", async (t) => {
  const update = {
    covered: {
      change: { before: { tags: { a: "1" } }, after: { tags: { a: "2" } } },
    },
  };
  await t.step("a move beside an update: both addresses, and the move", () => {
    expect(changesOf(doc(
      change("terraform_data.vpc", ["update"], {
        previousAddress: "module.network.terraform_data.vpc",
        ...update,
      }),
    ))).toEqual([
      {
        address: "terraform_data.vpc",
        action: "update",
        attributes: ["tags.a"],
      },
      {
        address: "module.network.terraform_data.vpc",
        action: "update",
        attributes: ["tags.a"],
      },
      { address: "terraform_data.vpc", action: "move" },
    ]);
  });
  await t.step("a move beside a replace; a move alone", () => {
    expect(changesOf(doc(
      change("b.x", ["delete", "create"], { previousAddress: "module.m.b.x" }),
      change("c.y", ["no-op"], { previousAddress: "module.m.c.y" }),
    ))).toEqual([
      { address: "b.x", action: "replace" },
      { address: "module.m.b.x", action: "replace" },
      { address: "b.x", action: "move" },
      { address: "c.y", action: "move" },
      { address: "module.m.c.y", action: "move" },
    ]);
  });
  await t.step("an import beside an update, and alone", () => {
    expect(changesOf(doc(
      change("d.adopted", ["update"], { importing: true, ...update }),
      change("d.plain", ["no-op"], { importing: true }),
    ))).toEqual([
      { address: "d.adopted", action: "update", attributes: ["tags.a"] },
      { address: "d.adopted", action: "import" },
      { address: "d.plain", action: "import" },
    ]);
  });
  await t.step("a deposed object under its resource's address", () => {
    expect(changesOf(doc(
      change('e.x["a"]', ["delete"], { deposed: "00000001" }),
    ))).toEqual([{ address: 'e.x["a"]', action: "delete" }]);
  });
  await t.step("a root output that changes, under output.<name>", () => {
    expect(changesOf({
      resources: [],
      outputs: [
        { name: "cidr", actions: ["update"], covered: {} },
        { name: "same", actions: ["no-op"], covered: {} },
        { name: "admin", actions: ["create"], covered: {} },
      ],
      invocations: [],
    })).toEqual([
      { address: "output.cidr", action: "update" },
      { address: "output.admin", action: "create" },
    ]);
  });
  await t.step("an action a change triggers, as an invoke", () => {
    expect(changesOf({
      resources: [],
      outputs: [],
      invocations: [{ address: "action.aws_lambda_invoke.notify" }],
    })).toEqual([
      { address: "action.aws_lambda_invoke.notify", action: "invoke" },
    ]);
  });
  await t.step("too many changes, or a too long address, fail the plan", () => {
    const many = Array.from(
      { length: 10_001 },
      (_, i) => change(`f.x[${i}]`, ["create"]),
    );
    expect(() => changesOf(doc(...many))).toThrow(
      "the plan changes more than 10000 objects",
    );
    expect(() => changesOf(doc(change(`g.${"y".repeat(1030)}`, ["create"]))))
      .toThrow("an address is longer than 1024 characters");
  });
});
