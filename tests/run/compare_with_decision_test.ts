// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { compareWithDecision } from "../../src/run/compare_with_decision.ts";
import type { Decision } from "../../src/gate/decision.ts";
import type { PlannedRun } from "../../src/run/run_outcomes.ts";
import { lineLog } from "../../src/console/line_log.ts";
import type { Line } from "../../src/console/colour.ts";
import { memoryWriter } from "../../src/console/writer.ts";

const digest = (c: string) => `sha256:${c.repeat(64)}`;

const decision: Decision = {
  version: 1,
  decisionId: "d-1",
  wave: 2,
  name: "tf",
  spec: "waves.json",
  gate: "tf-wave-2",
  policy: "always",
  policySource: "base",
  policyReason: "always at base",
  base: "b".repeat(40),
  digest: digest("0"),
  members: [
    { target: "eu", planDigest: digest("a"), op: "" },
    { target: "us", planDigest: digest("b"), op: "" },
  ],
  status: "approved",
  createdAt: "2026-12-01T00:00:00.000Z",
};

function planned(target: string, planDigest: string, destructive = false) {
  return {
    target,
    run: { target, op: "" },
    planPath: `${target}.plan.json`,
    plan: { planDigest, destructive, empty: false },
  } satisfies PlannedRun;
}

Deno.test("compareWithDecision() keeps unmoved runs and refuses moved ones", async (t) => {
  await t.step("same digest and flags: unmoved, nothing logged", () => {
    const lines: Line[] = [];
    const out = compareWithDecision(
      [planned("eu", digest("a")), planned("us", digest("b"))],
      decision,
      (line) => lines.push(line),
    );
    expect(out.unmoved.map((run) => run.target)).toEqual(["eu", "us"]);
    expect(out.moved).toEqual([]);
    expect(lines).toEqual([]);
  });
  await t.step("a new digest or a new destructive flag: refused", () => {
    const log = memoryWriter();
    const out = compareWithDecision(
      [planned("eu", digest("c")), planned("us", digest("b"), true)],
      decision,
      lineLog(log),
    );
    expect(out.unmoved).toEqual([]);
    expect(out.moved).toEqual(["eu", "us"]);
    expect(log.text()).toBe(
      `refused: eu: its plan moved since wave 2 was decided; decided ${
        digest("a")
      }, planned now ${digest("c")}\n` +
        `refused: us: its plan moved since wave 2 was decided; decided ${
          digest("b")
        }, planned now ${
          digest("b")
        } (destructive); the same digest, with other changes or flags than the decision lists\n`,
    );
  });
  await t.step("a run the decision lacks: refused", () => {
    const log = memoryWriter();
    const out = compareWithDecision(
      [planned("ap", digest("a"))],
      decision,
      lineLog(log),
    );
    expect(out.moved).toEqual(["ap"]);
    expect(log.text()).toContain(
      "decided nothing (the decision lacks this run)",
    );
  });
  await t.step("the refused: lead in bold red on a coloured log", () => {
    const log = memoryWriter();
    compareWithDecision(
      [planned("eu", digest("c"))],
      decision,
      lineLog(log, { colour: true }),
    );
    expect(log.text()).toMatch(
      // deno-lint-ignore no-control-regex -- the colour codes are the point
      /^\x1b\[1;31mrefused:\x1b\[0m eu: its plan moved/,
    );
  });
});

Deno.test("compareWithDecision() refuses a run whose changes differ from the decided ones", async (t) => {
  const tags = {
    address: "aws_instance.web",
    action: "update",
    attributes: ["tags.Name"],
  };
  const withChanges = (changes: typeof tags[]) => ({
    ...planned("eu", digest("a")),
    plan: {
      planDigest: digest("a"),
      destructive: false,
      empty: false,
      changes,
    },
  });
  const decided: Decision = {
    ...decision,
    members: [{
      target: "eu",
      planDigest: digest("a"),
      op: "",
      changes: [tags],
    }],
  };
  await t.step("the same changes: unmoved", () => {
    const out = compareWithDecision([withChanges([tags])], decided, () => {});
    expect(out.moved).toEqual([]);
  });
  await t.step("a record that names other attributes: moved", () => {
    const out = compareWithDecision(
      [withChanges([{ ...tags, attributes: ["tags.Name", "ami"] }])],
      decided,
      () => {},
    );
    expect(out.moved).toEqual(["eu"]);
  });
});
