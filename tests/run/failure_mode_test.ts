// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { failureMode } from "../../src/run/failure_mode.ts";

const SAFE = { destructive: false };
const DESTROYS = { destructive: true };

Deno.test("failureMode() stops by default for a destructive plan, and keeps what the spec says", async (t) => {
  const cases = [
    {
      name: "unset, a destructive plan among the runs: stop, saying why",
      written: undefined,
      plans: [SAFE, DESTROYS],
      want: {
        onFailure: "stop",
        because: "the default for a destructive plan",
      },
    },
    {
      name: "unset, no destructive plan: continue",
      written: undefined,
      plans: [SAFE, SAFE],
      want: { onFailure: "continue" },
    },
    {
      name: "unset, nothing to apply: continue",
      written: undefined,
      plans: [],
      want: { onFailure: "continue" },
    },
    {
      name: 'an explicit "continue" goes on past a destructive plan',
      written: "continue",
      plans: [DESTROYS],
      want: { onFailure: "continue" },
    },
    {
      name: 'an explicit "stop" stops, with no reason to give',
      written: "stop",
      plans: [SAFE],
      want: { onFailure: "stop" },
    },
  ] as const;
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(failureMode(c.written, c.plans)).toStrictEqual(c.want);
    });
  }
});
