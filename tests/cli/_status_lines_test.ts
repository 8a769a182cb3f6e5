// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { statusLines, type WaveStatus } from "../../src/cli/_status_lines.ts";

const digest = (c: string) => `sha256:${c.repeat(64)}`;
const HEAD = "a1b2c3d4e5f6".padEnd(40, "0");

const dev: WaveStatus = {
  wave: 1,
  name: "dev",
  gate: "tf-wave-1",
  decision: {
    decisionId: "d-1",
    status: "not-required",
    digest: digest("1"),
    createdAt: "2026-12-01T10:00:00.000Z",
    policy: "never",
    base: "b".repeat(40),
    baseRule: "chain",
  },
  completed: { head: HEAD, at: "2026-12-01T10:01:00.000Z" },
  approvals: [],
};
const prod: WaveStatus = {
  wave: 2,
  name: "prod",
  gate: "tf-wave-2",
  pending: {
    planDigest: digest("2"),
    timestamp: "2026-12-01T10:02:00.000Z",
    expiresAt: "2026-12-03T10:02:00.000Z",
    members: 3,
  },
  approvals: [],
};

Deno.test("statusLines() prints a table, the details and the next step", async (t) => {
  await t.step("a wave that waits: a short digest, and approve next", () => {
    expect(statusLines([dev, prod], { specFile: "waves.json" })).toEqual([
      "wave  name  decision here  completed        waits for an approval of",
      "1     dev   not-required   at a1b2c3d4e5f6  -",
      "2     prod  none           never            sha256:222222222222 (3 plans)",
      'wave 1 "dev" (gate tf-wave-1)',
      "  decision: not-required, sha256:111111111111, policy never, 2026-12-01T10:00:00.000Z, base bbbbbbbbbbbb (the strictest since the last decision)",
      "  completed: at a1b2c3d4e5f6, 2026-12-01T10:01:00.000Z",
      'wave 2 "prod" (gate tf-wave-2)',
      "  waiting: sha256:222222222222 since 2026-12-01T10:02:00.000Z, until 2026-12-03T10:02:00.000Z",
      'next: review and approve wave 2 "prod": chant-wave show --spec waves.json --wave 2, then chant-wave approve --spec waves.json --wave 2',
    ]);
  });
  await t.step(
    "a revoke and the settle after it, each said for what it is",
    () => {
      const lines = statusLines([{
        ...prod,
        revokedAt: "2026-12-01T09:00:00.000Z",
        settledAt: "2026-12-01T09:30:00.000Z",
      }], { specFile: "waves.json" });
      expect(lines).toContain("  revoked: 2026-12-01T09:00:00.000Z");
      expect(lines).toContain(
        "  settled: 2026-12-01T09:30:00.000Z (every approval before it was spent: its plans applied)",
      );
    },
  );
  await t.step("the printed commands carry the ledger", () => {
    expect(
      statusLines([prod], { specFile: "my waves.json", ledgerArg: "git" })
        .at(-1),
    ).toBe(
      "next: review and approve wave 2 \"prod\": chant-wave show --spec 'my waves.json' --wave 2 --ledger git, then chant-wave approve --spec 'my waves.json' --wave 2 --ledger git",
    );
  });
  await t.step("nothing waits: run the first wave never completed", () => {
    const ran = { ...prod, pending: undefined };
    expect(statusLines([dev, ran], { specFile: "w.json" }).at(-1)).toBe(
      'next: run wave 2 "prod": chant-wave run --spec w.json --wave 2',
    );
  });
  await t.step("every wave completed: nothing to do", () => {
    expect(statusLines([dev], { specFile: "w.json" }).at(-1)).toBe(
      "next: nothing waits for an approval, and every wave has completed",
    );
  });
  await t.step("completed at an older commit: run it again at HEAD", () => {
    const head = "c".repeat(40);
    const moved = {
      ...dev,
      atHead: { head, complete: false, missing: ["the whole-wave job"] },
    };
    expect(statusLines([moved], { specFile: "w.json" }).at(-1)).toBe(
      'next: run wave 1 "dev" (completed at a1b2c3d4e5f6, not at HEAD cccccccccccc): chant-wave run --spec w.json --wave 1',
    );
    const done = { ...dev, atHead: { head, complete: true, missing: [] } };
    expect(statusLines([done, prod], { specFile: "w.json" }).at(-1)).toMatch(
      /^next: review and approve wave 2 "prod": /,
    );
    expect(statusLines([done], { specFile: "w.json" }).at(-1)).toBe(
      "next: nothing waits for an approval, and every wave has completed at cccccccccccc",
    );
  });
  await t.step(
    "short of approvers: the tally, and --sign on a sealed gate",
    () => {
      const short: WaveStatus = {
        ...prod,
        rules: {
          base: "c".repeat(40),
          mode: "sealed",
          signers: [".chant-wave/allowed_signers"],
          required: 2,
          allowed: [],
          selfApproval: true,
          reason: "read at cccccccccccc",
        },
        tally: {
          digest: digest("2"),
          approved: false,
          required: 2,
          counted: ["ann"],
          refused: [],
        },
      };
      expect(statusLines([short], { specFile: "w.json" }).at(-1)).toBe(
        'next: review and approve wave 2 "prod" (1 of 2 approvals of sha256:222222222222: ann): chant-wave show --spec w.json --wave 2, then chant-wave approve --spec w.json --wave 2 --sign',
      );
    },
  );
  await t.step(
    "rules not read here: it waits, and says why instead of a tally",
    () => {
      const why =
        'the waiting job\'s HEAD 0123456789ab is not in this checkout, which has no remote "origin" to fetch it from; fetch it (git fetch origin 0123456789abcdef0123456789abcdef01234567) and run this again';
      const unread: WaveStatus = { ...prod, rulesUnread: why };
      expect(statusLines([unread], { specFile: "w.json" }).at(-1)).toBe(
        `next: wave 2 "prod" waits for sha256:222222222222, whose approvals cannot be judged here: ${why}`,
      );
    },
  );
  await t.step("a plan claimed with no outcome: approve it again", () => {
    const stuck: WaveStatus = {
      ...prod,
      pending: undefined,
      approvals: [{
        id: "ap-1",
        planDigest: digest("2"),
        by: "ann",
        timestamp: "2026-12-01T10:05:00.000Z",
        plans: { applied: 2, failed: 0, unsettled: 1, left: 0 },
        appliedBy: ["d-2"],
      }],
    };
    expect(
      statusLines([stuck], { specFile: "w.json", ledgerArg: "git" }).at(-1),
    ).toBe(
      `next: wave 2 "prod" has 1 plan claimed under the approval by ann with no outcome: if its job still runs, wait for it; if it died, approve the plan again: chant-wave approve --spec w.json --wave 2 --ledger git --plan ${
        digest("2")
      }`,
    );
  });
  await t.step("approvals with where their plans stand", () => {
    const approved: WaveStatus = {
      ...prod,
      pending: undefined,
      approvals: [{
        id: "ap-1",
        planDigest: digest("2"),
        by: "ann",
        timestamp: "2026-12-01T10:05:00.000Z",
        plans: { applied: 2, failed: 1, unsettled: 0, left: 0 },
        appliedBy: ["d-2"],
      }],
    };
    expect(statusLines([approved], { specFile: "w.json" })).toContain(
      "  approval: sha256:222222222222 by ann at 2026-12-01T10:05:00.000Z, plans: 2 applied, 1 failed, 0 unsettled, 0 left",
    );
  });
});

Deno.test("statusLines() shows the rules at base, the tally and who sealed each approval", () => {
  const sealed: WaveStatus = {
    ...prod,
    rules: {
      base: "c".repeat(40),
      mode: "sealed",
      signers: [".chant-wave/allowed_signers"],
      required: 2,
      allowed: [],
      selfApproval: true,
      reason: 'read at cccccccccccc: wave 2 "prod" by name and position',
    },
    tally: {
      digest: digest("2"),
      approved: false,
      required: 2,
      counted: ["ann@example.com"],
      refused: [{ principal: "eve@example.com", why: "not signed" }],
    },
    approvals: [
      {
        id: "a1",
        planDigest: digest("2"),
        by: "ann@example.com",
        timestamp: "2026-12-01T10:03:00.000Z",
        appliedBy: [],
        seal: {
          principal: "ann@example.com",
          fingerprint: "SHA256:abc",
          verified: true,
        },
        counts: true,
      },
      {
        id: "a2",
        planDigest: digest("2"),
        by: "eve@example.com",
        timestamp: "2026-12-01T10:04:00.000Z",
        appliedBy: [],
        counts: false,
        why: "not signed",
      },
    ],
  };
  const lines = statusLines([sealed], { specFile: "waves.json" });
  const d12 = digest("2").slice(0, 19);
  expect(lines).toContain(
    '  rules: sealed by .chant-wave/allowed_signers, 2 distinct approvers, anyone, self-approval allowed (read at cccccccccccc: wave 2 "prod" by name and position); only signatures by keys listed at base count: code the change runs in a job cannot make one',
  );
  expect(lines).toContain(
    `  tally: 1 of 2 approvals of ${d12}: ann@example.com; not counted: eve@example.com (not signed)`,
  );
  expect(lines).toContain(
    `  approval: ${d12} by ann@example.com, sealed by ann@example.com (SHA256:abc) at 2026-12-01T10:03:00.000Z, covers its digest as a whole`,
  );
  expect(lines).toContain(
    `  approval: ${d12} by eve@example.com at 2026-12-01T10:04:00.000Z, not counted: not signed, covers its digest as a whole`,
  );
});
