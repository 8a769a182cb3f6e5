// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { DriftResult } from "../../src/jobs/drift_result.ts";
import { driftSummary } from "../../src/summary/drift_summary.ts";

const D = `sha256:${"d".repeat(64)}`;
const P = `sha256:${"1".repeat(64)}`;
const REV = "a".repeat(40);

const none: DriftResult = {
  exitCode: 0,
  name: "tf",
  revision: REV,
  recorded: false,
  waves: [{
    k: 1,
    name: "dev",
    gate: "tf-wave-1",
    digest: D,
    runs: 2,
    drifted: [],
    status: "not-required",
  }],
  failed: [],
};

Deno.test("driftSummary() says no drift when nothing drifted", () => {
  expect(driftSummary(none)).toBe(
    "### chant-wave drift: tf at `aaaaaaaaaaaa`: exit 0\n\n" +
      "No drift: every run of 1 waves plans no changes.\n\n",
  );
});

Deno.test("driftSummary() tables a drifted wave's runs, escaped, with the approve command once recorded", () => {
  const result: DriftResult = {
    ...none,
    exitCode: 5,
    recorded: true,
    waves: [{
      ...none.waves[0],
      k: 2,
      name: "prod",
      gate: "tf-wave-2",
      runs: 3,
      status: "waiting",
      approve: `chant-wave approve tf tf-wave-2 --plan ${D}`,
      drifted: [{
        target: "eu|<b>x</b>",
        planDigest: P,
        changes: true,
        differsFrom: 2,
        summary: "1 to add",
      }],
    }],
    failed: [{ wave: 3, name: "last", targets: ["z"] }],
  };
  expect(driftSummary(result).split("\n")).toEqual([
    "### chant-wave drift: tf at `aaaaaaaaaaaa`: exit 5",
    "",
    `Wave 2 (prod): 1 of 3 runs drifted; gate \`tf-wave-2\` **waiting**, set digest \`${D}\``,
    "",
    "Its plans are recorded as a pending fact; approve them, then run the wave:",
    "",
    "```",
    `chant-wave approve tf tf-wave-2 --plan ${D}`,
    "```",
    "",
    "| target | plan | why |",
    "|---|---|---|",
    "| eu\\|\\<b\\>x\\</b\\> | 1 to add | its plan is not empty, and differs from the other 2 runs of the wave |",
    "",
    "Wave 3 (last) did not plan; its drift is unknown. See the job's log.",
    "",
    "",
  ]);
});
