// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  commandsAtBase,
  waveCommands,
} from "../../src/hooks/commands_at_base.ts";
import type { BaseSpec } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type { Hooks } from "../../src/spec/types.ts";

const SHA = "a".repeat(40);

/** A spec at base whose wave "prod" has these hooks. */
function at(hooks: Record<string, unknown>, top = {}): BaseSpec {
  return {
    status: "parsed",
    spec: parseSpec(
      JSON.stringify({
        name: "db",
        tool: { kind: "sqitch", dir: "db", target: "db:pg:t_{target}" },
        hooks: top,
        waves: [{ name: "prod", runs: ["a"], hooks }],
      }),
      "waves.jsonc",
    ),
  };
}

const INIT = { name: "init", run: ["./init.sh"] };
const HOLD = {
  name: "infra",
  after: { name: "infra", gate: "infra-wave-1", applied: false },
};

function hooks(before: unknown[]): Hooks {
  return {
    "before-plan": before,
    "after-plan": [],
    "before-apply": [],
    "after-apply": [],
  } as Hooks;
}

const REF = { k: 1, name: "prod", targets: ["a"] };

Deno.test("commandsAtBase() keeps a hook command only when every base holds it", async (t) => {
  await t.step("at base as it is: kept", () => {
    const got = commandsAtBase(
      hooks([INIT]),
      [{ sha: SHA, spec: at({ "before-plan": [INIT] }) }],
      REF,
    );
    expect(got).toEqual({ hooks: hooks([INIT]), left: [] });
  });
  await t.step(
    "another argv, another point, one base of two without it, no spec at base: left out",
    () => {
      const other = { name: "init", run: ["./init.sh", "--all"] };
      for (
        const bases of [
          [{ sha: SHA, spec: at({ "before-plan": [other] }) }],
          [{ sha: SHA, spec: at({ "after-plan": [INIT] }) }],
          [
            { sha: SHA, spec: at({ "before-plan": [INIT] }) },
            { sha: SHA, spec: at({}) },
          ],
          [{ sha: SHA, spec: { status: "absent" } as BaseSpec }],
        ]
      ) {
        expect(commandsAtBase(hooks([INIT, HOLD]), bases, REF)).toEqual({
          hooks: hooks([HOLD]),
          left: [{ point: "before-plan", hook: INIT }],
        });
      }
    },
  );
  await t.step("a new wave: the base's top-level hooks", () => {
    const got = commandsAtBase(
      hooks([INIT]),
      [{ sha: SHA, spec: at({}, { "before-plan": [INIT] }) }],
      { k: 2, name: "new", targets: ["z"] },
    );
    expect(got.left).toEqual([]);
  });
});

Deno.test("waveCommands() reads hook commands at base for sqitch only", () => {
  const bases = [{ sha: SHA, spec: { status: "absent" } as BaseSpec }];
  expect(
    waveCommands(
      { kind: "tool", tool: { kind: "sqitch" } } as never,
      hooks([INIT]),
      bases,
      REF,
    ).left,
  ).toHaveLength(1);
  expect(
    waveCommands(
      { kind: "per-run", argv: ["plan.sh"] } as never,
      hooks([INIT]),
      bases,
      REF,
    ),
  ).toEqual({ hooks: hooks([INIT]), left: [] });
});
