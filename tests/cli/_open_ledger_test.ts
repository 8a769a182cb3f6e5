// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { chooseLedger, ledgerArgument } from "../../src/cli/_open_ledger.ts";

Deno.test("chooseLedger() takes the flag, the environment, the spec, the default, in that order", () => {
  const env = { CHANT_WAVE_LEDGER: "git:ci" };
  expect(chooseLedger("dir", env, "git")).toEqual({
    where: "dir",
    from: "flag",
  });
  expect(chooseLedger(undefined, env, "git")).toEqual({
    where: "git:ci",
    from: "environment",
  });
  expect(chooseLedger(undefined, {}, "git")).toEqual({
    where: "git",
    from: "spec",
  });
  expect(chooseLedger(undefined, { CHANT_WAVE_LEDGER: "" })).toEqual({
    where: ".chant/ledger",
    from: "default",
  });
});

Deno.test("ledgerArgument() names every ledger but the default, whatever chose it", () => {
  expect(ledgerArgument({ where: "git", from: "spec" })).toBe("git");
  expect(ledgerArgument({ where: ".chant/ledger", from: "default" }))
    .toBeUndefined();
});
