// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { memoryWriter } from "../../src/console/writer.ts";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { toolContext } from "../../src/tool/tool_context.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";

function specText(wave: Record<string, unknown>, kind = "sqitch"): string {
  return JSON.stringify({
    name: "tenants",
    tool: kind === "sqitch"
      ? { kind, dir: "db", target: "db:pg:t_{target}" }
      : { kind, dir: "live" },
    waves: [{ name: "staging", runs: ["a"], ...wave }],
  });
}

function contextOf(head: string, base: string) {
  const stderr = memoryWriter();
  const spec = parseSpec(head, "w.json");
  const bases = [{ sha: SHA, spec: baseSpecOf(base, "w.json", parseSpec) }];
  const context = toolContext(spec, bases, spec.waves[0], { stderr });
  return { context, lines: stderr.lines() };
}

Deno.test("toolContext() reads whether marks count at base, and logs it", async (t) => {
  await t.step("honoured at base", () => {
    const honour = specText({ destructiveOverrides: "honour" });
    expect(contextOf(honour, honour)).toEqual({
      context: { honourMarks: true },
      lines: [
        'destructive overrides of wave 1 "staging": honoured (read at 0123456789ab: wave 1 "staging" by name and position)',
      ],
    });
  });
  await t.step("honoured by the change only: ignored, with a note", () => {
    const { context, lines } = contextOf(
      specText({ destructiveOverrides: "honour" }),
      specText({}),
    );
    expect(context).toEqual({ honourMarks: false });
    expect(lines).toEqual([
      'destructive overrides of wave 1 "staging": ignored (read at 0123456789ab: wave 1 "staging" by name and position)',
      'note: this change says destructiveOverrides "honour" for wave 1 "staging"; it is read at base, so not-destructive marks are ignored until the change is merged',
    ]);
  });
  await t.step("OpenTofu needs nothing, and logs nothing", () => {
    const tofu = specText({}, "opentofu");
    expect(contextOf(tofu, tofu)).toEqual({ context: undefined, lines: [] });
  });
});
