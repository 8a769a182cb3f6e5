// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { sqitchAtBase } from "../../src/sqitch/sqitch_at_base.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const SHA2 = "fedcba9876543210fedcba9876543210fedcba98";

/** A base holding a spec whose sqitch tool has the given fields (none: a per-run spec). */
function base(tool: Record<string, unknown> | undefined, sha = SHA) {
  const text = JSON.stringify({
    name: "x",
    ...(tool
      ? { tool: { kind: "sqitch", dir: "db", target: "db:pg:t", ...tool } }
      : { plan: ["p", "{plan}"], apply: ["a"] }),
    waves: [{ name: "dev", runs: ["a"] }],
  });
  return { sha, spec: baseSpecOf(text, "waves.jsonc", parseSpec) };
}

const OWN = {
  binary: "/opt/sqitch/bin/sqitch",
  client: "/usr/lib/postgresql/15/bin/psql",
  verify: true,
};
const DEFAULTS = { program: "sqitch", client: "psql", verify: false };

Deno.test("sqitchAtBase() takes what every base agrees on, else the default", async (t) => {
  await t.step("one base with its own settings", () => {
    expect(sqitchAtBase([base(OWN)])).toEqual({
      program: "/opt/sqitch/bin/sqitch",
      client: "/usr/lib/postgresql/15/bin/psql",
      verify: true,
      reason: "read at 0123456789ab",
    });
  });
  await t.step("two bases that differ in the client only", () => {
    expect(
      sqitchAtBase([base(OWN), base({ ...OWN, client: "psql15" }, SHA2)]),
    ).toEqual({
      program: "/opt/sqitch/bin/sqitch",
      client: "psql",
      verify: true,
      reason: "read at 0123456789ab; and read at fedcba987654",
    });
  });
  await t.step("a base without a sqitch tool", () => {
    expect(sqitchAtBase([base(OWN), base(undefined, SHA2)])).toEqual({
      ...DEFAULTS,
      reason:
        "read at 0123456789ab; and the spec at fedcba987654 has no sqitch tool",
    });
  });
  await t.step("a spec absent or broken at base", () => {
    expect(
      sqitchAtBase([
        { sha: SHA, spec: { status: "absent" } },
        { sha: SHA2, spec: { status: "unparsable", problem: "bad" } },
      ]),
    ).toEqual({
      ...DEFAULTS,
      reason:
        "the spec is not in 0123456789ab; and the spec at fedcba987654 does not parse: bad",
    });
  });
});
