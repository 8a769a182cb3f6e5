/**
 * A small line diff for `chant-wave pipeline --check`: what changed between the
 * file on disk and the rendered one, as unified-style hunks with context. Pure;
 * it trims the common head and tail, then aligns the middle by longest common
 * subsequence (or, past a size bound, shows the middle as removed and added).
 * @module
 */

/** Lines of the middle beyond which no alignment is attempted. */
const MAX_ALIGNED = 2_000;

type Op = { kind: " " | "-" | "+"; text: string; old: number; new: number };

/**
 * The difference between `before` and `after`, or `""` when they are equal.
 * @param before The text on disk.
 * @param after The rendered text.
 * @param names The two sides' names for the `---`/`+++` lines.
 * @param context Unchanged lines shown around each change.
 * @returns Unified-style text ending with a newline, or `""`.
 * @example
 * ```ts
 * diffLines("a\nb\n", "a\nc\n", ["old", "new"]);
 * // "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 * ```
 */
export function diffLines(
  before: string,
  after: string,
  names: readonly [string, string],
  context = 3,
): string {
  if (before === after) return "";
  const ops = align(splitLines(before), splitLines(after));
  const out = [`--- ${names[0]}`, `+++ ${names[1]}`];
  for (const hunk of hunks(ops, context)) out.push(...hunk);
  return out.join("\n") + "\n";
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else if (lines.length > 0) lines[lines.length - 1] += " (no newline at end)";
  return lines;
}

function align(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const ops: Op[] = [];
  const same = (i: number, j: number) =>
    ops.push({ kind: " ", text: a[i], old: i, new: j });
  for (let i = 0; i < head; i++) same(i, i);
  middle(a, b, head, a.length - tail, b.length - tail, ops);
  for (let t = tail; t > 0; t--) same(a.length - t, b.length - t);
  return ops;
}

function middle(
  a: string[],
  b: string[],
  from: number,
  endA: number,
  endB: number,
  ops: Op[],
): void {
  const n = endA - from;
  const m = endB - from;
  if (n > MAX_ALIGNED || m > MAX_ALIGNED || n === 0 || m === 0) {
    for (let i = from; i < endA; i++) {
      ops.push({ kind: "-", text: a[i], old: i, new: from });
    }
    for (let j = from; j < endB; j++) {
      ops.push({ kind: "+", text: b[j], old: endA, new: j });
    }
    return;
  }
  // lcs[i][j]: common lines of a[from+i..] and b[from+j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[from + i] === b[from + j]
        ? lcs[i + 1][j + 1] + 1
        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[from + i] === b[from + j]) {
      ops.push({ kind: " ", text: a[from + i], old: from + i, new: from + j });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push({ kind: "-", text: a[from + i], old: from + i, new: from + j });
      i++;
    } else {
      ops.push({ kind: "+", text: b[from + j], old: from + i, new: from + j });
      j++;
    }
  }
}

function hunks(ops: Op[], context: number): string[][] {
  const changed = ops.flatMap((op, index) => op.kind === " " ? [] : [index]);
  const result: string[][] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (
      end + 1 < changed.length &&
      changed[end + 1] - changed[end] <= 2 * context + 1
    ) end++;
    const from = Math.max(0, changed[start] - context);
    const to = Math.min(ops.length, changed[end] + context + 1);
    const slice = ops.slice(from, to);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    const header = `@@ -${slice[0].old + 1},${oldCount} +${
      slice[0].new + 1
    },${newCount} @@`;
    result.push([header, ...slice.map((op) => `${op.kind}${op.text}`)]);
    start = end + 1;
  }
  return result;
}
