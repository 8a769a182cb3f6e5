// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ledgerCommand } from "../../src/cli/ledger_command.ts";
import {
  approvalNoted,
  ledgerWorld,
  worldIo,
} from "../ledger/git_ledger_fixture.ts";

Deno.test("ledgerCommand pulls, pushes and logs the git ledger", async () => {
  await using world = await ledgerWorld();
  const a = await world.clone("a");
  await world.open(a).ledger.write(approvalNoted("from a"));

  const pull = worldIo(world, world.repo.path);
  expect(await ledgerCommand.run(["pull", "--ledger", "git"], pull.io)).toBe(0);
  expect(pull.stderr.text()).toMatch(
    /^pulled chant\/ledger from "origin" at [0-9a-f]{12}\n$/,
  );
  expect(await world.repo.git("rev-parse", "chant/ledger")).toBe(
    await world.repo.gitIn(world.remote, "rev-parse", "chant/ledger"),
  );

  const push = worldIo(world, world.repo.path);
  expect(await ledgerCommand.run(["push", "--ledger", "git"], push.io)).toBe(0);
  expect(push.stderr.text()).toBe('chant/ledger is up to date with "origin"\n');

  const log = worldIo(world, world.repo.path, { CHANT_WAVE_LEDGER: "git" });
  expect(await ledgerCommand.run(["log"], log.io)).toBe(0);
  expect(log.stdout.lines()[0]).toBe("tf tf-wave-2");
  expect(log.stdout.lines()[1]).toMatch(/approval/);
  expect(log.stdout.lines()).toHaveLength(2);

  const dir = worldIo(world, world.repo.path);
  await expect(ledgerCommand.run(["push"], dir.io)).rejects.toThrow(
    '"ledger push" syncs the git ledger; directory ledger',
  );
  await expect(ledgerCommand.run(["pull", "x", "--ledger", "git"], dir.io))
    .rejects.toThrow('"ledger pull" takes no arguments; got "x"');
});
