// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import { refuseLinks } from "../../src/fs/refuse_links.ts";
import { tempDir } from "../_helpers/binary.ts";

Deno.test("refuseLinks() refuses a symbolic link on the way, never follows it", async (t) => {
  await using dir = await tempDir({
    "outside/x.json": "{}",
    "ledger/gates/tf/.keep": "",
  });
  await Deno.symlink(
    `${dir.path}/outside`,
    `${dir.path}/ledger/gates/tf/tf-wave-1`,
  );
  await t.step("real directories and missing ones pass", () => {
    refuseLinks(
      dir.path,
      ["ledger", "gates", "tf", "tf-wave-2", "claims"],
      "the ledger",
    );
  });
  await t.step("a linked directory is exit 2", () => {
    let error: unknown;
    try {
      refuseLinks(
        dir.path,
        ["ledger", "gates", "tf", "tf-wave-1"],
        "the ledger",
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(2);
    expect((error as InputError).message).toBe(
      `"${dir.path}/ledger/gates/tf/tf-wave-1" is a symbolic link inside the ledger; chant-wave refuses to follow it`,
    );
  });
});

Deno.test("refuseLinks() ends with an error on a component it cannot check, not as if absent", async () => {
  await using dir = await tempDir({ "ledger/.keep": "" });
  const long = "x".repeat(300);
  let error: unknown;
  try {
    refuseLinks(dir.path, ["ledger", long, "claims"], "the ledger");
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).exitCode).toBe(2);
  expect((error as InputError).message).toMatch(
    new RegExp(
      `^cannot check "${dir.path}/ledger/${long}" inside the ledger for a symbolic link: ENAMETOOLONG\\b`,
    ),
  );
});
