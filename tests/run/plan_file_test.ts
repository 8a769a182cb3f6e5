// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parsePlansFile } from "../../src/run/plan_file.ts";

const D = `sha256:${"a".repeat(64)}`;

Deno.test("parsePlansFile() reads the runs and the waves a plan found", async (t) => {
  await t.step("runs, and no waves", () => {
    expect(
      parsePlansFile(`{ "runs": [{ "target": "a", "planDigest": "${D}" }] }`),
    )
      .toEqual({
        runs: [{
          target: "a",
          planDigest: D,
          destructive: false,
          empty: false,
        }],
      });
  });
  await t.step('"waves": N', () => {
    expect(parsePlansFile('{ "runs": [], "waves": 3 }')).toEqual({
      runs: [],
      waves: 3,
    });
  });
  for (const bad of ["0", "1.5", '"3"', "10001", "-1"]) {
    await t.step(`refuses "waves": ${bad}`, () => {
      expect(() => parsePlansFile(`{ "runs": [], "waves": ${bad} }`)).toThrow(
        `"waves" is not a whole number from 1 to 10000: ${bad}`,
      );
    });
  }
  await t.step("still refuses a file without runs", () => {
    expect(() => parsePlansFile('{ "waves": 2 }')).toThrow(
      'has no "runs" array',
    );
  });
});
