/** Types for the parts of `@std/assert` (npm mirror `deno-std`) chant-wave's tests use. */

export function assert(expr: unknown, msg?: string): asserts expr;
export function assertEquals<T>(actual: T, expected: T, msg?: string): void;
export function assertMatch(
  actual: string,
  expected: RegExp,
  msg?: string,
): void;
export function assertRejects(
  fn: () => PromiseLike<unknown>,
  msg?: string,
): Promise<unknown>;
