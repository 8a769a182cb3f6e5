// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { overridesAtBase } from "../../src/sqitch/overrides_at_base.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const SHA2 = "fedcba9876543210fedcba9876543210fedcba98";

/** A spec text at base with the given top-level fields and waves. */
function specAt(
  top: Record<string, unknown>,
  ...waves: Record<string, unknown>[]
): string {
  return JSON.stringify({
    name: "x",
    tool: { kind: "sqitch", dir: "db", target: "db:pg:t_{target}" },
    ...top,
    waves,
  });
}

function base(text: string | undefined, sha = SHA) {
  return { sha, spec: baseSpecOf(text, "waves.jsonc", parseSpec) };
}

const STAGING = { name: "staging", runs: ["s1", "s2"], gate: "on-destructive" };
const HONOURING = { ...STAGING, destructiveOverrides: "honour" };
const WAVE = { k: 1, name: "staging", targets: ["s1", "s2"] };

Deno.test("overridesAtBase() honours marks only when every governing wave at every base says so", async (t) => {
  const cases: {
    name: string;
    bases: ReturnType<typeof base>[];
    wave?: typeof WAVE;
    want: { honour: boolean; reason: string };
  }[] = [
    {
      name: "the wave honours them",
      bases: [base(specAt({}, HONOURING))],
      want: {
        honour: true,
        reason: 'read at 0123456789ab: wave 1 "staging" by name and position',
      },
    },
    {
      name: "the top level honours them for every wave",
      bases: [base(specAt({ destructiveOverrides: "honour" }, STAGING))],
      want: {
        honour: true,
        reason: 'read at 0123456789ab: wave 1 "staging" by name and position',
      },
    },
    {
      name: "the default ignores them",
      bases: [base(specAt({}, STAGING))],
      want: {
        honour: false,
        reason: 'read at 0123456789ab: wave 1 "staging" by name and position',
      },
    },
    {
      name:
        "one governing wave that ignores them wins (a target moved in from prod)",
      bases: [
        base(specAt({}, HONOURING, { name: "prod", runs: ["p1"] })),
      ],
      wave: { k: 1, name: "staging", targets: ["s1", "p1"] },
      want: {
        honour: false,
        reason:
          'read at 0123456789ab: wave 1 "staging" by name and position; wave 2 "prod" by target p1',
      },
    },
    {
      name: "one base that ignores them wins",
      bases: [base(specAt({}, HONOURING)), base(specAt({}, STAGING), SHA2)],
      want: {
        honour: false,
        reason:
          'read at 0123456789ab: wave 1 "staging" by name and position; and read at fedcba987654: wave 1 "staging" by name and position',
      },
    },
    {
      name: "a new wave with new targets",
      bases: [base(specAt({ destructiveOverrides: "honour" }, STAGING))],
      wave: { k: 2, name: "canary", targets: ["c1"] },
      want: {
        honour: false,
        reason: 'no wave at 0123456789ab governs wave 2 "canary"',
      },
    },
    {
      name: "no spec at base",
      bases: [base(undefined)],
      want: { honour: false, reason: "the spec is not in 0123456789ab" },
    },
    {
      name: "a spec that does not parse at base",
      bases: [base("{")],
      want: {
        honour: false,
        reason: `the spec at 0123456789ab does not parse: ${
          (base("{").spec as { problem: string }).problem
        }`,
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = overridesAtBase(c.bases, c.wave ?? WAVE);
      if (c.name.includes("does not parse")) {
        expect(got.honour).toBe(false);
        expect(got.reason).toMatch(
          /^the spec at 0123456789ab does not parse: /,
        );
      } else expect(got).toEqual(c.want);
    });
  }
});
