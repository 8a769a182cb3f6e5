// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { memoryWriter } from "../../src/console/writer.ts";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { toolContext } from "../../src/tool/tool_context.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";

function specText(
  wave: Record<string, unknown>,
  kind = "sqitch",
  tool: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    name: "tenants",
    tool: kind === "sqitch"
      ? { kind, dir: "db", target: "db:pg:t_{target}", ...tool }
      : { kind, dir: "live" },
    waves: [{ name: "staging", runs: ["a"], ...wave }],
  });
}

const DEFAULTS = { program: "sqitch", client: "psql", verify: false };
const DEFAULT_LINE =
  'sqitch runs as at base: program "sqitch", client "psql", verify off (read at 0123456789ab)';

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
      context: { honourMarks: true, sqitch: DEFAULTS },
      lines: [
        'destructive overrides of wave 1 "staging": honoured (read at 0123456789ab: wave 1 "staging" by name and position)',
        DEFAULT_LINE,
      ],
    });
  });
  await t.step("honoured by the change only: ignored, with a note", () => {
    const { context, lines } = contextOf(
      specText({ destructiveOverrides: "honour" }),
      specText({}),
    );
    expect(context).toEqual({ honourMarks: false, sqitch: DEFAULTS });
    expect(lines).toEqual([
      'destructive overrides of wave 1 "staging": ignored (read at 0123456789ab: wave 1 "staging" by name and position)',
      'note: this change says destructiveOverrides "honour" for wave 1 "staging"; it is read at base, so not-destructive marks are ignored for this change, and honoured for a change based on it',
      DEFAULT_LINE,
    ]);
  });
  await t.step("OpenTofu needs nothing, and logs nothing", () => {
    const tofu = specText({}, "opentofu");
    expect(contextOf(tofu, tofu)).toEqual({ context: undefined, lines: [] });
  });
});

Deno.test("toolContext() reads how sqitch runs at base, never from the change", async (t) => {
  const tool = {
    binary: "/opt/sqitch/bin/sqitch",
    client: "/usr/lib/postgresql/15/bin/psql",
    verify: true,
  };
  await t.step("the base's program, client and verify", () => {
    const text = specText({}, "sqitch", tool);
    const { context, lines } = contextOf(text, text);
    expect(context?.sqitch).toEqual({
      program: "/opt/sqitch/bin/sqitch",
      client: "/usr/lib/postgresql/15/bin/psql",
      verify: true,
    });
    expect(lines[1]).toBe(
      'sqitch runs as at base: program "/opt/sqitch/bin/sqitch", client "/usr/lib/postgresql/15/bin/psql", verify on (read at 0123456789ab)',
    );
  });
  await t.step("the change's own say nothing until merged", () => {
    const { context, lines } = contextOf(
      specText({}, "sqitch", { client: "/builds/wrapper", verify: true }),
      specText({}),
    );
    expect(context?.sqitch).toEqual(DEFAULTS);
    expect(lines.slice(1)).toEqual([
      DEFAULT_LINE,
      'note: this change says client "/builds/wrapper", verify on for sqitch; it is read at base, so it counts once the change is merged',
    ]);
  });
  await t.step("no spec at base: the defaults", () => {
    const stderr = memoryWriter();
    const spec = parseSpec(specText({}, "sqitch", tool), "w.json");
    const context = toolContext(
      spec,
      [{ sha: SHA, spec: { status: "absent" } }],
      spec.waves[0],
      { stderr },
    );
    expect(context?.sqitch).toEqual(DEFAULTS);
    expect(stderr.lines()[1]).toBe(
      'sqitch runs as at base: program "sqitch", client "psql", verify off (the spec is not in 0123456789ab)',
    );
  });
});
