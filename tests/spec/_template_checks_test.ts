// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { lines, problemsOf } from "./_helpers.ts";

/** A spec whose command rows come on lines 3 and on. */
function commandsSpec(...rows: string[]): string {
  return lines(
    "{",
    '  "name": "demo",',
    ...rows,
    '  "waves": [{ "name": "dev", "runs": ["a"] }]',
    "}",
  );
}

Deno.test("checkTemplates() checks the argv templates of SPEC.md §3.4", async (t) => {
  const cases: { name: string; text: string; want: string[] }[] = [
    {
      name: "every placeholder of plan and apply",
      text: commandsSpec(
        '  "plan": ["p", "--op={op}", "{target}", "{wave}", "{k}", "{plan}", "{plan}.bak"],',
        '  "apply": ["a", "{op}", "{target}", "{wave}", "{k}", "{plan}"],',
      ),
      want: [],
    },
    {
      name: "whole-wave commands know runs and plans",
      text: commandsSpec(
        '  "planWave": ["p", "{runs}", "{plans}", "{wave}", "{k}"],',
        '  "applyWave": ["a", "{runs}", "{op}"],',
      ),
      want: [],
    },
    {
      name: "an unknown placeholder, with a suggestion",
      text: commandsSpec(
        '  "plan": ["p", "{plan}", "--target={targte}"],',
        '  "apply": ["a", "{plan}"],',
      ),
      want: [
        'w.jsonc:3:27: plan[2]: unknown placeholder "{targte}"; did you mean "{target}"?',
      ],
    },
    {
      name: "runs and plans in a per-run command",
      text: commandsSpec(
        '  "plan": ["p", "{plan}"],',
        '  "apply": ["a", "{runs}", "{plans}"],',
      ),
      want: [
        'w.jsonc:4:18: apply[1]: unknown placeholder "{runs}"',
        'w.jsonc:4:28: apply[2]: unknown placeholder "{plans}"; did you mean "{plan}"?',
      ],
    },
    {
      name: "several in one argument",
      text: commandsSpec(
        '  "plan": ["p", "{plan}"],',
        '  "apply": ["a", "{x}/{y}"],',
        '  "planWave": ["p", "{Runs}"],',
      ),
      want: [
        'w.jsonc:4:18: apply[1]: unknown placeholder "{x}"',
        'w.jsonc:4:18: apply[1]: unknown placeholder "{y}"',
        'w.jsonc:5:21: planWave[1]: unknown placeholder "{Runs}"; did you mean "{runs}"?',
      ],
    },
    {
      name: "braces that are not placeholders; a shell ${VAR} still is one",
      text: commandsSpec(
        '  "plan": ["p", "{plan}", "{\\"a\\": 1}", "{}", "{ target }", "${HOME}x"],',
        '  "apply": ["a"],',
      ),
      want: ['w.jsonc:3:61: plan[5]: unknown placeholder "{HOME}"'],
    },
    {
      name: "plan must mention {plan}",
      text: commandsSpec('  "plan": ["p", "{target}"],', '  "apply": ["a"],'),
      want: [
        'w.jsonc:3:11: plan: the plan command must mention "{plan}", the file it writes',
      ],
    },
    {
      name: "plan and apply are required",
      text: commandsSpec('  "op": "x",'),
      want: [
        'w.jsonc:1:1: missing field "plan" (needed unless "planWave" or "tool" is set)',
        'w.jsonc:1:1: missing field "apply" (needed unless "applyWave" or "tool" is set)',
      ],
    },
    {
      name: "planWave stands in for plan, applyWave for apply",
      text: commandsSpec(
        '  "planWave": ["p", "{runs}", "{plans}"],',
        '  "apply": ["a", "{plan}"],',
      ),
      want: [],
    },
    {
      name: "applyWave does not stand in for plan",
      text: commandsSpec('  "applyWave": ["a", "{runs}"],'),
      want: [
        'w.jsonc:1:1: missing field "plan" (needed unless "planWave" or "tool" is set)',
      ],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(problemsOf(c.text)).toEqual(c.want));
  }
});

Deno.test("checkTemplates() checks the tool shorthand of SPEC.md §15", async (t) => {
  const cases: { name: string; text: string; want: string[] }[] = [
    {
      name: "tool stands for plan and apply",
      text: commandsSpec(
        '  "tool": { "kind": "opentofu", "dir": "live/{target}", "args": ["-var=op={op}", "-var=k={k}", "-var=w={wave}"] },',
      ),
      want: [],
    },
    {
      name: "tool beside plan and apply, each located at its key",
      text: commandsSpec(
        '  "tool": { "kind": "terraform", "dir": "live" },',
        '  "plan": ["p", "{plan}"],',
        '  "apply": ["a", "{plan}"],',
      ),
      want: [
        'w.jsonc:4:3: plan: "plan" and "tool" do not go together: "tool" stands for the plan and apply commands',
        'w.jsonc:5:3: apply: "apply" and "tool" do not go together: "tool" stands for the plan and apply commands',
      ],
    },
    {
      name: "tool beside a whole-wave command",
      text: commandsSpec(
        '  "tool": { "kind": "terraform", "dir": "live" },',
        '  "planWave": ["p", "{runs}", "{plans}"],',
      ),
      want: [
        'w.jsonc:4:3: planWave: "planWave" and "tool" do not go together: "tool" stands for the plan and apply commands',
      ],
    },
    {
      name: "unknown placeholders in dir and args; {plan} is chant-wave's",
      text: commandsSpec(
        '  "tool": { "kind": "opentofu", "dir": "live/{targte}", "args": ["-out={plan}", "{runs}"] },',
      ),
      want: [
        'w.jsonc:3:40: tool.dir: unknown placeholder "{targte}"; did you mean "{target}"?',
        'w.jsonc:3:66: tool.args[0]: unknown placeholder "{plan}": "tool" passes the saved plan itself',
        'w.jsonc:3:81: tool.args[1]: unknown placeholder "{runs}"',
      ],
    },
    {
      name: "sqitch: a dir and a target with placeholders",
      text: commandsSpec(
        '  "tool": { "kind": "sqitch", "dir": "db/{op}", "target": "db:pg:tenant_{target}_{wave}{k}" },',
      ),
      want: [],
    },
    {
      name: "sqitch needs a target and takes no args",
      text: commandsSpec(
        '  "tool": { "kind": "sqitch", "dir": "db", "args": ["-x"] },',
      ),
      want: [
        'w.jsonc:3:11: tool: missing field "target" (sqitch needs the database to deploy to)',
        'w.jsonc:3:44: tool.args: "args" is for opentofu and terraform; sqitch takes none',
      ],
    },
    {
      name: "sqitch: an unknown placeholder in the target",
      text: commandsSpec(
        '  "tool": { "kind": "sqitch", "dir": "db", "target": "db:pg:{tenant}" },',
      ),
      want: [
        'w.jsonc:3:54: tool.target: unknown placeholder "{tenant}"',
      ],
    },
    {
      name: "opentofu takes no target",
      text: commandsSpec(
        '  "tool": { "kind": "opentofu", "dir": "live", "target": "x" },',
      ),
      want: [
        'w.jsonc:3:48: tool.target: "target" is for sqitch; "opentofu" takes none',
      ],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(problemsOf(c.text)).toEqual(c.want));
  }
});
