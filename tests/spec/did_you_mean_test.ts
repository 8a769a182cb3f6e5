// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { suggest } from "../../src/spec/did_you_mean.ts";

const WAVE_KEYS = [
  "name",
  "runs",
  "gate",
  "shares",
  "jobs",
  "parallel",
  "onFailure",
  "timeout",
  "environment",
  "variables",
  "runner",
  "idTokens",
  "discover",
];

Deno.test("suggest() finds the nearest known word", async (t) => {
  const cases: {
    name: string;
    word: string;
    candidates: string[];
    want?: string;
  }[] = [
    {
      name: "a missing letter",
      word: "share",
      candidates: WAVE_KEYS,
      want: "shares",
    },
    {
      name: "an extra letter",
      word: "timeoutt",
      candidates: WAVE_KEYS,
      want: "timeout",
    },
    {
      name: "a wrong letter",
      word: "dizcover",
      candidates: WAVE_KEYS,
      want: "discover",
    },
    {
      name: "two swapped letters",
      word: "rnus",
      candidates: WAVE_KEYS,
      want: "runs",
    },
    {
      name: "another case",
      word: "onfailure",
      candidates: WAVE_KEYS,
      want: "onFailure",
    },
    {
      name: "two edits in a long word",
      word: "enviroment",
      candidates: WAVE_KEYS,
      want: "environment",
    },
    { name: "nothing close", word: "colour", candidates: WAVE_KEYS },
    {
      name: "a short word needs a near match",
      word: "ab",
      candidates: ["ac", "b"],
    },
    {
      name: "a short word differing by case only",
      word: "OP",
      candidates: ["op"],
      want: "op",
    },
    { name: "no candidates", word: "shares", candidates: [] },
    {
      name: "ties go to the earlier candidate",
      word: "cat",
      candidates: ["bat", "car"],
      want: "bat",
    },
    {
      name: "the nearest wins over an earlier farther one",
      word: "plans",
      candidates: ["planWave", "plan"],
      want: "plan",
    },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () => expect(suggest(c.word, c.candidates)).toBe(c.want),
    );
  }
});
