// The tools the tests need are named once (scripts/check_tools.ts): the
// README's apt-get line lists exactly their packages, and .ci/run installs
// what that list says is missing.
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { aptPackages } from "../scripts/check_tools.ts";

Deno.test("the README's apt-get line names exactly the packages the tests need", async () => {
  const readme = await Deno.readTextFile(
    new URL("../README.md", import.meta.url),
  );
  const line = readme.match(/`apt-get install ([^`]+)`/)?.[1];
  expect(line?.split(/\s+/).sort()).toEqual(aptPackages().sort());
});

Deno.test(".ci/run installs what scripts/check_tools.ts finds missing", async () => {
  const ci = await Deno.readTextFile(new URL("../.ci/run", import.meta.url));
  expect(ci).toContain("scripts/check_tools.ts --missing-packages");
  expect(ci).toContain("apt-get install -y -qq $missing");
});
