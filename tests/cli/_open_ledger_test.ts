// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  chooseLedger,
  ledgerArgument,
  openLedger,
} from "../../src/cli/_open_ledger.ts";
import { isGitLedger } from "../../src/ledger/git/git_ledger.ts";
import { ledgerWorld, worldIo } from "../ledger/git_ledger_fixture.ts";

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

Deno.test("openLedger() opens the git ledger for git and git:<remote>", async (t) => {
  await using world = await ledgerWorld();
  const { io } = worldIo(world, world.repo.path);
  await t.step("--ledger git", async () => {
    const ledger = await openLedger(chooseLedger("git", io.env), io);
    expect(isGitLedger(ledger)).toBe(true);
    expect(ledger.describe()).toBe('git ledger chant/ledger of "origin"');
  });
  await t.step("--ledger git:<remote>", async () => {
    expect(
      (await openLedger(chooseLedger("git:upstream", io.env), io)).describe(),
    ).toBe(
      'git ledger chant/ledger of "upstream"',
    );
  });
  await t.step("CHANT_WAVE_LEDGER=git", async () => {
    const { io } = worldIo(world, world.repo.path, {
      CHANT_WAVE_LEDGER: "git",
    });
    expect(isGitLedger(await openLedger(chooseLedger(undefined, io.env), io)))
      .toBe(true);
  });
  await t.step("git: without a name", async () => {
    await expect(openLedger(chooseLedger("git:", io.env), io)).rejects.toThrow(
      'ledger "git:": name the remote after "git:", e.g. "git:origin"',
    );
  });
  await t.step("git: with a URL holding a credential", async () => {
    await expect(
      openLedger(
        chooseLedger("git:https://ann:s3cret@git.example/x.git", io.env),
        io,
      ),
    ).rejects.toThrow(
      'ledger "git:https://***@git.example/x.git": not a valid remote name; name a remote ("git:origin"), not a URL',
    );
  });
  await t.step("a directory", async () => {
    expect(
      isGitLedger(await openLedger(chooseLedger(".chant/ledger", io.env), io)),
    ).toBe(false);
  });
});
