/**
 * Share slicing (SPEC.md §4.7): cut a wave's (or a group's) runs, sorted by target,
 * into contiguous slices whose sizes differ by at most one, the larger first.
 * Pure; the job expansion and the share jobs of the runner both use it.
 * @module
 */

/**
 * Sorts items by target in UTF-16 code unit order, the order of the set digest.
 * @param items Anything with a `target`.
 * @returns A new, sorted array.
 */
export function sortByTarget<T extends { target: string }>(
  items: readonly T[],
): T[] {
  return [...items].sort((a, b) =>
    a.target < b.target ? -1 : a.target > b.target ? 1 : 0
  );
}

/**
 * Returns share `share` (1-based) of `shares` contiguous slices of the runs sorted by
 * target; sizes differ by at most one and the larger slices come first.
 * @param runs The runs to slice, in any order.
 * @param shares How many slices, at least 1.
 * @param share Which slice, from 1 to `shares`.
 * @returns The runs of that slice, sorted by target (possibly empty).
 * @throws {RangeError} When `share` is not within 1..`shares`.
 * @example
 * ```ts
 * sliceShare([{ target: "t3" }, { target: "t1" }, { target: "t2" }], 2, 1);
 * // [{ target: "t1" }, { target: "t2" }]
 * ```
 */
export function sliceShare<T extends { target: string }>(
  runs: readonly T[],
  shares: number,
  share: number,
): T[] {
  if (!Number.isInteger(share) || share < 1 || share > shares) {
    throw new RangeError(`share ${share} is not within 1..${shares}`);
  }
  const sorted = sortByTarget(runs);
  const base = Math.floor(sorted.length / shares);
  const larger = sorted.length % shares;
  const start = (share - 1) * base + Math.min(share - 1, larger);
  const size = base + (share <= larger ? 1 : 0);
  return sorted.slice(start, start + size);
}
