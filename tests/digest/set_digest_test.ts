// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHash } from "node:crypto";
import { isDigest, setDigest } from "../../src/digest/set_digest.ts";

const d = (c: string) => "sha256:" + c.repeat(64);

Deno.test("setDigest() matches the test vectors of SPEC.md §4.3", async (t) => {
  const cases = [
    {
      name: "no members",
      members: [],
      want:
        "sha256:1fa77cc2ae4f64b25382f00ebcf74210c66068d22785dbd5192eac122050ab1e",
    },
    {
      name: "one member",
      members: [{ target: "staging", planDigest: d("a") }],
      want:
        "sha256:121fce9fb501cc2872d4239f620d465480edef5fcbe86d290f3b17c017231e8d",
    },
    {
      name: "three members out of order",
      members: [
        { target: "t3", planDigest: d("3") },
        { target: "t1", planDigest: d("1") },
        { target: "t2", planDigest: d("2") },
      ],
      want:
        "sha256:106d25f35ee6bc02e9aa253d0b2633a764396833c82e0c5ec5a4ad83a2a85b4e",
    },
    {
      name: "path-like targets",
      members: [
        { target: "live/dev/a", planDigest: d("1") },
        { target: "live/prod/a", planDigest: d("2") },
        { target: "live/prod/b", planDigest: d("3") },
        { target: "live/prod/c", planDigest: d("4") },
      ],
      want:
        "sha256:e66a797b5182ee8290c0f89d48493e80a89830af6dd5533dc5f1e6df63f9fab0",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(setDigest(c.members)).toBe(c.want));
  }
});

Deno.test("setDigest() does not depend on the members' order or other fields", () => {
  const members = [
    { target: "t1", planDigest: d("1"), destructive: true, summary: "x" },
    { target: "t2", planDigest: d("2"), empty: false },
    { target: "t3", planDigest: d("3") },
  ];
  const want =
    "sha256:106d25f35ee6bc02e9aa253d0b2633a764396833c82e0c5ec5a4ad83a2a85b4e";
  expect(setDigest(members)).toBe(want);
  expect(setDigest([...members].reverse())).toBe(want);
  expect(setDigest([members[1], members[2], members[0]])).toBe(want);
});

Deno.test("setDigest() sorts by UTF-16 code unit order, not locale order", () => {
  // "B" (0x42) < "a" (0x61) in code units, though localeCompare puts "a" first;
  // "\u{1F600}" is a surrogate pair (0xD83D 0xDE00) so it sorts before "\uFFFF",
  // though its code point is larger.
  const members = [
    { target: "\uFFFF", planDigest: d("3") },
    { target: "a", planDigest: d("1") },
    { target: "\u{1F600}", planDigest: d("4") },
    { target: "B", planDigest: d("2") },
  ];
  const text = '{"kind":"change-set","subject":[' +
    `{"member":"B","planDigest":"${d("2")}"},` +
    `{"member":"a","planDigest":"${d("1")}"},` +
    `{"member":"\u{1F600}","planDigest":"${d("4")}"},` +
    `{"member":"\uFFFF","planDigest":"${d("3")}"}]}`;
  const want = "sha256:" +
    createHash("sha256").update(new TextEncoder().encode(text)).digest("hex");
  expect(setDigest(members)).toBe(want);
});

Deno.test("setDigest() escapes targets as JSON strings", () => {
  // A quote in a target cannot forge another member.
  const a = setDigest([{ target: 'x","planDigest":"y', planDigest: d("1") }]);
  const b = setDigest([{ target: "x", planDigest: d("1") }]);
  expect(a).not.toBe(b);
  expect(isDigest(a)).toBe(true);
});

Deno.test("setDigest() throws when two members have the same target", () => {
  expect(() =>
    setDigest([
      { target: "t1", planDigest: d("1") },
      { target: "t2", planDigest: d("2") },
      { target: "t1", planDigest: d("3") },
    ])
  ).toThrow('cannot compute the set digest: target "t1" appears twice');
});

Deno.test("isDigest() accepts sha256: and 64 lowercase hex only", async (t) => {
  const cases: { name: string; text: unknown; want: boolean }[] = [
    { name: "lowercase hex", text: d("0"), want: true },
    {
      name: "mixed digits",
      text: "sha256:" + "0123456789abcdef".repeat(4),
      want: true,
    },
    { name: "uppercase hex", text: d("A"), want: false },
    { name: "63 digits", text: "sha256:" + "a".repeat(63), want: false },
    { name: "65 digits", text: "sha256:" + "a".repeat(65), want: false },
    { name: "no prefix", text: "a".repeat(64), want: false },
    { name: "other algorithm", text: "sha512:" + "a".repeat(64), want: false },
    { name: "non-hex letter", text: d("g"), want: false },
    { name: "trailing newline", text: d("a") + "\n", want: false },
    { name: "empty", text: "", want: false },
    { name: "not a string", text: 42, want: false },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(isDigest(c.text)).toBe(c.want));
  }
});

Deno.test("setDigest() of a large wave is the digest of its whole text", () => {
  // Hashed a piece at a time: pieces end between members, whatever their size
  // (a target of 40,000 characters is larger than a piece) and characters.
  const members = Array.from({ length: 3000 }, (_, i) => ({
    target: i === 7
      ? "é".repeat(40_000)
      : `t-${String(i).padStart(5, "0")}-\u{1F600}`,
    planDigest: d(String(i % 10)),
  }));
  const sorted = [...members].sort((a, b) =>
    a.target < b.target ? -1 : a.target > b.target ? 1 : 0
  );
  const text = JSON.stringify({
    kind: "change-set",
    subject: sorted.map((m) => ({
      member: m.target,
      planDigest: m.planDigest,
    })),
  });
  const want = "sha256:" +
    createHash("sha256").update(new TextEncoder().encode(text)).digest("hex");
  expect(setDigest(members)).toBe(want);
});

Deno.test("setDigest() tells how much of its text it hashed, piece by piece", () => {
  const members = Array.from({ length: 1000 }, (_, i) => ({
    target: `t-${i}`,
    planDigest: d(String(i % 10)),
  }));
  const pieces: number[] = [];
  const digest = setDigest(members, (chars) => pieces.push(chars));
  expect(digest).toBe(setDigest([...members].reverse()));
  expect(pieces.length).toBeGreaterThan(2);
  const text = JSON.stringify({
    kind: "change-set",
    subject: members.map((m) => ({
      member: m.target,
      planDigest: m.planDigest,
    }))
      .sort((a, b) => a.member < b.member ? -1 : 1),
  });
  // Each batch's brackets are cut: the pieces add up to a little more.
  const told = pieces.reduce((a, b) => a + b, 0);
  expect(told).toBeGreaterThanOrEqual(text.length);
  expect(told).toBeLessThan(text.length + 2 * pieces.length);
});
