/** Types for the parts of `@std/expect` (npm mirror `deno-std`) chant-wave's tests use. */

/** The matchers of one `expect(value)`. */
export interface Expected {
  not: Expected;
  resolves: Async;
  rejects: Async;
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toStrictEqual(expected: unknown): void;
  toMatch(expected: RegExp | string): void;
  toMatchObject(expected: Record<PropertyKey, unknown> | unknown[]): void;
  toContain(expected: unknown): void;
  toContainEqual(expected: unknown): void;
  toHaveLength(expected: number): void;
  toHaveProperty(path: string | string[], value?: unknown): void;
  toBeDefined(): void;
  toBeUndefined(): void;
  toBeNull(): void;
  toBeTruthy(): void;
  toBeFalsy(): void;
  toBeGreaterThan(n: number | bigint): void;
  toBeGreaterThanOrEqual(n: number | bigint): void;
  toBeLessThan(n: number | bigint): void;
  toBeLessThanOrEqual(n: number | bigint): void;
  toBeCloseTo(n: number, digits?: number): void;
  toBeInstanceOf(type: unknown): void;
  toThrow(
    expected?: string | RegExp | Error | (new (...args: never[]) => Error),
  ): void;
  toHaveBeenCalled(): void;
  toHaveBeenCalledTimes(n: number): void;
  toHaveBeenCalledWith(...args: unknown[]): void;
  toHaveBeenLastCalledWith(...args: unknown[]): void;
  toHaveBeenNthCalledWith(n: number, ...args: unknown[]): void;
}

/** The matchers of `expect(promise).resolves` / `.rejects`. */
export type Async = {
  [K in keyof Expected]: Expected[K] extends (...args: infer A) => void
    ? (...args: A) => Promise<void>
    : Expected[K];
};

/** Starts an assertion on a value. */
export function expect(actual: unknown, customMessage?: string): Expected;

/** Any function, for {@linkcode fn}. */
// deno-lint-ignore no-explicit-any
type AnyFunction = (...args: any[]) => any;

/** Creates a spy function that records its calls and runs `implementation`. */
export function fn<T extends AnyFunction>(implementation?: T): T;
