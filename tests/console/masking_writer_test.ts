// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { maskingWriter } from "../../src/console/masking_writer.ts";
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
