// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { formatDuration, parseDuration } from "../../src/spec/duration.ts";

Deno.test("parseDuration() reads the forms of SPEC.md §2", async (t) => {
  const cases: { text: string; ms: number }[] = [
    { text: "90s", ms: 90_000 },
    { text: "15m", ms: 900_000 },
    { text: "2h", ms: 7_200_000 },
    { text: "1h30m", ms: 5_400_000 },
    { text: "1h0m5s", ms: 3_605_000 },
    { text: "1h5s", ms: 3_605_000 },
    { text: "0", ms: 0 },
    { text: "0s", ms: 0 },
    { text: "48h", ms: 172_800_000 },
  ];
  for (const c of cases) {
    await t.step(c.text, () => expect(parseDuration(c.text)).toBe(c.ms));
  }
});

Deno.test("parseDuration() refuses any other form", async (t) => {
  const hint = 'use a form like "90s", "15m", "2h" or "1h30m", or 0';
  for (
    const text of [
      "",
      "5",
      "1.5h",
      "30m1h",
      "1d",
      "5 s",
      " 5s",
      "-5s",
      "5S",
      "h",
      "00:05",
    ]
  ) {
    await t.step(
      JSON.stringify(text),
      () =>
        expect(() => parseDuration(text)).toThrow(
          `invalid duration ${JSON.stringify(text)}: ${hint}`,
        ),
    );
  }
  await t.step(
    "too long",
    () =>
      expect(() => parseDuration("99999999999999999h")).toThrow(
        'duration "99999999999999999h" is too long',
      ),
  );
});

Deno.test("formatDuration() writes what parseDuration() reads", async (t) => {
  const cases: { ms: number; text: string }[] = [
    { ms: 0, text: "0" },
    { ms: -5, text: "0" },
    { ms: 90_000, text: "1m30s" },
    { ms: 5_400_000, text: "1h30m" },
    { ms: 3_605_000, text: "1h5s" },
    { ms: 1, text: "1s" },
    { ms: 1_500, text: "2s" },
    { ms: 172_800_000, text: "48h" },
  ];
  for (const c of cases) {
    await t.step(c.text, () => {
      expect(formatDuration(c.ms)).toBe(c.text);
      expect(parseDuration(formatDuration(c.ms))).toBe(
        Math.max(0, Math.ceil(c.ms / 1000) * 1000),
      );
    });
  }
});
