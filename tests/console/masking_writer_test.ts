// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  maskingWriter,
  noWorkflowCommands,
} from "../../src/console/masking_writer.ts";
import { memoryWriter, type Writer } from "../../src/console/writer.ts";

const SECRET = "https://ci:tok@h/x?private_token=abc";
const MASKED = "https://***@h/x?private_token=***";

/** A writer that keeps what reached it, as text and as bytes. */
function bytesWriter(): Writer & { got: (string | Uint8Array)[] } {
  const got: (string | Uint8Array)[] = [];
  return {
    got,
    isTerminal: true,
    write: (text) => got.push(text),
    writeBytes: (bytes) => got.push(bytes),
  };
}

Deno.test("maskingWriter() masks URLs in everything written through it", async (t) => {
  await t.step("text", () => {
    const out = memoryWriter();
    maskingWriter(out).write(`{"error":"cannot reach ${SECRET}"}\n`);
    expect(out.text()).toBe(`{"error":"cannot reach ${MASKED}"}\n`);
  });
  await t.step("bytes holding a URL are masked as text", () => {
    const out = bytesWriter();
    const masking = maskingWriter(out);
    masking.writeBytes!(new TextEncoder().encode(`[plan] eu | ${SECRET}\n`));
    expect(out.got).toEqual([`[plan] eu | ${MASKED}\n`]);
  });
  await t.step("bytes without one pass through, not copied", () => {
    const out = bytesWriter();
    const bytes = new TextEncoder().encode("[plan] eu | 1 to add\n");
    maskingWriter(out).writeBytes!(bytes.subarray(0, 12));
    expect(out.got[0]).toBeInstanceOf(Uint8Array);
    expect((out.got[0] as Uint8Array).buffer).toBe(bytes.buffer);
  });
  await t.step("it keeps whether the writer is a terminal", () => {
    expect(maskingWriter(bytesWriter()).isTerminal).toBe(true);
    expect("isTerminal" in maskingWriter({ write() {} })).toBe(false);
    expect("writeBytes" in maskingWriter({ write() {} })).toBe(false);
  });
});

Deno.test("noWorkflowCommands() leaves no line a runner reads as a command", async (t) => {
  const cases: [string, string, string][] = [
    ["plain text", "a line\n", "a line\n"],
    ["a leading ::", "::error::x\n", "\\x3a:error::x\n"],
    ["after an indent", "  \t::notice::x\n", "  \t\\x3a:notice::x\n"],
    ["on a later line", "ok\n ::warning::x\n", "ok\n \\x3a:warning::x\n"],
    ["a :: inside a line", "a::b ::c\n", "a::b ::c\n"],
    [
      "the legacy ##[",
      "x ##[error]y ##[z\n",
      "x \\u0023#[error]y \\u0023#[z\n",
    ],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      expect(noWorkflowCommands(text)).toBe(expected);
    });
  }
  await t.step("written through maskingWriter", () => {
    const out = memoryWriter();
    maskingWriter(out).write("  ::add-mask::x\n");
    expect(out.text()).toBe("  \\x3a:add-mask::x\n");
  });
});
