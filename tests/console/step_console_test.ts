// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  formatHeartbeat,
  formatStepLine,
  type StepConsole,
  stepConsole,
} from "../../src/console/step_console.ts";
import { memoryWriter, type Writer } from "../../src/console/writer.ts";

Deno.test("formatStepLine() prints [phase] target | line", async (t) => {
  const cases = [
    {
      phase: "plan",
      target: "prod-eu",
      line: "2 to add",
      want: "[plan] prod-eu | 2 to add",
    },
    {
      phase: "apply",
      target: "live/prod/vpc",
      line: "done",
      want: "[apply] live/prod/vpc | done",
    },
    { phase: "hook", target: "t", line: "", want: "[hook] t | " },
  ];
  for (const c of cases) {
    await t.step(
      c.phase,
      () => expect(formatStepLine(c.phase, c.target, c.line)).toBe(c.want),
    );
  }
});

Deno.test("formatHeartbeat() prints whole seconds, rounded down", async (t) => {
  const cases = [
    {
      name: "exact",
      ms: 60_000,
      want: "[apply] prod-eu: still running after 60s",
    },
    {
      name: "rounded down",
      ms: 90_999,
      want: "[apply] prod-eu: still running after 90s",
    },
    {
      name: "under a second",
      ms: 400,
      want: "[apply] prod-eu: still running after 0s",
    },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () => expect(formatHeartbeat("apply", "prod-eu", c.ms)).toBe(c.want),
    );
  }
});

/** Adds lines to a console the way the splitter hands them over. */
function addLines(out: StepConsole, lines: readonly string[]): void {
  for (const line of lines) {
    const data = new TextEncoder().encode(`..${line}..`);
    const plain = data.every((b) => b === 9 || (b >= 0x20 && b <= 0x7e));
    out.line(data, 2, data.length - 2, plain);
  }
}

Deno.test("stepConsole() writes a batch of lines in one write call", () => {
  const calls: string[] = [];
  const writer: Writer = { write: (text) => calls.push(text) };
  const out = stepConsole(writer, "plan", "eu");
  addLines(out, ["a", "b"]);
  expect(out.flush()).toBe(true);
  expect(out.flush()).toBe(false);
  addLines(out, ["c"]);
  out.heartbeat(5_000);
  expect(calls).toEqual([
    "[plan] eu | a\n[plan] eu | b\n",
    "[plan] eu | c\n",
    "[plan] eu: still running after 5s\n",
  ]);
});

Deno.test("stepConsole() writes bytes to a writer that takes them", () => {
  const calls: Uint8Array[] = [];
  const writer: Writer = {
    write: () => {
      throw new Error("text instead of bytes");
    },
    writeBytes: (bytes) => calls.push(bytes.slice()),
  };
  const out = stepConsole(writer, "apply", "eu");
  addLines(out, ["é", "x"]);
  out.flush();
  expect(calls.map((c) => new TextDecoder().decode(c))).toEqual([
    "[apply] eu | é\n[apply] eu | x\n",
  ]);
});

Deno.test("stepConsole() prints lines as formatStepLine() does", async (t) => {
  const cases = [
    { name: "plain", line: "2 to add\tok" },
    { name: "escape sequences", line: "\x1b[2Jcleared\x1b]0;title\x07" },
    { name: "a bare \\r and DEL", line: "10%\r20%\x7f" },
    { name: "NUL and C1 controls", line: "a\0b\u0085c\u009b" },
    { name: "bidi and line separators", line: "x\u202ey\u2028z\u2066" },
    { name: "UTF-8", line: "✓ done — 😀 ñ" },
    { name: "a forged log line", line: "ok\nerror: forged" },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const writer = memoryWriter();
      const out = stepConsole(writer, "plan", "t\x1b");
      addLines(out, [c.line]);
      out.flush();
      expect(writer.text()).toBe(
        formatStepLine("plan", "t\x1b", c.line) + "\n",
      );
    });
  }
  await t.step("invalid UTF-8 is replaced", () => {
    const writer = memoryWriter();
    const out = stepConsole(writer, "plan", "t");
    out.line(Uint8Array.of(0x61, 0xff, 0xe2, 0x82, 0x62), 0, 5, false);
    out.flush();
    expect(writer.text()).toBe("[plan] t | a\uFFFD\uFFFDb\n");
  });
});

Deno.test("stepConsole() writes a big batch in parts that end with whole lines", () => {
  const calls: string[] = [];
  const writer: Writer = { write: (text) => calls.push(text) };
  const out = stepConsole(writer, "plan", "eu");
  const line = "x".repeat(1000);
  addLines(out, Array.from({ length: 1000 }, () => line));
  out.flush();
  expect(calls.length).toBeGreaterThan(1);
  for (const call of calls) {
    expect(call.endsWith("\n")).toBe(true);
    for (const printed of call.slice(0, -1).split("\n")) {
      expect(printed).toBe(`[plan] eu | ${line}`);
    }
  }
  expect(calls.join("").length).toBe(1000 * (line.length + 13));
});

Deno.test("stepConsole() lines of two steps never mix within a line", () => {
  const writer = memoryWriter();
  const a = stepConsole(writer, "apply", "a");
  const b = stepConsole(writer, "apply", "b");
  addLines(a, ["1"]);
  a.flush();
  addLines(b, ["x", "y"]);
  b.flush();
  addLines(a, ["2"]);
  a.flush();
  expect(writer.lines()).toEqual([
    "[apply] a | 1",
    "[apply] b | x",
    "[apply] b | y",
    "[apply] a | 2",
  ]);
});
