// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { gateStatus } from "../../src/gate/gate_status.ts";
import { SETTLED_BY, SETTLED_NOTE } from "../../src/gate/gate_messages.ts";
import {
  approvalRecord,
  expiredRecord,
  pendingRecord,
} from "../../src/gate/records.ts";

const digest = (c: string) => `sha256:${c.repeat(64)}`;
const gate = { name: "tf", gate: "tf-wave-2" };
const HOUR = 3_600_000;
const pending = (planDigest: string, now: number) =>
  pendingRecord(
    {
      ...gate,
      planDigest,
      description: "eu: 1 to add",
      members: 1,
      base: "b".repeat(40),
    },
    48 * HOUR,
    { id: `p-${now}`, now },
  );
const approval = (planDigest: string, now: number) =>
  approvalRecord({ ...gate, planDigest, by: "ann" }, { id: `a-${now}`, now });

Deno.test("gateStatus() shows a pending fact only while it still waits", async (t) => {
  const sets = new Map([
    [digest("1"), [{ target: "eu", planDigest: digest("a") }]],
    [digest("2"), [{ target: "eu", planDigest: digest("b") }]],
  ]);
  await t.step("no approval: it waits", () => {
    const status = gateStatus([pending(digest("1"), 0)], sets, HOUR);
    expect(status.pending?.planDigest).toBe(digest("1"));
  });
  await t.step("an approval covering its plans: no longer shown", () => {
    const status = gateStatus(
      [pending(digest("1"), 0), approval(digest("1"), 1000)],
      sets,
      HOUR,
    );
    expect(status.pending).toBeUndefined();
    expect(status.approvals.map((a) => a.by)).toEqual(["ann"]);
  });
  await t.step("an approval of other plans: it still waits", () => {
    const status = gateStatus(
      [approval(digest("1"), 0), pending(digest("2"), 1000)],
      sets,
      HOUR,
    );
    expect(status.pending?.planDigest).toBe(digest("2"));
  });
  await t.step(
    "no plan set: an approval of exactly its digest covers it",
    () => {
      const bare = new Map();
      expect(
        gateStatus([pending(digest("3"), 0)], bare, HOUR).pending?.planDigest,
      ).toBe(digest("3"));
      expect(
        gateStatus(
          [pending(digest("3"), 0), approval(digest("3"), 1000)],
          bare,
          HOUR,
        ).pending,
      ).toBeUndefined();
    },
  );
  await t.step("a revoke ends both the approval and the pending fact", () => {
    const status = gateStatus(
      [
        pending(digest("1"), 0),
        approval(digest("1"), 1000),
        expiredRecord(gate, { id: "x-1", now: 2000 }),
      ],
      sets,
      HOUR,
    );
    expect(status).toMatchObject({ approvals: [] });
    expect(status.pending).toBeUndefined();
  });
});

Deno.test("gateStatus() tells a person's revoke from the settle chant-wave wrote", async (t) => {
  const revoke = (by: string, now: number, note?: string) =>
    expiredRecord({ ...gate, by, ...(note ? { note } : {}) }, {
      id: `e-${now}`,
      now,
    });
  const settle = (now: number) => revoke(SETTLED_BY, now, SETTLED_NOTE);
  const at = (ms: number) => new Date(ms).toISOString();
  await t.step("a settle only: settled, not revoked", () => {
    const status = gateStatus([settle(HOUR)], new Map(), 2 * HOUR);
    expect(status.revokedAt).toBeUndefined();
    expect(status.settledAt).toBe(at(HOUR));
  });
  await t.step("a revoke, then a settle: both", () => {
    const status = gateStatus(
      [revoke("bob", HOUR), settle(2 * HOUR)],
      new Map(),
      3 * HOUR,
    );
    expect(status.revokedAt).toBe(at(HOUR));
    expect(status.settledAt).toBe(at(2 * HOUR));
  });
  await t.step("a settle, then a revoke: the revoke", () => {
    const status = gateStatus(
      [settle(HOUR), revoke("bob", 2 * HOUR)],
      new Map(),
      3 * HOUR,
    );
    expect(status.revokedAt).toBe(at(2 * HOUR));
    expect(status.settledAt).toBeUndefined();
  });
  await t.step(
    "a revoke with the settle's note by someone else is a revoke",
    () => {
      const status = gateStatus(
        [revoke("mallory", HOUR, SETTLED_NOTE)],
        new Map(),
        2 * HOUR,
      );
      expect(status.revokedAt).toBe(at(HOUR));
      expect(status.settledAt).toBeUndefined();
    },
  );
});
