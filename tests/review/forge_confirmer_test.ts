// What the approve command takes a forge gate's unsigned approvals for when it
// advises and resumes (SPEC.md §13, §13.1): the one it just recorded via a run
// or job counts as its `by` (a Forgejo dispatch never does); the gate's others
// via a run or job count as the forge says, and without a forge to ask they
// are not asked; one naming a review or nothing is refused, with its reason.

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approvalRecord } from "../../src/gate/records.ts";
import {
  type ActionKind,
  NAMES_NO_ACTION,
  NOT_ASKED_HERE,
} from "../../src/gate/confirm_approvals.ts";
import { provisionalConfirmer } from "../../src/review/forge_confirmer.ts";

const DIGEST = `sha256:${"a".repeat(64)}`;

function record(
  id: string,
  fields: { by?: string; via?: string; note?: string } = {},
) {
  return approvalRecord({
    name: "tf",
    gate: "tf-wave-1",
    planDigest: DIGEST,
    by: "ann",
    ...fields,
  }, { id, now: 0 });
}

const own = record("own", { via: "https://github.com/o/r/actions/runs/8" });
const bot = record("bot", {
  by: "github-actions[bot]",
  via: "https://github.com/o/r/actions/runs/7",
});
const bob = record("bob", {
  by: "bob",
  via: "https://github.com/o/r/actions/runs/6",
});
const review = record("review", {
  note: "approved by the review of #7 at abababababab: ann",
});
const plain = record("plain");

/** A forge that confirms bob's run and refuses the bot's. */
const forge: ActionKind = {
  confirm: (approval) =>
    Promise.resolve(
      approval.by === "bob"
        ? { confirmed: true, login: "bob" }
        : { confirmed: false, why: "run 7: github-actions[bot] is a bot" },
    ),
};

Deno.test("provisionalConfirmer() counts the approval just recorded, and asks the forge about the others", async () => {
  const all = [own, bot, bob, review, plain];
  const asked = await provisionalConfirmer(own, "github", forge).confirm(
    all,
    DIGEST,
  );
  expect(Object.fromEntries(asked)).toEqual({
    own: { confirmed: true, login: "ann" },
    bot: { confirmed: false, why: "run 7: github-actions[bot] is a bot" },
    bob: { confirmed: true, login: "bob" },
    review: { confirmed: false, why: NOT_ASKED_HERE },
    plain: { confirmed: false, why: NAMES_NO_ACTION },
  });
  const alone = await provisionalConfirmer(own, undefined).confirm(all, DIGEST);
  expect(alone.get("own")).toEqual({ confirmed: true, login: "ann" });
  expect(alone.get("bob")).toEqual({ confirmed: false, why: NOT_ASKED_HERE });
});

Deno.test("provisionalConfirmer() refuses its own Forgejo dispatch as the gate's job would", async () => {
  const dispatch = record("own", {
    via: "https://forgejo.example/o/r/actions/runs/8",
  });
  const confirmed = await provisionalConfirmer(dispatch, "forgejo").confirm(
    [dispatch],
    DIGEST,
  );
  expect(confirmed.get("own")).toEqual({
    confirmed: false,
    why:
      "run 8: a Forgejo run is titled with its workflow's name, not with its run-name, so the wave and digest it asked for cannot be confirmed",
  });
  const job = record("job", { via: "https://gitlab.example/g/p/-/jobs/70" });
  expect((await provisionalConfirmer(job, "gitlab").confirm([job], DIGEST))
    .get("job")).toEqual({ confirmed: true, login: "ann" });
});
