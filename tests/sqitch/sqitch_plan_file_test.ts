// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import {
  judgeScript,
  type PendingChange,
  pendingChanges,
  sqitchPlanFile,
} from "../../src/sqitch/sqitch_plan_file.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

function change(id: string, name: string, script: string): PendingChange {
  return { id, name, script: judgeScript(new TextEncoder().encode(script)) };
}

const USERS = change(A, "users", "CREATE TABLE users (id int);\n");
const EMAILS = change(B, "emails", "CREATE TABLE emails (id int);\n");

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

Deno.test("sqitchPlanFile() digests the project, the database's change and each pending change", async (t) => {
  await t.step("the digest is SHA-256 of the specified JSON", () => {
    const plan = sqitchPlanFile({
      project: "flipr",
      deployed: C,
      pending: [USERS],
      honourMarks: false,
    });
    const covered = JSON.stringify({
      kind: "sqitch-plan",
      project: "flipr",
      deployed: C,
      changes: [{
        id: A,
        name: "users",
        deploy: `sha256:${sha256("CREATE TABLE users (id int);\n")}`,
      }],
    });
    expect(plan.planDigest).toBe(`sha256:${sha256(covered)}`);
  });
  const digest = (input: Partial<Parameters<typeof sqitchPlanFile>[0]>) =>
    sqitchPlanFile({
      project: "flipr",
      deployed: null,
      pending: [USERS, EMAILS],
      honourMarks: false,
      ...input,
    }).planDigest;
  const base = digest({});
  await t.step("the same state plans the same digest", () => {
    expect(digest({})).toBe(base);
  });
  await t.step("what marks count does not move it", () => {
    expect(digest({ honourMarks: true })).toBe(base);
  });
  const moved: [string, Partial<Parameters<typeof sqitchPlanFile>[0]>][] = [
    [
      "an edited deploy script",
      {
        pending: [
          USERS,
          change(B, "emails", "CREATE TABLE emails (id bigint);\n"),
        ],
      },
    ],
    ["another change added", {
      pending: [USERS, EMAILS, change(C, "x", "")],
    }],
    ["a database at another change", { deployed: C }],
    ["another project", { project: "other" }],
    ["a renamed change", { pending: [USERS, { ...EMAILS, name: "mail" }] }],
  ];
  for (const [name, input] of moved) {
    await t.step(
      `${name} moves it`,
      () => expect(digest(input)).not.toBe(base),
    );
  }
});

Deno.test("sqitchPlanFile() says what it deploys, in plan order", async (t) => {
  await t.step("changes, the summary and the apply state", () => {
    const { planDigest: _, ...rest } = sqitchPlanFile({
      project: "flipr",
      deployed: C,
      pending: [USERS, EMAILS],
      honourMarks: false,
    });
    expect(rest).toEqual({
      destructive: false,
      empty: false,
      summary: "2 changes to deploy",
      changes: [
        { address: "users", action: "deploy" },
        { address: "emails", action: "deploy" },
      ],
      sqitch: { project: "flipr", deployed: C, deployTo: B },
    });
  });
  await t.step("nothing pending: empty, nothing to deploy to", () => {
    const plan = sqitchPlanFile({
      project: "flipr",
      deployed: B,
      pending: [],
      honourMarks: false,
    });
    expect([plan.empty, plan.summary, plan.changes, plan.sqitch]).toEqual([
      true,
      "0 changes to deploy",
      [],
      { project: "flipr", deployed: B, deployTo: null },
    ]);
  });
});

Deno.test("sqitchPlanFile() is destructive when a script is, unless its mark counts", async (t) => {
  const drop = change(C, "drop_old", "BEGIN;\nDROP TABLE old;\nTRUNCATE x;\n");
  const marked = change(
    C,
    "drop_old",
    "-- chant-wave: not destructive\nDROP TABLE old;\n",
  );
  const plan = (pending: PendingChange[], honourMarks: boolean) =>
    sqitchPlanFile({ project: "p", deployed: null, pending, honourMarks });
  const cases: {
    name: string;
    pending: PendingChange[];
    honourMarks: boolean;
    destructive: boolean;
    summary: string;
  }[] = [
    {
      name: "a destructive script, its findings counted",
      pending: [USERS, drop],
      honourMarks: true,
      destructive: true,
      summary:
        "2 changes to deploy; destructive: drop_old (DROP TABLE, line 2, and 1 more)",
    },
    {
      name: "a marked script whose mark is ignored",
      pending: [marked],
      honourMarks: false,
      destructive: true,
      summary:
        "1 change to deploy; destructive: drop_old (DROP TABLE, line 2; its mark is ignored)",
    },
    {
      name: "a marked script whose mark counts",
      pending: [USERS, marked],
      honourMarks: true,
      destructive: false,
      summary: "2 changes to deploy; marked not destructive: drop_old",
    },
    {
      name: "many destructive changes, the first three named",
      pending: ["a", "b", "c", "d", "e"].map((name, i) =>
        change(String(i).repeat(40), name, "TRUNCATE t;")
      ),
      honourMarks: false,
      destructive: true,
      summary:
        "5 changes to deploy; destructive: a (TRUNCATE, line 1), b (TRUNCATE, line 1), c (TRUNCATE, line 1) and 2 more",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = plan(c.pending, c.honourMarks);
      expect([got.destructive, got.summary]).toEqual([
        c.destructive,
        c.summary,
      ]);
    });
  }
});

Deno.test("pendingChanges() takes the changes after the database's last one", async (t) => {
  const plan = [{ id: A, name: "users" }, { id: B, name: "emails" }];
  await t.step("nothing deployed: all of them", () => {
    expect(pendingChanges(plan, null)).toEqual(plan);
  });
  await t.step("the first deployed: the rest", () => {
    expect(pendingChanges(plan, A)).toEqual([{ id: B, name: "emails" }]);
  });
  await t.step("the last deployed: none", () => {
    expect(pendingChanges(plan, B)).toEqual([]);
  });
  await t.step("a change the plan does not have: refused", () => {
    expect(() => pendingChanges(plan, C)).toThrow(
      "the database's last change cccccccccccc is not in the plan; is it this project's database?",
    );
  });
});

Deno.test("judgeScript() digests the script's bytes, invalid UTF-8 included", () => {
  const bytes = new Uint8Array([
    ...new TextEncoder().encode("DROP TABLE x"),
    0xff,
    0x3b,
  ]);
  const judged = judgeScript(bytes);
  expect(judged.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  expect(judged.findings).toEqual([{ what: "DROP TABLE", line: 1 }]);
});
