// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  formatHeartbeat,
  formatStepLine,
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

Deno.test("stepConsole() writes a batch of lines in one write call", () => {
  const calls: string[] = [];
  const writer: Writer = { write: (text) => calls.push(text) };
  const out = stepConsole(writer, "plan", "eu");
  out.lines(["a", "b"]);
  out.lines([]);
  out.lines(["c"]);
  out.heartbeat(5_000);
  expect(calls).toEqual([
    "[plan] eu | a\n[plan] eu | b\n",
    "[plan] eu | c\n",
    "[plan] eu: still running after 5s\n",
  ]);
});

Deno.test("stepConsole() lines of two steps never mix within a line", () => {
  const writer = memoryWriter();
  const a = stepConsole(writer, "apply", "a");
  const b = stepConsole(writer, "apply", "b");
  a.lines(["1"]);
  b.lines(["x", "y"]);
  a.lines(["2"]);
  expect(writer.lines()).toEqual([
    "[apply] a | 1",
    "[apply] b | x",
    "[apply] b | y",
    "[apply] a | 2",
  ]);
});
