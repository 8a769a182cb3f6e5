// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { matchesGlob, resourceType } from "../../src/gate/change_glob.ts";

Deno.test("matchesGlob() matches names, keys and segments", async (t) => {
  const cases: [string, string, boolean][] = [
    ["aws_vpc.main", "aws_vpc.main", true],
    ["aws_vpc.main", "aws_vpc.mainx", false],
    ["aws_iam_*.*", "aws_iam_role.deploy", true],
    ["aws_iam_*.*", "aws_instance.web", false],
    ["*", "aws_vpc.main", false],
    ["**", "module.a.aws_vpc.main", true],
    ["module.network.**", "module.network.aws_vpc.main", true],
    ["module.network.**", "module.networking.aws_vpc.main", false],
    ["module.network.**", 'module.network["eu"].aws_vpc.main', true],
    ["aws_iam_role.*", 'aws_iam_role.x["a.b"]', true],
    ["aws_iam_role.*", "aws_iam_role.x[0]", true],
    ["aws_iam_role.x", 'aws_iam_role.x["a.b"].y', false],
    ['aws_iam_role.x["a.b"]', 'aws_iam_role.x["a.b"]', true],
    ['aws_iam_role.x["a.c"]', 'aws_iam_role.x["a.b"]', false],
    ["aws_iam_role.x[*]", 'aws_iam_role.x["a.b"]', true],
    ["aws_iam_role.x[0]", "aws_iam_role.x[1]", false],
    // A "." or "*" inside a quoted key is literal text of the key.
    ["aws_s3.b.**", 'aws_s3.b["x.*"]', true],
    ["aws_s3.b.x", 'aws_s3.b["x.*"]', false],
    ['aws_s3.b["x.*"]', 'aws_s3.b["x.y"]', true],
    ["tags.**", "tags", true],
    ["tags.**", "tags.Name", true],
    ["tags.**", 'tags["kubernetes.io/role"]', true],
    ["tags.**", "tags_all.Name", false],
    ["tags_all.**", "tags_all", true],
    ["tags.*", "tags.Name", true],
    ["ingress[*].cidr_blocks", "ingress[0].cidr_blocks", true],
    ["ingress.**", "ingress[0].cidr_blocks[1]", true],
    ["a.**.z", "a.z", true],
    ["a.**.z", "a.b.c.z", true],
    ["a.**.z", "a.b.c.y", false],
  ];
  for (const [glob, text, want] of cases) {
    await t.step(`${glob} ${want ? "matches" : "misses"} ${text}`, () => {
      expect(matchesGlob(glob, text)).toBe(want);
    });
  }
});

Deno.test("resourceType() takes the last type.name pair after modules", () => {
  expect(resourceType("aws_instance.web")).toBe("aws_instance");
  expect(resourceType("aws_instance.web[0]")).toBe("aws_instance");
  expect(resourceType('module.net["a.b"].module.x.aws_vpc.main')).toBe(
    "aws_vpc",
  );
  expect(resourceType("data.aws_iam_policy_document.x")).toBe(
    "aws_iam_policy_document",
  );
  expect(resourceType("module.net.data.aws_ami.ubuntu")).toBe("aws_ami");
  expect(resourceType("add_users")).toBeUndefined();
  expect(resourceType("module.a")).toBeUndefined();
});
