// End to end through the binary: 8 approvers (2 on each of 4 clones) record 20
// approvals each on the git ledger at once, one `chant-wave approve` command per
// record, and every one of the 160 lands on the remote's branch (SPEC.md §5.4:
// concurrent writers lose no record), though pushes were rejected on the way:
// a stand-in git on PATH sees each rejected push and the retry that landed.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approverWorld,
  chantWriters,
  expectedNotes,
  notesOn,
} from "../_helpers/approvers.ts";
import { pushLog, unretriedRejections } from "../_helpers/push_log.ts";

const WRITERS = 8;
const RECORDS = 20;

Deno.test("approve --ledger git: 8 writers on 4 clones land 160 of 160 approvals", async () => {
  await using world = await approverWorld();
  await using log = await pushLog();
  const run = await chantWriters(
    world,
    WRITERS,
    RECORDS,
    `${log.bin}:/usr/bin:/bin`,
  );
  expect(run.failures).toEqual([]);
  expect(unretriedRejections(await log.pushes())).toBe("");
  const notes = await notesOn(world, "chant/ledger", "gates/tf/tf-wave-2");
  expect(notes).toEqual(expectedNotes(WRITERS, RECORDS));
});
