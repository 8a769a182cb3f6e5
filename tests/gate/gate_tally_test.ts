// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  type ApprovalVerdict,
  type GateRules,
  tallyApprovals,
  tallyLine,
  verdictOf,
} from "../../src/gate/gate_tally.ts";
import { approval, D } from "../ledger/_records.ts";

function rules(
  required: number,
  verdicts: Record<string, Partial<ApprovalVerdict>>,
): GateRules {
  return {
    required,
    verdicts: new Map(
      Object.entries(verdicts).map(([id, v]) => [id, {
        principal: v.principal ?? id,
        display: v.display ?? v.principal ?? id,
        counts: v.counts ?? true,
        ...v,
      }]),
    ),
  };
}

Deno.test("verdictOf() counts every approval by its by without rules", async (t) => {
  await t.step("no rules: the normalised by", () => {
    expect(verdictOf(approval("a1", 1, D, " Ann@X "), undefined)).toEqual({
      principal: "ann@x",
      display: " Ann@X ",
      counts: true,
    });
  });
  await t.step("rules without a verdict for it: not judged", () => {
    expect(verdictOf(approval("a1", 1), rules(1, {}))).toMatchObject({
      counts: false,
      why: "not judged",
    });
  });
});

Deno.test("tallyApprovals() names each principal once and says why others do not count", async (t) => {
  const a1 = approval("a1", 1);
  const a2 = approval("a2", 2);
  const a3 = approval("a3", 3);
  const a4 = approval("a4", 4);
  await t.step("the same principal twice counts once, in ledger order", () => {
    expect(
      tallyApprovals(
        [a1, a2, a3],
        rules(2, {
          a1: { principal: "ann" },
          a2: { principal: "ann", display: "Ann" },
          a3: { principal: "bob" },
        }),
      ),
    ).toEqual({ required: 2, counted: ["ann", "bob"], refused: [] });
  });
  await t.step("refusals, once per name and reason", () => {
    expect(
      tallyApprovals(
        [a1, a2, a3, a4],
        rules(3, {
          a1: { principal: "ann" },
          a2: { principal: "eve", counts: false, why: "the change's author" },
          a3: { principal: "eve", counts: false, why: "the change's author" },
          a4: { principal: "mal", counts: false, why: "not signed" },
        }),
      ),
    ).toEqual({
      required: 3,
      counted: ["ann"],
      refused: [
        { display: "eve", why: "the change's author" },
        { display: "mal", why: "not signed" },
      ],
    });
  });
  await t.step("a refusal of someone who counts otherwise is left out", () => {
    expect(
      tallyApprovals(
        [a1, a2],
        rules(2, {
          a1: { principal: "ann", counts: false, why: "not signed" },
          a2: { principal: "ann" },
        }),
      ),
    ).toEqual({ required: 2, counted: ["ann"], refused: [] });
  });
});

Deno.test("tallyApprovals() counts an identity once, and names who it is", async (t) => {
  const [a1, a2, a3, a4] = [1, 2, 3, 4].map((n) => approval(`a${n}`, n));
  const sealed = (
    principal: string,
    fingerprint: string,
    identity: string,
  ) => ({
    principal,
    sealedBy: { principal, fingerprint },
    identity,
  });
  await t.step("two principals of one key: the same key", () => {
    expect(
      tallyApprovals(
        [a1, a2, a3],
        rules(2, {
          a1: sealed("ann@example.com", "SHA256:A", "key:A"),
          a2: sealed("bob@example.com", "SHA256:A", "key:A"),
          a3: sealed("ann@example.com", "SHA256:A", "key:A"),
        }),
      ),
    ).toEqual({
      required: 2,
      counted: ["ann@example.com"],
      refused: [{
        display: "bob@example.com",
        why: "the same key as ann@example.com",
      }],
    });
  });
  await t.step("two keys of one identity: the same signer", () => {
    expect(
      tallyApprovals(
        [a1, a2, a4],
        rules(2, {
          a1: sealed("ann@example.com", "SHA256:A", "key:A"),
          a2: sealed("a@corp.example", "SHA256:B", "key:A"),
          a4: sealed("cy@example.com", "SHA256:C", "key:C"),
        }),
      ),
    ).toEqual({
      required: 2,
      counted: ["ann@example.com", "cy@example.com"],
      refused: [{
        display: "a@corp.example",
        why: "the same signer as ann@example.com in the signers file",
      }],
    });
  });
  await t.step("a login and the bare login on a ledger gate", () => {
    expect(
      tallyApprovals(
        [a1, a2],
        rules(2, {
          a1: { principal: "ann" },
          a2: { principal: "login:ann", identity: "ann" },
        }),
      ),
    ).toEqual({
      required: 2,
      counted: ["ann"],
      refused: [{ display: "login:ann", why: "the same approver as ann" }],
    });
  });
});

Deno.test("tallyLine() words the tally as SPEC.md §12.1 does", async (t) => {
  await t.step("the SPEC example", () => {
    expect(tallyLine({
      required: 3,
      counted: ["ann@example.com", "bob@example.com"],
      refused: [{ display: "eve@example.com", why: "the change's author" }],
    }, "sha256:1")).toBe(
      "2 of 3 approvals of sha256:1: ann@example.com, bob@example.com; not counted: eve@example.com (the change's author)",
    );
  });
  await t.step("none counted, one required", () => {
    expect(tallyLine({
      required: 1,
      counted: [],
      refused: [{ display: "ann", why: "not signed" }],
    }, "sha256:1")).toBe(
      "0 of 1 approval of sha256:1; not counted: ann (not signed)",
    );
  });
  await t.step("at most ten refusals are named", () => {
    const refused = Array.from(
      { length: 12 },
      (_, i) => ({ display: `p${i}`, why: "not signed" }),
    );
    expect(tallyLine({ required: 2, counted: [], refused }, "d")).toMatch(
      /p9 \(not signed\), and 2 more$/,
    );
  });
});
