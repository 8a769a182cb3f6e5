// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { hostname } from "node:os";
import { join } from "node:path";
import { realClock } from "../../../src/clock.ts";
import { tryPidLock } from "../../../src/fs/pid_lock.ts";
import {
  countClutter,
  LOOSE_LIMIT,
  PACK_LIMIT,
} from "../../../src/git/tidy_objects.ts";
import type { GitLedger } from "../../../src/ledger/git/git_ledger.ts";
import { approvalNoted, ledgerWorld } from "../git_ledger_fixture.ts";

/** `count` approvals, each written by `job` then by `approver`, in turn. */
async function rollouts(
  job: GitLedger,
  approver: GitLedger,
  count: number,
  seen: (i: number) => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await job.write(approvalNoted(`job ${i}`));
    await approver.write(approvalNoted(`approver ${i}`));
    await seen(i);
  }
}

Deno.test("gitLedger() keeps a clone that writes again and again tidy: packs and loose objects bounded, every record kept", async () => {
  await using world = await ledgerWorld();
  const job = world.open(await world.clone("job")).ledger;
  const dir = await world.clone("approver");
  const approver = world.open(dir).ledger;
  const gitDir = join(dir, ".git");
  const most = { packs: 0, loose: 0 };

  await rollouts(job, approver, 2 * PACK_LIMIT, async () => {
    const clutter = await countClutter(gitDir);
    most.packs = Math.max(most.packs, clutter.packs);
    most.loose = Math.max(most.loose, clutter.loose);
  });

  expect(most.packs).toBeLessThanOrEqual(PACK_LIMIT);
  expect(most.loose).toBeLessThanOrEqual(LOOSE_LIMIT);
  const { records } = await world.open(dir).ledger.readGate("tf", "tf-wave-2");
  expect(records).toHaveLength(4 * PACK_LIMIT);
  await world.repo.gitIn(dir, "fsck", "--no-dangling", "--no-progress");
});

Deno.test("gitLedger() does not tidy a clone while another process holds its writer lock", async () => {
  await using world = await ledgerWorld();
  const job = world.open(await world.clone("job")).ledger;
  const dir = await world.clone("approver");
  // A short budget: the writes go ahead without the lock, as after a long wait.
  const approver = world.open(dir, { budgetMs: 50 }).ledger;
  const gitDir = join(dir, ".git");
  const holder = new Deno.Command("sleep", { args: ["600"] }).spawn();
  try {
    const held = await tryPidLock({
      path: join(gitDir, "chant-ledger.lock"),
      clock: realClock,
      self: { pid: holder.pid, host: hostname() },
    });
    expect(held.ok).toBe(true);

    await rollouts(job, approver, PACK_LIMIT + 2);

    expect((await countClutter(gitDir)).packs).toBeGreaterThan(PACK_LIMIT);
  } finally {
    holder.kill();
    await holder.status;
  }
});
