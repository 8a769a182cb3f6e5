// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  paint,
  styled,
  styledLead,
  STYLES,
  useColour,
} from "../../src/console/colour.ts";
import { memoryWriter, type Writer } from "../../src/console/writer.ts";

const terminal: Writer = { write() {}, isTerminal: true };

Deno.test("useColour() colours only a terminal, without NO_COLOR or TERM=dumb", async (t) => {
  const cases: {
    name: string;
    writer: Writer;
    env: Record<string, string>;
    want: boolean;
  }[] = [
    { name: "a terminal", writer: terminal, env: {}, want: true },
    {
      name: "a terminal with TERM=xterm",
      writer: terminal,
      env: { TERM: "xterm-256color" },
      want: true,
    },
    { name: "not a terminal", writer: memoryWriter(), env: {}, want: false },
    {
      name: "isTerminal false",
      writer: { write() {}, isTerminal: false },
      env: {},
      want: false,
    },
    {
      name: "NO_COLOR=1",
      writer: terminal,
      env: { NO_COLOR: "1" },
      want: false,
    },
    {
      name: "NO_COLOR with any value",
      writer: terminal,
      env: { NO_COLOR: "false" },
      want: false,
    },
    {
      name: "an empty NO_COLOR is unset (no-color.org)",
      writer: terminal,
      env: { NO_COLOR: "" },
      want: true,
    },
    {
      name: "TERM=dumb",
      writer: terminal,
      env: { TERM: "dumb" },
      want: false,
    },
    {
      name: "FORCE_COLOR does not colour a pipe",
      writer: memoryWriter(),
      env: { FORCE_COLOR: "1" },
      want: false,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(useColour(c.writer, c.env)).toBe(c.want));
  }
});

Deno.test("paint() wraps text in its style's codes and a reset", async (t) => {
  await t.step("each style", () => {
    for (const style of STYLES) {
      // deno-lint-ignore no-control-regex -- the codes are the point
      expect(paint(style, "x")).toMatch(/^\x1b\[[0-9;]+mx\x1b\[0m$/);
    }
  });
  await t.step("error is bold red, ok green", () => {
    expect(paint("error", "error:")).toBe("\x1b[1;31merror:\x1b[0m");
    expect(paint("ok", "ok:")).toBe("\x1b[32mok:\x1b[0m");
  });
  await t.step(
    "empty text stays empty",
    () => expect(paint("ok", "")).toBe(""),
  );
});

Deno.test("styledLead() styles the leading word of chant-wave's own lines", async (t) => {
  const cases: { line: string; want: unknown }[] = [
    {
      line: "then approve: chant-wave approve tf tf-wave-2 --plan sha256:1",
      want: [
        styled("approve", "then approve:"),
        " chant-wave approve tf tf-wave-2 --plan sha256:1",
      ],
    },
    {
      line: "error: 1 run failed",
      want: [styled("error", "error:"), " 1 run failed"],
    },
    {
      line: "warning: ledger: x",
      want: [styled("warning", "warning:"), " ledger: x"],
    },
    {
      line: "ok: w.json: 1 waves",
      want: [styled("ok", "ok:"), " w.json: 1 waves"],
    },
    {
      line: "refused: eu moved",
      want: [styled("refused", "refused:"), " eu moved"],
    },
    {
      line: "waiting: always",
      want: [styled("waiting", "waiting:"), " always"],
    },
    {
      line: "approved tf-wave-2 of tf",
      want: [styled("approved", "approved"), " tf-wave-2 of tf"],
    },
    { line: "planned 2 runs", want: "planned 2 runs" },
    {
      line: "  error: indented is not a lead",
      want: "  error: indented is not a lead",
    },
  ];
  for (const c of cases) {
    await t.step(c.line, () => expect(styledLead(c.line)).toEqual(c.want));
  }
});
