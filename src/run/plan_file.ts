/**
 * Reading a plan file (SPEC.md §4.2): the JSON a plan command writes, checked for
 * its exact form. Pure: the caller reads the bytes.
 * @module
 */

import { targetFormProblem } from "../spec/target_form.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { MAX_TARGET_LENGTH } from "../limits.ts";
import { quote } from "../quote.ts";

/** A value from a plan file, for a message: strings quoted and cut, others as JSON, cut. */
function shown(value: unknown): string {
  return typeof value === "string"
    ? quote(value)
    : quote(JSON.stringify(value) ?? String(value)).slice(1, -1);
}

/**
 * One thing a plan will change, for the approver (SPEC.md §13.1): a resource
 * address or a migration's name, and what happens to it.
 */
export interface PlanChange {
  /** What changes: `aws_instance.web`, a sqitch change's name. */
  address: string;
  /** `create`, `update`, `delete`, `replace`, `read`, or the tool's own word (`deploy`). */
  action: string;
}

/** What a plan command reports about one run. */
export interface PlanFile {
  planDigest: string;
  destructive: boolean;
  empty: boolean;
  summary?: string;
  /** What the plan changes, in the tool's order (only when the file lists it). */
  changes?: PlanChange[];
}

/** The most `changes` a plan file may list. */
export const MAX_PLAN_CHANGES = 10_000;
/** The longest `address` of a change, in characters. */
export const MAX_CHANGE_ADDRESS = 1024;
/** An action: a lowercase word of at most 32 characters (`create`, `deploy`). */
const ACTION = /^[a-z][a-z0-9_-]{0,31}$/;

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Parses and checks a plan file's text.
 * @param text The file's content.
 * @returns The plan, with `destructive` and `empty` defaulting to false, and
 *   `changes` (each entry's `address` and `action` only) when the file lists them.
 * @throws {Error} A one-line reason (`is not JSON: …`, `has no "planDigest"`,
 *   `"planDigest" is not sha256:<64 lowercase hex>: "…"`, `"changes"[3]: …`);
 *   the caller adds the target and path.
 * @example
 * ```ts
 * parsePlanFile(`{"planDigest":"sha256:${"a".repeat(64)}"}`).empty; // false
 * ```
 */
export function parsePlanFile(text: string): PlanFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("is not a JSON object");
  }
  const plan = value as Record<string, unknown>;
  if (plan.planDigest === undefined) throw new Error('has no "planDigest"');
  if (typeof plan.planDigest !== "string" || !DIGEST.test(plan.planDigest)) {
    throw new Error(
      `"planDigest" is not sha256:<64 lowercase hex>: ${
        shown(plan.planDigest)
      }`,
    );
  }
  for (const flag of ["destructive", "empty"] as const) {
    if (plan[flag] !== undefined && typeof plan[flag] !== "boolean") {
      throw new Error(
        `"${flag}" is not true or false: ${shown(plan[flag])}`,
      );
    }
  }
  if (plan.summary !== undefined && typeof plan.summary !== "string") {
    throw new Error(
      `"summary" is not a string: ${shown(plan.summary)}`,
    );
  }
  return {
    planDigest: plan.planDigest,
    destructive: plan.destructive === true,
    empty: plan.empty === true,
    ...(plan.summary === undefined ? {} : { summary: plan.summary as string }),
    ...(plan.changes === undefined
      ? {}
      : { changes: parseChanges(plan.changes) }),
  };
}

/**
 * Checks a plan file's `changes`: a list of at most {@linkcode MAX_PLAN_CHANGES}
 * objects, each with a non-empty `address` of at most
 * {@linkcode MAX_CHANGE_ADDRESS} characters and an `action` word.
 */
function parseChanges(value: unknown): PlanChange[] {
  if (!Array.isArray(value)) {
    throw new Error(`"changes" is not a list: ${shown(value)}`);
  }
  if (value.length > MAX_PLAN_CHANGES) {
    throw new Error(
      `"changes" lists ${value.length} changes; at most ${MAX_PLAN_CHANGES}`,
    );
  }
  return value.map((entry, i) => {
    const where = `"changes"[${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new Error(`${where} is not an object: ${shown(entry)}`);
    }
    const { address, action } = entry as Record<string, unknown>;
    if (
      typeof address !== "string" || address === "" ||
      address.length > MAX_CHANGE_ADDRESS
    ) {
      throw new Error(
        `${where} has no "address" of 1 to ${MAX_CHANGE_ADDRESS} characters: ${
          shown(address)
        }`,
      );
    }
    if (typeof action !== "string" || !ACTION.test(action)) {
      throw new Error(
        `${where} "action" is not a lowercase word of at most 32 characters: ${
          shown(action)
        }`,
      );
    }
    return { address, action };
  });
}

/** One entry of a whole-wave plans file (SPEC.md §4.10). */
export interface WavePlanEntry extends PlanFile {
  target: string;
}

/** A whole-wave plans file: its entries and, for rest waves, how many waves the plan found. */
export interface WavePlans {
  /** The entries, in file order. */
  runs: WavePlanEntry[];
  /** `"waves": N` (§11): the plan found N waves in all. */
  waves?: number;
}

/** The most waves a plans file may report (a bound on untrusted input). */
export const MAX_REPORTED_WAVES = 10_000;

/**
 * Parses the `{plans}` file a `planWave` command writes:
 * `{ "runs": [{ "target", "planDigest", "destructive"?, "empty"?, "summary"? }],
 * "waves"?: N }`.
 * @param text The file's content.
 * @returns The entries, in file order, and `waves` when given.
 * @throws {Error} A one-line reason naming the entry (`runs[2] "eu": …`) or
 *   `"waves"`; the caller names the file.
 * @example
 * ```ts
 * parsePlansFile('{ "runs": [], "waves": 3 }'); // { runs: [], waves: 3 }
 * ```
 */
export function parsePlansFile(text: string): WavePlans {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`);
  }
  const { runs, waves } = (value ?? {}) as { runs?: unknown; waves?: unknown };
  if (!Array.isArray(runs)) throw new Error('has no "runs" array');
  if (
    waves !== undefined &&
    !(Number.isSafeInteger(waves) && (waves as number) >= 1 &&
      (waves as number) <= MAX_REPORTED_WAVES)
  ) {
    throw new Error(
      `"waves" is not a whole number from 1 to ${MAX_REPORTED_WAVES}: ${
        shown(waves)
      }`,
    );
  }
  return {
    runs: parseEntries(runs),
    ...(waves === undefined ? {} : { waves: waves as number }),
  };
}

function parseEntries(runs: unknown[]): WavePlanEntry[] {
  const seen = new Set<string>();
  return runs.map((entry, i) => {
    const target = (entry as { target?: unknown } | null)?.target;
    if (typeof target !== "string" || target === "") {
      throw new Error(`runs[${i}] has no "target"`);
    }
    if (target.length > MAX_TARGET_LENGTH || hasControlCharacter(target)) {
      throw new Error(
        `runs[${i}] has an invalid target ${
          quote(target)
        }: at most ${MAX_TARGET_LENGTH} characters, no control characters`,
      );
    }
    const form = targetFormProblem(target);
    if (form !== undefined) throw new Error(`runs[${i}] has a ${form}`);
    if (seen.has(target)) {
      throw new Error(`runs[${i}] "${target}" appears twice`);
    }
    seen.add(target);
    try {
      return { target, ...parsePlanFile(JSON.stringify(entry)) };
    } catch (error) {
      throw new Error(`runs[${i}] "${target}" ${(error as Error).message}`);
    }
  });
}
