// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { applyCanaryFirst } from "../../src/run/canary_first.ts";
import type {
  ApplyOutcome,
  FailedRun,
  PlannedRun,
} from "../../src/run/run_outcomes.ts";

const RULE = 'canary 1, read at 1a2b3c4d5e6f, wave 3 "prod"';
const WAVE = { k: 3, name: "prod" };
const CANARY = { targets: ["eu-3"], others: 4, rule: RULE };

function planned(target: string): PlannedRun {
  return {
    target,
    run: { target, op: "tf" },
    planPath: `p/${target}`,
    plan: {
      planDigest: `sha256:${"1".repeat(64)}`,
      destructive: false,
      empty: false,
    },
  };
}

const RUNS = ["eu-1", "eu-2", "eu-3", "us-1", "us-2"].map(planned);

/** An apply that fails the targets in `failing`, recording each call. */
function fakeApply(failing: string[] = []) {
  const calls: string[][] = [];
  const apply = (runs: readonly PlannedRun[]): Promise<ApplyOutcome> => {
    const targets = runs.map((run) => run.target);
    calls.push(targets);
    return Promise.resolve({
      applied: targets.filter((t) => !failing.includes(t)),
      failed: targets.filter((t) => failing.includes(t)).map((target) => ({
        target,
        message: `apply of "${target}" exited 1`,
        tail: [],
      })),
      untried: [],
      replan: [],
      moved: [],
    });
  };
  return { apply, calls };
}

/** Applies `runs` with the canary eu-3, failing `failing`: the outcome, the apply calls and the log. */
async function canaryFirst(
  runs: readonly PlannedRun[],
  options: {
    failing?: string[];
    refused?: FailedRun[];
    othersElsewhere?: boolean;
  } = {},
) {
  const { apply, calls } = fakeApply(options.failing);
  const lines: string[] = [];
  const out = await applyCanaryFirst(
    {
      canary: CANARY,
      wave: WAVE,
      ...(options.othersElsewhere ? { othersElsewhere: true } : {}),
    },
    runs,
    options.refused ?? [],
    apply,
    (line) => lines.push(line),
  );
  return { out, calls, lines };
}

Deno.test("applyCanaryFirst() applies the canary runs first, the rest only when they applied", async (t) => {
  const others = RUNS.filter((run) => run.target !== "eu-3");
  const heldBack =
    `canary: eu-3 failed; the 4 other runs of wave 3 "prod" are not applied (${RULE})`;
  await t.step("the canary, then the others", async () => {
    const { out, calls, lines } = await canaryFirst(RUNS);
    expect(calls).toEqual([["eu-3"], ["eu-1", "eu-2", "us-1", "us-2"]]);
    expect(out.applied).toEqual(["eu-3", "eu-1", "eu-2", "us-1", "us-2"]);
    expect(out.heldBack).toEqual([]);
    expect(lines).toEqual([
      `canary: eu-3 applies first (${RULE})`,
      "canary: eu-3 applied; the other 4 runs go on",
    ]);
  });
  await t.step(
    "a failed canary: the others are held back, untried",
    async () => {
      const { out, calls, lines } = await canaryFirst(RUNS, {
        failing: ["eu-3"],
      });
      expect(calls).toEqual([["eu-3"]]);
      expect(out.applied).toEqual([]);
      expect(out.failed.map((f) => f.target)).toEqual(["eu-3"]);
      expect(out.untried).toEqual(["eu-1", "eu-2", "us-1", "us-2"]);
      expect(out.heldBack).toEqual(["eu-1", "eu-2", "us-1", "us-2"]);
      expect(lines.at(-1)).toBe(heldBack);
    },
  );
  await t.step(
    "a canary another job holds the claim of: nothing applies",
    async () => {
      const { out, calls, lines } = await canaryFirst(others, {
        refused: [{
          target: "eu-3",
          message: "eu-3: already claimed under this approval by decision d0",
          tail: [],
        }],
      });
      expect(calls).toEqual([]);
      expect(out.heldBack).toEqual(["eu-1", "eu-2", "us-1", "us-2"]);
      expect(lines).toEqual([heldBack]);
    },
  );
  await t.step("a canary applied already: the others go on", async () => {
    const { calls, lines } = await canaryFirst(others);
    expect(calls).toEqual([["eu-1", "eu-2", "us-1", "us-2"]]);
    expect(lines).toEqual([
      `canary: eu-3 applied already; the other 4 runs go on (${RULE})`,
    ]);
  });
  await t.step(
    "in a deciding job: the canary only, the others go on elsewhere",
    async () => {
      const { out, calls, lines } = await canaryFirst([planned("eu-3")], {
        othersElsewhere: true,
      });
      expect(calls).toEqual([["eu-3"]]);
      expect(out.applied).toEqual(["eu-3"]);
      expect(lines.at(-1)).toBe(
        "canary: eu-3 applied; the other 4 runs go on in the wave's other jobs",
      );
    },
  );
});
