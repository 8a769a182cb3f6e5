// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approvalRecord } from "../../src/gate/records.ts";
import {
  type ActionKind,
  approvalConfirmer,
  forgeVerdict,
  NAMES_NO_ACTION,
  NOT_ASKED_HERE,
} from "../../src/gate/confirm_approvals.ts";

const D1 = "sha256:" + "1".repeat(64);
const D2 = "sha256:" + "2".repeat(64);

function approval(id: string, by: string, note?: string, digest = D1) {
  return approvalRecord({
    name: "tf",
    gate: "tf-wave-1",
    planDigest: digest,
    by,
    ...(note ? { note } : {}),
  }, { id, now: 0 });
}

/** A kind that confirms approvals whose note is "ok", refuses "no", knows nothing else. */
function noteKind(asked: string[]): ActionKind {
  return {
    confirm(record) {
      asked.push(record.id);
      if (record.note === "ok") {
        return Promise.resolve({
          confirmed: true,
          login: record.by.toUpperCase(),
        });
      }
      if (record.note === "no") {
        return Promise.resolve({ confirmed: false, why: "the forge says no" });
      }
      return Promise.resolve(undefined);
    },
  };
}

Deno.test("approvalConfirmer() confirms each approval through the kind whose action it names", async (t) => {
  const asked: string[] = [];
  const lines: string[] = [];
  const confirmer = approvalConfirmer({
    kinds: [noteKind(asked)],
    log: (line) => lines.push(line),
  });
  const records = [
    approval("a1", "ann", "ok"),
    approval("a2", "eve", "no"),
    approval("a3", "bob"),
    approval("a4", "old", undefined, D2),
  ];
  await t.step("confirmed, refused, naming nothing", async () => {
    const got = await confirmer.confirm(records, D1);
    expect(Object.fromEntries(got)).toEqual({
      a1: { confirmed: true, login: "ANN" },
      a2: { confirmed: false, why: "the forge says no" },
      a3: { confirmed: false, why: NAMES_NO_ACTION },
      a4: { confirmed: false, why: NAMES_NO_ACTION },
    });
  });
  await t.step("refusals of the decided digest are said once", async () => {
    await confirmer.confirm(records, D1);
    expect(lines).toEqual([
      "the approval by eve does not count: the forge says no",
      `the approval by bob does not count: ${NAMES_NO_ACTION}`,
    ]);
  });
  await t.step("each approval is confirmed once per job", () => {
    expect(asked).toEqual(["a1", "a2", "a3", "a4"]);
  });
});

Deno.test("approvalConfirmer() asks nothing when told not to (a dry run)", async () => {
  const asked: string[] = [];
  const confirmer = approvalConfirmer({
    kinds: [noteKind(asked)],
    notAsked: "a dry run does not ask the forge to confirm it",
    log: () => {},
  });
  const got = await confirmer.confirm([approval("a1", "ann", "ok")], D1);
  expect(got.get("a1")).toEqual({
    confirmed: false,
    why: "a dry run does not ask the forge to confirm it",
  });
  expect(asked).toEqual([]);
});

Deno.test("forgeVerdict() counts a confirmed approval as the login the forge shows", async (t) => {
  const record = approval("a1", "Ann");
  await t.step("confirmed", () => {
    expect(
      forgeVerdict(
        record,
        new Map([["a1", { confirmed: true, login: "ann" }]]),
      ),
    ).toEqual({
      principal: "login:ann",
      display: "ann",
      counts: true,
      identity: "ann",
    });
  });
  await t.step("refused", () => {
    expect(
      forgeVerdict(record, new Map([["a1", { confirmed: false, why: "no" }]])),
    ).toEqual({ principal: "ann", display: "Ann", counts: false, why: "no" });
  });
  await t.step("not asked here (outside a CI job)", () => {
    expect(forgeVerdict(record, undefined)).toEqual({
      principal: "ann",
      display: "Ann",
      counts: false,
      why: NOT_ASKED_HERE,
    });
  });
});

Deno.test("approvalConfirmer() refuses, without asking, an action named twice or ended by a revoke", async () => {
  const asked: string[] = [];
  const confirmer = approvalConfirmer({
    kinds: [noteKind(asked)],
    log: () => {},
  });
  const via = (id: string, run: string) =>
    approvalRecord({
      name: "tf",
      gate: "tf-wave-1",
      planDigest: D1,
      by: "ann",
      note: "ok",
      via: `https://github.com/o/r/actions/runs/${run}`,
    }, { id, now: 0 });
  const got = await confirmer.confirm(
    [via("a1", "7"), via("a2", "7"), via("a3", "5"), via("a4", "8")],
    D1,
    { run: "5" },
  );
  expect(got.get("a1")?.confirmed).toBe(false);
  expect(got.get("a2")?.confirmed).toBe(false);
  expect(got.get("a3")?.confirmed).toBe(false);
  expect(got.get("a4")).toEqual({ confirmed: true, login: "ANN" });
  expect(asked).toEqual(["a4"]);
});
