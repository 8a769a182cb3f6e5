// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  ShowJsonError,
  writeToolPlanFile,
} from "../../src/tofu/write_tool_plan_file.ts";
import { tempDir } from "../_helpers/binary.ts";

const TAINTED = Deno.readTextFileSync(
  new URL("../fixtures/terraform-plans/action_reason.json", import.meta.url),
);

Deno.test("writeToolPlanFile() writes the plan file and nothing else", async () => {
  await using dir = await tempDir({ "show.json": TAINTED });
  const plan = await writeToolPlanFile({
    showJson: `${dir.path}/show.json`,
    planFile: `${dir.path}/plans/p.json`,
  });
  expect(plan.destructive).toBe(true);
  expect(JSON.parse(await Deno.readTextFile(`${dir.path}/plans/p.json`)))
    .toEqual(plan);
  const names = [...Deno.readDirSync(`${dir.path}/plans`)].map((e) => e.name);
  expect(names).toEqual(["p.json"]);
});

Deno.test("writeToolPlanFile() refuses what it should not read", async (t) => {
  await using dir = await tempDir({ "show.json": TAINTED, "plan.json": "old" });
  const refuse = async (showJson: string, message: string) => {
    const attempt = writeToolPlanFile({
      showJson,
      planFile: `${dir.path}/plan.json`,
      showJsonShownAs: "show.json",
    });
    await expect(attempt).rejects.toThrow(ShowJsonError);
    await expect(attempt).rejects.toThrow(message);
    expect(await Deno.readTextFile(`${dir.path}/plan.json`)).toBe("old");
  };
  await t.step("a file over 64 MiB, without reading it", async () => {
    const big = `${dir.path}/big.json`;
    await Deno.writeTextFile(big, "");
    await Deno.truncate(big, 64 * 1024 * 1024 + 1);
    await refuse(big, 'cannot read "show.json": it is larger than 64 MiB');
  });
  await t.step("bytes that are not UTF-8", async () => {
    const bad = `${dir.path}/bad.json`;
    await Deno.writeFile(bad, new Uint8Array([0x7b, 0xff, 0x7d]));
    await refuse(bad, 'cannot read "show.json": it is not UTF-8 text');
  });
  await t.step("a plan file that cannot be written", async () => {
    const attempt = writeToolPlanFile({
      showJson: `${dir.path}/show.json`,
      planFile: `${dir.path}/show.json/plan.json`,
      planFileShownAs: "show.json/plan.json",
    });
    await expect(attempt).rejects.toThrow(
      'cannot write plan file "show.json/plan.json": ',
    );
  });
});
