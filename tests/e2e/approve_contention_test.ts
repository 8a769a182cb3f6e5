// End to end through the binary: 8 approvers (2 on each of 4 clones) record 20
// approvals each on the git ledger at once, one `chant-wave approve` command per
// record, and every one of the 160 lands on the remote's branch (SPEC.md §5.4:
// concurrent writers lose no record).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approverWorld,
  chantWriters,
  expectedNotes,
  notesOn,
} from "../_helpers/approvers.ts";

const WRITERS = 8;
const RECORDS = 20;

Deno.test("approve --ledger git: 8 writers on 4 clones land 160 of 160 approvals", async () => {
  await using world = await approverWorld();
  const run = await chantWriters(world, WRITERS, RECORDS);
  expect(run.failures).toEqual([]);
  const notes = await notesOn(world, "chant/ledger", "gates/tf/tf-wave-2");
  expect(notes).toEqual(expectedNotes(WRITERS, RECORDS));
});
