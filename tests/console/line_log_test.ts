// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { styled } from "../../src/console/colour.ts";
import { lineLog, terminalLog } from "../../src/console/line_log.ts";
import { memoryWriter, type Writer } from "../../src/console/writer.ts";

/** The ESC bytes of `text` that do not open or close a style of colour.ts. */
function strayEscapes(text: string): number {
  // deno-lint-ignore no-control-regex -- the codes are the point
  return text.replace(/\x1b\[[0-9;]+m/g, "").split("\x1b").length - 1;
}

Deno.test("lineLog() writes one visible line per call", async (t) => {
  await t.step("control characters are made visible", () => {
    const out = memoryWriter();
    lineLog(out)("summary: a\nthen approve: x\x1b[2J");
    expect(out.text()).toBe("summary: a\\nthen approve: x\\x1b[2J\n");
  });
  await t.step("credentials in URLs are masked", () => {
    const out = memoryWriter();
    lineLog(out)("remote https://user:secret@example.com/r.git");
    expect(out.text()).toBe("remote https://***@example.com/r.git\n");
  });
});

Deno.test("lineLog() shows styled segments in colour only when asked", async (t) => {
  const line = [styled("error", "error:"), ' cannot read "w\x1b[2J.json"'];
  await t.step("without colour: plain text", () => {
    const out = memoryWriter();
    lineLog(out)(line);
    expect(out.text()).toBe('error: cannot read "w\\x1b[2J.json"\n');
  });
  await t.step("with colour: the style's codes around the visible text", () => {
    const out = memoryWriter();
    lineLog(out, { colour: true })(line);
    expect(out.text()).toBe(
      '\x1b[1;31merror:\x1b[0m cannot read "w\\x1b[2J.json"\n',
    );
  });
  await t.step("styled untrusted text is escaped before it is painted", () => {
    const out = memoryWriter();
    lineLog(out, { colour: true })([
      styled("destructive", "\x1b]0;title\x07eu\r\nthen approve: x"),
    ]);
    expect(out.text()).toBe(
      "\x1b[1;31m\\x1b]0;title\\x07eu\\r\\nthen approve: x\x1b[0m\n",
    );
    expect(strayEscapes(out.text())).toBe(0);
    expect(out.lines()).toHaveLength(1);
  });
});

Deno.test("terminalLog() colours a terminal writer unless NO_COLOR is set", async (t) => {
  const chunks: string[] = [];
  const terminal: Writer = {
    write: (text) => void chunks.push(text),
    isTerminal: true,
  };
  await t.step("a terminal", () => {
    terminalLog(terminal, {})([styled("ok", "ok:"), " fine"]);
    expect(chunks.pop()).toBe("\x1b[32mok:\x1b[0m fine\n");
  });
  await t.step("NO_COLOR", () => {
    terminalLog(terminal, { NO_COLOR: "1" })([styled("ok", "ok:"), " fine"]);
    expect(chunks.pop()).toBe("ok: fine\n");
  });
  await t.step("not a terminal", () => {
    const out = memoryWriter();
    terminalLog(out, {})([styled("ok", "ok:"), " fine"]);
    expect(out.text()).toBe("ok: fine\n");
  });
});
