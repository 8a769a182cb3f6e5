/**
 * Seeded mutations for the fuzz tests: a small deterministic PRNG and mutators
 * that damage text the way hostile or broken input does (flipped and inserted
 * bytes, control and multi-byte characters, cut and doubled ranges, huge values,
 * deep nesting, wrong types). The same seed gives the same cases on every run.
 * @module
 */

/** A seeded random source: `next()` in [0, 1). */
export interface Random {
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One of `items`. */
  pick<T>(items: readonly T[]): T;
}

/**
 * mulberry32: tiny, fast and good enough to spread mutations.
 * @param seed Any 32-bit integer.
 * @returns The random source.
 */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

const NASTY = [
  "\0",
  "\x1b[2J",
  "\r",
  "\n",
  "\u202e",
  "\ud800",
  "€",
  "💥",
  '"',
  "\\",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "//",
  "/*",
  "null",
  "true",
  "-1",
  "1e309",
  "0.5",
  '"HEAD"',
  '"sha256:zz"',
];

const VALUES = [
  "null",
  "true",
  "[]",
  "{}",
  '""',
  "-1",
  "0",
  "1e999",
  "9007199254740993",
  '"x"',
  `"${"k".repeat(70_000)}"`,
  "[".repeat(200) + "]".repeat(200),
  '"\\u0000\\u001b"',
  '{"__proto__":{"x":1}}',
];

/**
 * Damages `text` with one to four random mutations.
 * @param text Valid input.
 * @param random The seeded source.
 * @returns Damaged input.
 */
export function mutate(text: string, random: Random): string {
  let out = text;
  const times = 1 + random.int(4);
  for (let i = 0; i < times; i++) {
    const at = random.int(out.length + 1);
    const to = Math.min(out.length, at + random.int(40));
    switch (random.int(7)) {
      case 0: // flip a character
        out = out.slice(0, at) +
          String.fromCharCode(random.int(0x2100)) + out.slice(at + 1);
        break;
      case 1: // insert something nasty
        out = out.slice(0, at) + random.pick(NASTY) + out.slice(at);
        break;
      case 2: // cut a range
        out = out.slice(0, at) + out.slice(to);
        break;
      case 3: // double a range
        out = out.slice(0, to) + out.slice(at, to) + out.slice(to);
        break;
      case 4: { // replace a JSON value
        const colon = out.indexOf(":", at);
        if (colon < 0) break;
        const end = out.slice(colon + 1).search(/[,}\]]/);
        out = out.slice(0, colon + 1) + random.pick(VALUES) +
          (end < 0 ? "" : out.slice(colon + 1 + end));
        break;
      }
      case 5: // truncate
        out = out.slice(0, at);
        break;
      default: // swap a string for a number or vice versa
        out = out.replace(/"[^"]*"/, random.pick(['"', "7", "[", '"\\']));
    }
  }
  return out;
}
