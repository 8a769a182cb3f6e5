// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { childPipelineAtBase } from "../../src/pipeline/pipeline_at_base.ts";
import type { BaseSpec } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type { Spec } from "../../src/spec/types.ts";

const SHA = "0123456789ab".padEnd(40, "0");

/** A spec of `tool` whose pipeline installs with `install`. */
function spec(install: string, sqitch = true): Spec {
  return parseSpec(
    JSON.stringify({
      name: "db",
      ...(sqitch
        ? { tool: { kind: "sqitch", dir: "db", target: "db:pg:t_{target}" } }
        : {
          plan: ["p", "{target}", "{plan}"],
          apply: ["a", "{target}", "{plan}"],
        }),
      pipeline: { install },
      waves: [{ name: "prod", runs: ["a"] }],
    }),
    "waves.jsonc",
  );
}

const parsed = (s: Spec): BaseSpec => ({ status: "parsed", spec: s });

Deno.test("childPipelineAtBase() gives a sqitch rollout's child the lines at base", async (t) => {
  await t.step("the base's, whatever the change says", () => {
    expect(
      childPipelineAtBase(spec("evil"), [
        { sha: SHA, spec: parsed(spec("install-a")) },
        { sha: SHA, spec: parsed(spec("install-a")) },
      ]),
    ).toEqual({ pipeline: spec("install-a").pipeline });
  });
  await t.step(
    "none to trust: no spec, one that does not parse, versions that differ",
    () => {
      expect(
        childPipelineAtBase(spec("x"), [{
          sha: SHA,
          spec: { status: "absent" },
        }]),
      ).toEqual({ why: "there is no spec at 0123456789ab" });
      expect(
        childPipelineAtBase(spec("x"), [
          { sha: SHA, spec: { status: "unparsable", problem: "p" } },
        ]),
      ).toEqual({ why: "the spec at 0123456789ab does not parse" });
      expect(
        childPipelineAtBase(spec("x"), [
          { sha: SHA, spec: parsed(spec("a")) },
          { sha: SHA, spec: parsed(spec("b")) },
        ]),
      ).toEqual({
        why: "the versions at base say different things (0123456789ab)",
      });
    },
  );
  await t.step(
    "another tool keeps the working copy's (its code runs in the jobs anyway)",
    () => {
      const own = spec("mine", false);
      expect(
        childPipelineAtBase(own, [{ sha: SHA, spec: { status: "absent" } }]),
      ).toEqual({ pipeline: own.pipeline });
    },
  );
});
