// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  deployedChange,
  planListing,
  sqitchState,
} from "../../src/sqitch/_sqitch_output.ts";

const A = "dc2462de80ae44f4b7a6bde7c36a69b6831e3c26";
const B = "43e6f38d03c8c9c0bb7d4c50e2e572b38e352649";

Deno.test("deployedChange() reads what sqitch status reports", async (t) => {
  await t.step("the last change's id", () => {
    const stdout = [
      "# On database db:pg:tenant_a",
      "# Project:  tenants",
      `# Change:   ${A}`,
      "# Name:     accounts",
      "# ",
      "Undeployed change:",
      "  * invoices",
      "",
    ].join("\n");
    expect(deployedChange(stdout, 0)).toBe(A);
  });
  await t.step("nothing deployed (exit 1)", () => {
    expect(
      deployedChange("# On database db:pg:x\nNo changes deployed\n", 1),
    ).toBe(null);
  });
  await t.step("exit 1 for another reason", () => {
    expect(() => deployedChange("", 1)).toThrow("exited 1");
  });
  await t.step("no change line", () => {
    expect(() => deployedChange("# On database x\n# Change:   nope\n", 0))
      .toThrow('printed no "# Change: <id>" line');
  });
});

Deno.test("planListing() reads sqitch plan's lines, refusing anything else", async (t) => {
  await t.step("changes in order", () => {
    expect(
      planListing(
        `${A} deploy tenants accounts\n${B} deploy tenants invoices\n`,
      ),
    ).toEqual([
      { id: A, name: "accounts", project: "tenants" },
      { id: B, name: "invoices", project: "tenants" },
    ]);
  });
  const bad: [string, string, string][] = [
    ["an empty plan", "", "lists no change"],
    [
      "another shape",
      `${A} deploy tenants accounts extra\n`,
      `line 1 is not "<id> deploy <project> <name>": "${A} deploy tenants acc…"`,
    ],
    [
      "a revert line",
      `${A} revert tenants accounts\n`,
      'lists a revert of "accounts"; chant-wave deploys plans of deploys only',
    ],
    [
      "two projects",
      `${A} deploy one a\n${B} deploy two b\n`,
      'lists changes of two projects, "one" and "two"',
    ],
  ];
  for (const [name, stdout, message] of bad) {
    await t.step(
      name,
      () => expect(() => planListing(stdout)).toThrow(message),
    );
  }
});

Deno.test("sqitchState() reads the apply state of a plan file", async (t) => {
  const state = {
    project: "tenants",
    deployed: null,
    deployTo: B,
    program: "sqitch",
    client: "/usr/bin/psql",
    verify: false,
  };
  await t.step("as written", () => {
    expect(sqitchState(JSON.stringify({ sqitch: state }))).toEqual(state);
  });
  for (
    const bad of [
      {},
      { sqitch: { ...state, deployed: "x" } },
      { sqitch: { ...state, project: "" } },
      { sqitch: { ...state, deployTo: undefined } },
      { sqitch: { ...state, client: "psql" } },
      { sqitch: { ...state, verify: "no" } },
      { sqitch: { ...state, program: "" } },
    ]
  ) {
    await t.step(`refuses ${JSON.stringify(bad)}`, () => {
      expect(() => sqitchState(JSON.stringify(bad))).toThrow(
        'has no "sqitch": { "project", "deployed", "deployTo", "program", "client", "verify" }',
      );
    });
  }
});
