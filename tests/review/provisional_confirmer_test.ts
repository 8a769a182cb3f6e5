// What the approve command takes a forge gate's unsigned approvals for when it
// advises and resumes (SPEC.md §13, §13.1): one naming a run or job counts as
// its `by`; a Forgejo dispatch never does; one naming a review or nothing is
// refused, with its reason.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approvalRecord } from "../../src/ledger/records.ts";
import {
  NAMES_NO_ACTION,
  NOT_ASKED_HERE,
} from "../../src/review/confirm_approvals.ts";
import { provisionalConfirmer } from "../../src/review/provisional_confirmer.ts";

const DIGEST = `sha256:${"a".repeat(64)}`;

function record(id: string, fields: { via?: string; note?: string } = {}) {
  return approvalRecord({
    name: "tf",
    gate: "tf-wave-1",
    planDigest: DIGEST,
    by: "ann",
    ...fields,
  }, { id, now: 0 });
}

Deno.test("provisionalConfirmer() counts the approvals via a run or job", async () => {
  const own = record("own", { via: "https://github.com/o/r/actions/runs/8" });
  const earlier = record("earlier", {
    via: "https://github.com/o/r/actions/runs/7",
  });
  const review = record("review", {
    note: "approved by the review of #7 at abababababab: ann",
  });
  const plain = record("plain");
  const confirmed = await provisionalConfirmer("github").confirm(
    [own, earlier, review, plain],
    DIGEST,
  );
  expect(Object.fromEntries(confirmed)).toEqual({
    own: { confirmed: true, login: "ann" },
    earlier: { confirmed: true, login: "ann" },
    review: { confirmed: false, why: NOT_ASKED_HERE },
    plain: { confirmed: false, why: NAMES_NO_ACTION },
  });
});

Deno.test("provisionalConfirmer() refuses a Forgejo dispatch as the gate's job would", async () => {
  const own = record("own", {
    via: "https://forgejo.example/o/r/actions/runs/8",
  });
  const confirmed = await provisionalConfirmer("forgejo").confirm(
    [own],
    DIGEST,
  );
  expect(confirmed.get("own")).toEqual({
    confirmed: false,
    why:
      "run 8: a Forgejo run is titled with its workflow's name, not with its run-name, so the wave and digest it asked for cannot be confirmed",
  });
  const job = record("job", { via: "https://gitlab.example/g/p/-/jobs/70" });
  expect((await provisionalConfirmer("gitlab").confirm([job], DIGEST))
    .get("job")).toEqual({ confirmed: true, login: "ann" });
});
