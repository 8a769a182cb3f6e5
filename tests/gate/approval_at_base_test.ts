// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approvalAtBase,
  type ApprovalRules,
  describeApprovers,
  describeMode,
  describeTrust,
  strictestMode,
  strictestRules,
} from "../../src/gate/approval_at_base.ts";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const SHA2 = "fedcba9876543210fedcba9876543210fedcba98";

/** A spec text at base with the given top-level fields and waves. */
function specAt(
  top: Record<string, unknown>,
  ...waves: Record<string, unknown>[]
): string {
  return JSON.stringify({
    name: "x",
    plan: ["p", "{plan}"],
    apply: ["a"],
    ...top,
    waves,
  });
}

function read(
  text: string | undefined,
  k: number,
  name: string,
  targets: string[],
  sha = SHA,
): ApprovalRules {
  return withoutReads(readWithReads(text, k, name, targets, sha));
}

function readWithReads(
  text: string | undefined,
  k: number,
  name: string,
  targets: string[],
  sha = SHA,
): ApprovalRules {
  const spec = baseSpecOf(text, "waves.jsonc", parseSpec);
  return approvalAtBase({ sha, spec }, { k, name, targets });
}

/** The rules as the log and status show them, without their parts. */
function withoutReads(rules: ApprovalRules): ApprovalRules {
  const { reads: _, ...shown } = rules;
  return shown;
}

const DEV = { name: "dev", runs: ["dev"], approval: "ledger" };
const PROD = {
  name: "prod",
  runs: ["prod-eu", "prod-us"],
  approval: "sealed",
  approvers: { required: 2, allowed: ["*@platform.example"] },
};

Deno.test("strictestMode() orders sealed > forge > ledger", () => {
  expect(strictestMode(["forge", "ledger"])).toBe("forge");
  expect(strictestMode(["ledger", "forge"])).toBe("forge");
  expect(strictestMode(["ledger", "sealed", "forge"])).toBe("sealed");
  expect(strictestMode(["forge"])).toBe("forge");
  expect(strictestMode(["ledger"])).toBe("ledger");
});

Deno.test("approvalAtBase() reads pr-review at base as forge, with the signers file for sealed approvals", async (t) => {
  for (const value of ["forge", "pr-review"]) {
    await t.step(value, () => {
      const rules = read(
        specAt({}, { ...DEV, approval: value }),
        1,
        "dev",
        ["dev"],
      );
      expect(rules.mode).toBe("forge");
      expect(rules.signers).toEqual([
        { sha: SHA, path: ".chant-wave/allowed_signers" },
      ]);
    });
  }
  await t.step(
    "a forge base and a ledger base: forge, its signers file",
    () => {
      const forge = read(
        specAt({}, { ...DEV, approval: "forge" }),
        1,
        "dev",
        ["dev"],
        SHA2,
      );
      const ledger = read(specAt({}, DEV), 1, "dev", ["dev"]);
      expect(strictestRules([ledger, forge])).toMatchObject({
        mode: "forge",
        signers: [{ sha: SHA2, path: ".chant-wave/allowed_signers" }],
      });
    },
  );
  await t.step(
    "an unknown value at base: the spec does not parse, and with no version before it that does, a ledger gate nobody of the change may approve",
    () => {
      expect(
        read(specAt({}, { ...DEV, approval: "review" }), 1, "dev", ["dev"]),
      ).toMatchObject({ mode: "ledger", selfApproval: false });
    },
  );
});

Deno.test("approvalAtBase() reads the rules of the governing base waves", async (t) => {
  await t.step("one governing wave: its own rules", () => {
    expect(read(specAt({}, DEV, PROD), 2, "prod", ["prod-eu"])).toEqual({
      mode: "sealed",
      signers: [{ sha: SHA, path: ".chant-wave/allowed_signers" }],
      required: 2,
      allowed: [["*@platform.example"]],
      selfApproval: true,
      source: "base",
      reason: 'read at 0123456789ab: wave 2 "prod" by name and position',
    });
  });
  await t.step("a wave without fields inherits the top level", () => {
    expect(
      read(
        specAt(
          {
            approval: "sealed",
            signers: "ops/signers",
            approvers: { selfApproval: false },
          },
          { name: "dev", runs: ["dev"] },
        ),
        1,
        "dev",
        ["dev"],
      ),
    ).toMatchObject({
      mode: "sealed",
      signers: [{ sha: SHA, path: "ops/signers" }],
      required: 1,
      allowed: [],
      selfApproval: false,
    });
  });
  await t.step(
    "renaming a wave or moving a target: the strictest of all governing",
    () => {
      const rules = read(
        specAt(
          {},
          { ...DEV, approvers: { selfApproval: false, allowed: ["ann@x"] } },
          PROD,
        ),
        1,
        "renamed",
        ["dev", "prod-us"],
      );
      expect(rules).toMatchObject({
        mode: "sealed",
        required: 2,
        allowed: [["ann@x"], ["*@platform.example"]],
        selfApproval: false,
      });
      expect(rules.reason).toBe(
        'read at 0123456789ab: wave 1 "dev" by position; wave 2 "prod" by target prod-us',
      );
    },
  );
  await t.step("no wave governs: the top level at base", () => {
    expect(
      read(
        specAt({ approvers: { required: 3 } }, DEV),
        2,
        "canary",
        ["c-1"],
      ),
    ).toEqual({
      mode: "ledger",
      signers: [],
      required: 3,
      allowed: [],
      selfApproval: true,
      source: "base",
      reason: 'no wave at 0123456789ab governs wave 2 "canary": its top level',
    });
  });
  await t.step("the spec is absent: the defaults", () => {
    expect(read(undefined, 1, "dev", [])).toEqual({
      mode: "ledger",
      signers: [],
      required: 1,
      allowed: [],
      selfApproval: true,
      source: "absent-at-base",
      reason: "the spec is not in 0123456789ab",
    });
  });
  await t.step(
    "no version at or before the base parses (an unknown approval value): the strictest default someone can approve",
    () => {
      const rules = read(specAt({ approval: "quorum" }, DEV), 1, "dev", [
        "dev",
      ]);
      expect(rules).toEqual({
        mode: "ledger",
        signers: [],
        required: 1,
        allowed: [],
        selfApproval: false,
        source: "absent-at-base",
        reason: "no version of the spec at or before 0123456789ab parses",
      });
    },
  );
});

Deno.test("strictestRules() combines the rules read at several bases", async (t) => {
  const one = readWithReads(specAt({}, DEV), 1, "dev", ["dev"]);
  const two = readWithReads(
    specAt({}, { ...PROD, name: "dev", runs: ["dev"] }),
    1,
    "dev",
    ["dev"],
    SHA2,
  );
  await t.step("one read is itself", () => {
    expect(strictestRules([one])).toBe(one);
  });
  await t.step("the strictest of each rule, every sealed signers file", () => {
    expect(withoutReads(strictestRules([one, two]))).toEqual({
      mode: "sealed",
      signers: [{ sha: SHA2, path: ".chant-wave/allowed_signers" }],
      required: 2,
      allowed: [["*@platform.example"]],
      selfApproval: true,
      source: "base",
      reason:
        'read at 0123456789ab and fedcba987654: wave 1 "dev" by name and position',
    });
  });
  await t.step("rules built without their reads: each reason once", () => {
    const bare = [withoutReads(one), withoutReads(two), withoutReads(one)];
    expect(strictestRules(bare).reason).toBe(
      'read at 0123456789ab: wave 1 "dev" by name and position; and read at fedcba987654: wave 1 "dev" by name and position',
    );
  });
});

Deno.test("describeMode() and describeApprovers() word the log lines", async (t) => {
  await t.step("modes", () => {
    expect(describeMode({ mode: "ledger", signers: [] })).toBe("ledger");
    expect(describeMode({
      mode: "sealed",
      signers: [{ sha: SHA, path: ".chant-wave/allowed_signers" }],
    })).toBe("sealed by .chant-wave/allowed_signers");
    expect(describeMode({
      mode: "sealed",
      signers: [{ sha: SHA, path: "a" }, { sha: SHA2, path: "b" }],
    })).toBe("sealed by a at 0123456789ab and b at fedcba987654");
    expect(describeMode({
      mode: "forge",
      signers: [{ sha: SHA, path: ".chant-wave/allowed_signers" }],
    })).toBe("forge, or sealed by .chant-wave/allowed_signers");
  });
  await t.step("approvers", () => {
    expect(describeApprovers({ required: 1, allowed: [], selfApproval: true }))
      .toBe("1 approver, anyone, self-approval allowed");
    expect(describeApprovers({
      required: 2,
      allowed: [["*@platform.example"]],
      selfApproval: false,
    })).toBe(
      "2 distinct approvers, allowed *@platform.example, no self-approval",
    );
    expect(describeApprovers({
      required: 1,
      allowed: [["a@x", "b@x"], ["*@x"]],
      selfApproval: true,
    })).toBe("1 approver, allowed [a@x, b@x] and [*@x], self-approval allowed");
  });
});

Deno.test("describeTrust() says, per mode, whether code in the job can approve", () => {
  expect(describeTrust("ledger")).toBe(
    "any approval in the ledger counts, and its approver is whoever --by names: code the change runs in a job can write one, so use sealed or forge for production waves",
  );
  expect(describeTrust("forge")).toBe(
    "only approvals the forge confirms, or sealed ones, count: code the change runs in a job cannot make one",
  );
  expect(describeTrust("sealed")).toBe(
    "only signatures by keys listed at base count: code the change runs in a job cannot make one",
  );
});
