// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import type { FileFinding } from "../../src/sqitch/change_scripts.ts";
import {
  type PendingChange,
  pendingChanges,
  sqitchPlanFile,
  type SqitchPlanInput,
} from "../../src/sqitch/sqitch_plan_file.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const HASH = (c: string) => `sha256:${c.repeat(64)}`;

/** A pending change whose deploy script (and `more` files) hash as given. */
function change(
  id: string,
  name: string,
  findings: Omit<FileFinding, "file">[] = [],
  options: { marked?: boolean; deploy?: string; more?: string[] } = {},
): PendingChange {
  const file = `deploy/${name}.sql`;
  return {
    id,
    name,
    judged: {
      files: [
        { path: file, sha256: options.deploy ?? HASH("1") },
        ...(options.more ?? []).map((path) => ({ path, sha256: HASH("2") })),
      ],
      findings: findings.map((f) => ({ file, ...f })),
      marked: options.marked ?? false,
    },
  };
}

const USERS = change(A, "users");
const EMAILS = change(B, "emails");

const INPUT: SqitchPlanInput = {
  project: "flipr",
  target: "db:pg://app@db.internal/tenant_{target}",
  deployed: null,
  pending: [USERS, EMAILS],
  honourMarks: false,
  program: "sqitch",
  client: { path: "/usr/bin/psql", sha256: HASH("9") },
  verify: false,
  config: HASH("c"),
  plan: HASH("d"),
};

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

Deno.test("sqitchPlanFile() digests everything the deploy runs or reads", async (t) => {
  await t.step("the digest is SHA-256 of the specified JSON", () => {
    const plan = sqitchPlanFile({ ...INPUT, deployed: C, pending: [USERS] });
    const covered = JSON.stringify({
      kind: "sqitch-plan",
      version: 3,
      project: "flipr",
      target: "db:pg://app@db.internal/tenant_{target}",
      deployed: C,
      client: { path: "/usr/bin/psql", sha256: HASH("9") },
      verify: false,
      config: HASH("c"),
      plan: HASH("d"),
      changes: [{
        id: A,
        name: "users",
        files: [{ path: "deploy/users.sql", sha256: HASH("1") }],
      }],
    });
    expect(plan.planDigest).toBe(`sha256:${sha256(covered)}`);
  });
  const digest = (input: Partial<SqitchPlanInput>) =>
    sqitchPlanFile({ ...INPUT, ...input }).planDigest;
  const base = digest({});
  await t.step("the same state plans the same digest", () => {
    expect(digest({})).toBe(base);
  });
  await t.step("what marks count does not move it", () => {
    expect(digest({ honourMarks: true })).toBe(base);
  });
  const moved: [string, Partial<SqitchPlanInput>][] = [
    ["an edited deploy script", {
      pending: [USERS, change(B, "emails", [], { deploy: HASH("3") })],
    }],
    ["an included file", {
      pending: [USERS, change(B, "emails", [], { more: ["deploy/inc.sql"] })],
    }],
    ["another change added", { pending: [USERS, EMAILS, change(C, "x")] }],
    ["a database at another change", { deployed: C }],
    ["another project", { project: "other" }],
    ["another target in the spec, only a parameter added", {
      target: "db:pg://app@db.internal/tenant_{target}?application_name=tenant",
    }],
    ["a sqitch target's name", { target: "{target}" }],
    ["a renamed change", {
      pending: [USERS, { ...EMAILS, name: "mail" }],
    }],
    ["another client", {
      client: { path: "/usr/bin/psql", sha256: HASH("8") },
    }],
    ["verify on", { verify: true }],
    ["an edited sqitch.conf", { config: HASH("e") }],
    ["no sqitch.conf", { config: null }],
    ["an edited plan file", { plan: HASH("f") }],
  ];
  for (const [name, input] of moved) {
    await t.step(
      `${name} moves it`,
      () => expect(digest(input)).not.toBe(base),
    );
  }
});

Deno.test("sqitchPlanFile() says what it deploys, in plan order, and how", async (t) => {
  await t.step("changes, the summary and the apply state", () => {
    const { planDigest: _, ...rest } = sqitchPlanFile({
      ...INPUT,
      deployed: C,
    });
    expect(rest).toEqual({
      destructive: false,
      empty: false,
      summary: "2 changes to deploy",
      changes: [
        { address: "users", action: "deploy" },
        { address: "emails", action: "deploy" },
      ],
      sqitch: {
        project: "flipr",
        deployed: C,
        deployTo: B,
        program: "sqitch",
        client: "/usr/bin/psql",
        verify: false,
      },
    });
  });
  await t.step("nothing pending: empty, nothing to deploy to", () => {
    const plan = sqitchPlanFile({ ...INPUT, deployed: B, pending: [] });
    expect([plan.empty, plan.summary, plan.changes, plan.sqitch.deployTo])
      .toEqual([true, "0 changes to deploy", [], null]);
  });
});

Deno.test("sqitchPlanFile() is destructive when a change is, unless its mark counts, and names the statements", async (t) => {
  const dropOld = { what: "DROP TABLE", line: 2, statement: "DROP TABLE old" };
  const truncate = { what: "TRUNCATE", line: 3, statement: "TRUNCATE x" };
  const drop = change(C, "drop_old", [dropOld, truncate]);
  const marked = change(C, "drop_old", [dropOld], { marked: true });
  const cases: {
    name: string;
    pending: PendingChange[];
    honourMarks: boolean;
    destructive: boolean;
    summary: string;
  }[] = [
    {
      name: "a destructive change, its findings counted",
      pending: [USERS, drop],
      honourMarks: true,
      destructive: true,
      summary:
        '2 changes to deploy; destructive: drop_old (DROP TABLE, line 2: "DROP TABLE old", and 1 more)',
    },
    {
      name: "a marked change whose mark is ignored",
      pending: [marked],
      honourMarks: false,
      destructive: true,
      summary:
        '1 change to deploy; destructive: drop_old (DROP TABLE, line 2: "DROP TABLE old"; its mark is ignored)',
    },
    {
      name: "a marked change whose mark counts",
      pending: [USERS, marked],
      honourMarks: true,
      destructive: false,
      summary: "2 changes to deploy; marked not destructive: drop_old",
    },
    {
      name: "a finding in an included file names the file",
      pending: [{
        ...USERS,
        judged: {
          ...USERS.judged,
          findings: [{ file: "deploy/inc.sql", ...truncate }],
        },
      }],
      honourMarks: false,
      destructive: true,
      summary:
        '1 change to deploy; destructive: users (TRUNCATE, deploy/inc.sql line 3: "TRUNCATE x")',
    },
    {
      name: "many destructive changes, the first three named",
      pending: ["a", "b", "c", "d", "e"].map((name, i) =>
        change(String(i).repeat(40), name, [{ ...truncate, line: 1 }])
      ),
      honourMarks: false,
      destructive: true,
      summary:
        '5 changes to deploy; destructive: a (TRUNCATE, line 1: "TRUNCATE x"), b (TRUNCATE, line 1: "TRUNCATE x"), c (TRUNCATE, line 1: "TRUNCATE x") and 2 more',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = sqitchPlanFile({
        ...INPUT,
        pending: c.pending,
        honourMarks: c.honourMarks,
      });
      expect([got.destructive, got.summary]).toEqual([
        c.destructive,
        c.summary,
      ]);
    });
  }
  await t.step("the plan file lists each change's statements", () => {
    const got = sqitchPlanFile({ ...INPUT, pending: [USERS, drop] });
    expect(got.changes).toEqual([
      { address: "users", action: "deploy" },
      {
        address: "drop_old",
        action: "deploy",
        statements: [
          "deploy/drop_old.sql:2: DROP TABLE: DROP TABLE old",
          "deploy/drop_old.sql:3: TRUNCATE: TRUNCATE x",
        ],
      },
    ]);
  });
});

Deno.test("sqitchPlanFile() lists at most 20 statements a change and 200 in all", () => {
  const many = Array.from({ length: 30 }, (_, i) => ({
    what: "TRUNCATE",
    line: i + 1,
    statement: "TRUNCATE x",
  }));
  const pending = Array.from(
    { length: 12 },
    (_, i) => change(String(i % 10).repeat(40), `c${i}`, many),
  );
  const got = sqitchPlanFile({ ...INPUT, pending });
  expect(got.changes.map((c) => c.statements?.length ?? 0)).toEqual([
    ...Array(10).fill(20),
    0,
    0,
  ]);
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
