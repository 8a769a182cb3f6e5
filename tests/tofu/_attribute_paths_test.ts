// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { changedAttributes } from "../../src/tofu/_attribute_paths.ts";
import { tofuPlanFile } from "../../src/tofu/tofu_plan_file.ts";

const PLANS = new URL("../fixtures/terraform-plans/", import.meta.url);

// deno-lint-ignore no-explicit-any
type Doc = any;

function planDoc(name: string): Doc {
  return JSON.parse(Deno.readTextFileSync(new URL(name, PLANS)));
}

/** identity.json's update, its change edited. */
function identityUpdate(edit: (change: Doc) => void): Doc {
  const doc = planDoc("identity.json");
  edit(doc.resource_changes[0].change);
  return doc;
}

Deno.test("tofuPlanFile() lists the attributes a real update changes", () => {
  const file = tofuPlanFile(JSON.stringify(planDoc("identity.json")));
  expect(file.changes).toEqual([{
    address: "corner_user_identity.user",
    action: "update",
    attributes: ["age", "name"],
  }, { address: "corner_user_identity.user", action: "import" }]);
});

Deno.test("tofuPlanFile() names tag paths, and the digest binds them", () => {
  const tags = (change: Doc) => {
    change.before = { ...change.after, tags: { Name: "a" }, tags_all: {} };
    change.after = {
      ...change.after,
      tags: { Name: "b", "kubernetes.io/role": "x" },
      tags_all: { Name: "b" },
    };
  };
  const doc = identityUpdate(tags);
  const file = tofuPlanFile(JSON.stringify(doc));
  expect(file.changes[0].attributes).toEqual([
    "tags.Name",
    'tags["kubernetes.io/role"]',
    "tags_all.Name",
  ]);
  // A plan that changes one more attribute has another digest.
  const more = identityUpdate((change) => {
    tags(change);
    change.after.age = 1;
  });
  expect(tofuPlanFile(JSON.stringify(more)).planDigest).not.toBe(
    file.planDigest,
  );
});

Deno.test("changedAttributes() reads unknown and sensitive markers without showing values", async (t) => {
  await t.step("a value known after apply", () => {
    expect(changedAttributes({
      before: { ingress: [{ cidr_blocks: ["10.0.0.0/8"] }] },
      after: { ingress: [{}] },
      after_unknown: { ingress: [{ cidr_blocks: true }] },
    })).toEqual(["ingress[0].cidr_blocks"]);
  });
  await t.step("a sensitive value is named, not descended into", () => {
    const paths = changedAttributes({
      before: { secret: { "key-a": "s3cret" }, tags: {} },
      after: { secret: { "key-b": "other" }, tags: {} },
      before_sensitive: { secret: true },
      after_sensitive: { secret: true },
    });
    expect(paths).toEqual(["secret"]);
    expect(JSON.stringify(paths)).not.toContain("key-");
  });
  await t.step("a sensitivity that changes is a change", () => {
    expect(changedAttributes({
      before: { password: "p" },
      after: { password: "p" },
      before_sensitive: {},
      after_sensitive: { password: true },
    })).toEqual(["password"]);
  });
  await t.step("an update with no visible difference names nothing", () => {
    expect(changedAttributes({ before: { a: "1" }, after: { a: "1" } }))
      .toBeUndefined();
  });
  await t.step("too many paths name nothing", () => {
    const many = Object.fromEntries(
      Array.from({ length: 65 }, (_, i) => [`a${i}`, String(i)]),
    );
    expect(changedAttributes({ before: {}, after: many })).toBeUndefined();
  });
});
