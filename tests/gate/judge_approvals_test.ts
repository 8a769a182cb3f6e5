// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tallyApprovals } from "../../src/gate/gate_tally.ts";
import { approvalRecord } from "../../src/gate/records.ts";
import type { ApprovalRules } from "../../src/gate/approval_at_base.ts";
import {
  judgeApprovals,
  type JudgeInput,
  principalAllowed,
  principalMatches,
  type SignersAtBase,
} from "../../src/gate/judge_approvals.ts";
import { parseAllowedSigners } from "../../src/seal/allowed_signers.ts";
import { approvalPayload } from "../../src/seal/approval_payload.ts";
import { sshSign, testKeys } from "../seal/_ssh_keygen.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const REF = { sha: SHA, path: ".chant-wave/allowed_signers" };
const NOW = Date.UTC(2026, 10, 30, 10);
const D = "sha256:" + "d".repeat(64);

const LEDGER: ApprovalRules = {
  mode: "ledger",
  signers: [],
  required: 1,
  allowed: [],
  selfApproval: true,
  source: "base",
  reason: "read at 0123456789ab",
};
const SEALED: ApprovalRules = { ...LEDGER, mode: "sealed", signers: [REF] };

function approvalBy(id: string, by: string, minute = 1) {
  return approvalRecord(
    { name: "tf", gate: "tf-wave-1", planDigest: D, by },
    { id, now: Date.UTC(2026, 10, 30, 9, minute) },
  );
}

function input(rules: ApprovalRules, extra: Partial<JudgeInput> = {}) {
  return {
    rules,
    signers: [],
    people: { status: "known" as const, people: [], commits: [] },
    actors: [],
    now: NOW,
    ...extra,
  };
}

Deno.test("judgeApprovals() on a ledger gate: the principal is the by", async (t) => {
  await t.step("anyone counts, normalised", async () => {
    const rules = await judgeApprovals(
      [approvalBy("a1", " Ann@Example.com")],
      input(LEDGER),
    );
    expect(rules).toEqual({
      required: 1,
      verdicts: new Map([["a1", {
        principal: "ann@example.com",
        display: " Ann@Example.com",
        counts: true,
      }]]),
    });
  });
  await t.step("allowed filters principals", async () => {
    const rules = await judgeApprovals(
      [approvalBy("a1", "ann@example.com"), approvalBy("a2", "bob@ops.x")],
      input({ ...LEDGER, allowed: [["*@ops.x"]] }),
    );
    expect(rules.verdicts.get("a1")).toMatchObject({
      counts: false,
      why: "not in approvers.allowed",
    });
    expect(rules.verdicts.get("a2")?.counts).toBe(true);
  });
  await t.step(
    "no self-approval: authors, committers and CI actors",
    async () => {
      const people = {
        status: "known" as const,
        commits: [],
        people: [
          { who: "Eve", role: "author" as const },
          { who: "eve@example.com", role: "author" as const },
          { who: "cid@example.com", role: "committer" as const },
        ],
      };
      const rules = await judgeApprovals(
        [
          approvalBy("a1", "EVE@example.com"),
          approvalBy("a2", "eve"),
          approvalBy("a3", "cid@example.com"),
          approvalBy("a4", "carol"),
          approvalBy("a5", " Login:Carol"),
          approvalBy("a6", "dave"),
          approvalBy("a7", "login:dave"),
        ],
        input({ ...LEDGER, selfApproval: false }, {
          people,
          actors: ["Carol"],
        }),
      );
      expect([...rules.verdicts.values()].map((v) => v.why)).toEqual([
        "the change's author",
        "the change's author",
        "the change's committer",
        "started the job that ran this change",
        "started the job that ran this change",
        undefined,
        undefined,
      ]);
    },
  );
  await t.step(
    "the change's people count when self-approval is allowed",
    async () => {
      const rules = await judgeApprovals(
        [approvalBy("a1", "eve")],
        input(LEDGER, {
          people: {
            status: "known",
            people: [{ who: "eve", role: "author" }],
            commits: [],
          },
          actors: ["eve"],
        }),
      );
      expect(rules.verdicts.get("a1")?.counts).toBe(true);
    },
  );
  await t.step("a change too long to read refuses everyone", async () => {
    const rules = await judgeApprovals(
      [approvalBy("a1", "dave")],
      input({ ...LEDGER, selfApproval: false }, {
        people: { status: "too-long", commits: 20_001 },
      }),
    );
    expect(rules.verdicts.get("a1")?.why).toBe(
      "the change has more than 20000 commits, so who made it is not known",
    );
  });
  await t.step("a by of white space names no approver", async () => {
    const rules = await judgeApprovals([approvalBy("a1", "  ")], input(LEDGER));
    expect(rules.verdicts.get("a1")?.why).toBe("names no approver");
  });
});

Deno.test("judgeApprovals() on a sealed gate: the principal is the verified signer", async (t) => {
  await using keys = await testKeys();
  const { ed25519: ann, ecdsa: other } = keys.keys;
  const signers: SignersAtBase = {
    ref: REF,
    status: "read",
    file: parseAllowedSigners(`ann@example.com ${ann.publicKey}\n`),
  };
  const sealed = async (id: string, by: string, key = ann) => {
    const record = approvalBy(id, by);
    const signature = await sshSign(key, "chant-wave", approvalPayload(record));
    return {
      ...record,
      seal: { principal: by, publicKey: key.publicKey, signature },
    };
  };

  await t.step(
    "a listed key: counts, with the signer and fingerprint",
    async () => {
      const rules = await judgeApprovals(
        [await sealed("a1", "Ann@Example.com")],
        input(SEALED, { signers: [signers] }),
      );
      const verdict = rules.verdicts.get("a1")!;
      expect(verdict).toMatchObject({
        principal: "ann@example.com",
        display: "ann@example.com",
        counts: true,
      });
      expect(verdict.sealedBy?.fingerprint).toMatch(/^SHA256:/);
    },
  );
  await t.step("the refusals the waiting message names", async () => {
    const unsigned = approvalBy("a1", "ann@example.com");
    const unlisted = await sealed("a2", "ann@example.com", other);
    const edited = { ...await sealed("a3", "ann@example.com"), note: "x" };
    const tampered = {
      ...await sealed("a4", "ann@example.com"),
      planDigest: "sha256:" + "e".repeat(64),
    };
    const rules = await judgeApprovals(
      [unsigned, unlisted, edited, tampered],
      input(SEALED, { signers: [signers] }),
    );
    expect([...rules.verdicts.values()].map((v) => [v.display, v.why]))
      .toEqual([
        ["ann@example.com", "not signed"],
        ["ann@example.com", "key not listed for ann@example.com"],
        ["ann@example.com", undefined],
        ["ann@example.com", "signature does not verify"],
      ]);
  });
  await t.step("no signers file at base: nothing counts", async () => {
    const why =
      "the gate is sealed, and there is no signers file .chant-wave/allowed_signers at 0123456789ab";
    const rules = await judgeApprovals(
      [await sealed("a1", "ann@example.com")],
      input(SEALED, { signers: [{ ref: REF, status: "missing", why }] }),
    );
    expect(rules.verdicts.get("a1")).toMatchObject({ counts: false, why });
  });
  await t.step("a verified signer is still held to the rules", async () => {
    const rules = await judgeApprovals(
      [await sealed("a1", "ann@example.com")],
      input({ ...SEALED, selfApproval: false }, {
        signers: [signers],
        people: {
          status: "known",
          people: [{ who: "ann@example.com", role: "committer" }],
          commits: [],
        },
      }),
    );
    expect(rules.verdicts.get("a1")).toMatchObject({
      counts: false,
      why: "the change's committer",
    });
    expect(rules.verdicts.get("a1")?.sealedBy?.principal).toBe(
      "ann@example.com",
    );
  });
});

Deno.test("judgeApprovals() on a ledger gate: login:x and x are one approver", async () => {
  const rules = await judgeApprovals(
    [approvalBy("a1", "login:Ann"), approvalBy("a2", "ann")],
    input(LEDGER),
  );
  expect(rules.verdicts.get("a1")).toMatchObject({
    principal: "login:ann",
    identity: "ann",
  });
  expect(rules.verdicts.get("a2")).toMatchObject({ principal: "ann" });
  expect(rules.verdicts.get("a2")?.identity).toBeUndefined();
});

Deno.test("judgeApprovals() on a sealed gate: a key is one person", async (t) => {
  await using keys = await testKeys();
  const { ed25519: one, ecdsa: two, rsa: three } = keys.keys;
  const sealedBy = async (id: string, by: string, key: typeof one) => {
    const record = approvalBy(id, by);
    const signature = await sshSign(key, "chant-wave", approvalPayload(record));
    return {
      ...record,
      seal: { principal: by, publicKey: key.publicKey, signature },
    };
  };
  const file = (text: string): SignersAtBase => ({
    ref: REF,
    status: "read",
    file: parseAllowedSigners(text),
  });
  const identity = (rules: Awaited<ReturnType<typeof judgeApprovals>>) =>
    [...rules.verdicts.values()].map((v) => v.identity);

  await t.step("two principals of one key: one identity", async () => {
    const rules = await judgeApprovals(
      [
        await sealedBy("a1", "ann@example.com", one),
        await sealedBy("a2", "bob@example.com", one),
        await sealedBy("a3", "cy@example.com", two),
      ],
      input(SEALED, {
        signers: [file(
          `ann@example.com,bob@example.com ${one.publicKey}\ncy@example.com ${two.publicKey}\n`,
        )],
      }),
    );
    const [a, b, c] = identity(rules);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect([...rules.verdicts.values()].every((v) => v.counts)).toBe(true);
  });
  await t.step(
    "two keys of one principal, across lines and files: one identity",
    async () => {
      const rules = await judgeApprovals(
        [
          await sealedBy("a1", "ann@example.com", one),
          await sealedBy("a2", "ann@corp.example", two),
          await sealedBy("a3", "login:ann", three),
        ],
        input(SEALED, {
          signers: [
            file(
              `ann@example.com ${one.publicKey}\nann@example.com,ann@corp.example ${two.publicKey}\nann,login:ann ${three.publicKey}\n`,
            ),
            file(
              `ann@example.com ${one.publicKey}\nann@corp.example ${two.publicKey}\nlogin:ann ${three.publicKey}\nann@example.com,ann ${one.publicKey}\n`,
            ),
          ],
        }),
      );
      expect(new Set(identity(rules)).size).toBe(1);
    },
  );
  await t.step(
    "a login beside the e-mail: the CI actor's key does not count",
    async () => {
      const rules = await judgeApprovals(
        [
          await sealedBy("a1", "dana@example.com", one),
          await sealedBy("a2", "cy@example.com", two),
        ],
        input({ ...SEALED, selfApproval: false }, {
          signers: [file(
            `dana@example.com,login:dana ${one.publicKey}\ncy@example.com ${two.publicKey}\n`,
          )],
          actors: ["Dana"],
        }),
      );
      expect([...rules.verdicts.values()].map((v) => [v.counts, v.why]))
        .toEqual([
          [false, "started the job that ran this change, as login:dana"],
          [true, undefined],
        ]);
    },
  );
  await t.step(
    "any principal of the identity is checked against the change's people",
    async () => {
      const rules = await judgeApprovals(
        [await sealedBy("a1", "d@corp.example", one)],
        input({ ...SEALED, selfApproval: false }, {
          signers: [file(
            `dana@example.com ${one.publicKey}\nd@corp.example ${one.publicKey}\n`,
          )],
          people: {
            status: "known",
            people: [{ who: "dana@example.com", role: "author" }],
            commits: [],
          },
        }),
      );
      expect(rules.verdicts.get("a1")?.why).toBe(
        "the change's author, as dana@example.com",
      );
    },
  );
  await t.step(
    "a key listed for a pattern: the pattern is matched",
    async () => {
      const rules = await judgeApprovals(
        [await sealedBy("a1", "ops@example.com", one)],
        input({ ...SEALED, selfApproval: false }, {
          signers: [file(`*@example.com ${one.publicKey}\n`)],
          people: {
            status: "known",
            people: [{ who: "dana@example.com", role: "committer" }],
            commits: [],
          },
        }),
      );
      expect(rules.verdicts.get("a1")?.why).toBe(
        "the change's committer, as *@example.com",
      );
    },
  );
});

Deno.test("judgeApprovals() on a forge gate: an unsigned approval counts as the forge confirmed it, a signed one as a sealed gate judges it", async (t) => {
  await using keys = await testKeys();
  const { ed25519: ann } = keys.keys;
  const signers: SignersAtBase = {
    ref: REF,
    status: "read",
    file: parseAllowedSigners(`ann@example.com ${ann.publicKey}\n`),
  };
  const FORGE: ApprovalRules = { ...LEDGER, mode: "forge", signers: [REF] };
  await t.step("confirmed: the forge's login is the principal", async () => {
    const rules = await judgeApprovals([approvalBy("a1", "ANN")], {
      ...input(FORGE, { signers: [signers] }),
      confirmed: new Map([["a1", { confirmed: true, login: "ann" }]]),
    });
    expect(rules.verdicts.get("a1")).toEqual({
      principal: "login:ann",
      display: "ann",
      counts: true,
      identity: "ann",
    });
  });
  await t.step(
    "confirmed logins match login: patterns and bare ones",
    async () => {
      for (
        const [allowed, counts] of [
          [["login:*"], true],
          [["login:ann"], true],
          [["ann"], true],
          [["login:bob", "*@example.com"], false],
        ] as const
      ) {
        const rules = await judgeApprovals([approvalBy("a1", "ann")], {
          ...input({ ...FORGE, allowed: [[...allowed]] }, {
            signers: [signers],
          }),
          confirmed: new Map([["a1", { confirmed: true, login: "ann" }]]),
        });
        expect([allowed, rules.verdicts.get("a1")?.counts]).toEqual([
          allowed,
          counts,
        ]);
      }
    },
  );
  await t.step("not confirmed, or not asked: it does not count", async () => {
    const rules = await judgeApprovals(
      [approvalBy("a1", "mallory"), approvalBy("a2", "bob")],
      {
        ...input(FORGE, { signers: [signers] }),
        confirmed: new Map([["a1", { confirmed: false, why: "no review" }]]),
      },
    );
    expect(
      [...rules.verdicts.values()].map((v) => [v.display, v.counts, v.why]),
    )
      .toEqual([
        ["mallory", false, "no review"],
        [
          "bob",
          false,
          "the forge was not asked to confirm it here; the gate's CI jobs ask it",
        ],
      ]);
  });
  await t.step("a confirmed login is still held to the rules", async () => {
    const rules = await judgeApprovals([approvalBy("a1", "ann")], {
      ...input({ ...FORGE, allowed: [["*@example.com"]] }),
      confirmed: new Map([["a1", { confirmed: true, login: "ann" }]]),
    });
    expect(rules.verdicts.get("a1")).toMatchObject({
      counts: false,
      why: "not in approvers.allowed",
    });
  });
  await t.step(
    "signed by a key listed at base: counts without the forge",
    async () => {
      const record = approvalBy("a1", "ann@example.com");
      const signature = await sshSign(
        ann,
        "chant-wave",
        approvalPayload(record),
      );
      const rules = await judgeApprovals(
        [{
          ...record,
          seal: {
            principal: "ann@example.com",
            publicKey: ann.publicKey,
            signature,
          },
        }],
        input(FORGE, { signers: [signers] }),
      );
      expect(rules.verdicts.get("a1")).toMatchObject({
        principal: "ann@example.com",
        counts: true,
      });
    },
  );
});

Deno.test("judgeApprovals() on a forge gate: a confirmed login and the key that lists it are one person", async () => {
  await using keys = await testKeys();
  const { ed25519: ann } = keys.keys;
  const signers: SignersAtBase = {
    ref: REF,
    status: "read",
    file: parseAllowedSigners(
      `ann@example.com,login:ann ${ann.publicKey}\n`,
    ),
  };
  const FORGE: ApprovalRules = {
    ...LEDGER,
    mode: "forge",
    required: 2,
    signers: [REF],
  };
  const signed = approvalBy("a2", "ann@example.com", 2);
  const signature = await sshSign(ann, "chant-wave", approvalPayload(signed));
  const rules = await judgeApprovals([approvalBy("a1", "Ann"), {
    ...signed,
    seal: { principal: "ann@example.com", publicKey: ann.publicKey, signature },
  }], {
    ...input(FORGE, { signers: [signers] }),
    confirmed: new Map([["a1", { confirmed: true, login: "Ann" }]]),
  });
  const [review, sealed] = [rules.verdicts.get("a1"), rules.verdicts.get("a2")];
  expect(review?.counts).toBe(true);
  expect(sealed?.counts).toBe(true);
  expect(review?.identity).toBeDefined();
  expect(review?.identity).toBe(sealed?.identity);
  const tally = tallyApprovals([approvalBy("a1", "Ann"), signed], rules);
  expect(tally.counted).toHaveLength(1);
});

Deno.test("principalMatches() matches * within a word, the rest literally", async (t) => {
  const cases: [string, string, boolean][] = [
    ["ann@platform.example", "*@platform.example", true],
    ["ann@example.com", "*@platform.example", false],
    ["ann@platform.example", "ann@platform.example", true],
    ["ann@platform.example", "*", true],
    ["ann@platform.example", "a*@*.example", true],
    ["@platform.example", "*@platform.example", true],
    ["ann@platform.example", "?nn@platform.example", false],
    ["a?n@x", "a?n@x", true],
    ["a.n.n@x", "a.n.n@x", true],
    ["ann@x", "ANN@X", true],
    ["ann@x", " ann@x ", true],
    ["ann smith@x", "*@x", false],
    ["", "*", false],
  ];
  for (const [principal, pattern, want] of cases) {
    await t.step(`${JSON.stringify(principal)} ~ ${pattern}: ${want}`, () => {
      expect(principalMatches(principal, pattern)).toBe(want);
    });
  }
  await t.step("stays fast on patterns of many stars", () => {
    const principal = "a".repeat(256);
    expect(principalMatches(principal, "*a".repeat(120) + "b")).toBe(false);
  });
});

Deno.test("principalAllowed() needs a match in every list", () => {
  expect(principalAllowed("anyone", [])).toBe(true);
  expect(principalAllowed("ann@a.example", [["*@a.example"], ["ann@*"]]))
    .toBe(true);
  expect(principalAllowed("bob@a.example", [["*@a.example"], ["ann@*"]]))
    .toBe(false);
});

Deno.test("judgeApprovals() lets a --during-freeze approval through a freeze on a ledger gate, and on a forge gate only a sealed one", async (t) => {
  const during = { ...approvalBy("a1", "ann"), duringFreeze: true as const };
  await t.step("a ledger gate: it passes", async () => {
    const rules = await judgeApprovals([during], input(LEDGER));
    expect(rules.verdicts.get("a1")?.passesFreeze).toBe(true);
  });
  await t.step("an ordinary approval never does", async () => {
    const rules = await judgeApprovals(
      [approvalBy("a2", "ann")],
      input(LEDGER),
    );
    expect(rules.verdicts.get("a2")?.passesFreeze).toBeUndefined();
  });
  await t.step(
    "a forge gate: an unsigned one the forge confirmed counts, but does not pass",
    async () => {
      const FORGE: ApprovalRules = { ...LEDGER, mode: "forge", signers: [REF] };
      const rules = await judgeApprovals([during], {
        ...input(FORGE),
        confirmed: new Map([["a1", { confirmed: true, login: "ann" }]]),
      });
      expect(rules.verdicts.get("a1")?.counts).toBe(true);
      expect(rules.verdicts.get("a1")?.passesFreeze).toBeUndefined();
    },
  );
});
