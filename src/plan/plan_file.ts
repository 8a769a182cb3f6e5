/**
 * Reading a plan file (SPEC.md §4.2) and a whole-wave plans file (§4.10): the
 * JSON a plan command writes, checked for its exact form with the input reader
 * (`json_reader.ts`). Pure: the caller reads the bytes and names the file.
 * @module
 */

import { targetFormProblem } from "../spec/target_form.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { JsonReader, parseJson } from "../input/json_reader.ts";
import { MAX_TARGET_LENGTH } from "../limits.ts";
import { quote } from "../quote.ts";

/**
 * One thing a plan will change, for the approver (SPEC.md §13.1): a resource
 * address or a migration's name, and what happens to it.
 */
export interface PlanChange {
  /** What changes: `aws_instance.web`, a sqitch change's name. */
  address: string;
  /** `create`, `update`, `delete`, `replace`, `read`, or the tool's own word (`deploy`). */
  action: string;
  /**
   * The statements that make it destructive, as the tool quotes them (the
   * sqitch adapter: `deploy/x.sql:3: DROP TABLE: DROP TABLE accounts`), at
   * most {@linkcode MAX_CHANGE_STATEMENTS}, each cut to
   * {@linkcode MAX_STATEMENT_LENGTH} characters: shown to approvers, never
   * trusted.
   */
  statements?: string[];
  /**
   * For an update, the attribute paths it changes (`tags.Name`,
   * `ingress[0].cidr_blocks`), at most {@linkcode MAX_CHANGE_ATTRIBUTES},
   * each at most {@linkcode MAX_ATTRIBUTE_PATH} characters; absent when the
   * tool does not say (a plan rule's `only.attributes` then never holds).
   */
  attributes?: string[];
}

/** What a plan command reports about one run. */
export interface PlanFile {
  /** The plan's digest, `sha256:` and 64 lowercase hex. */
  planDigest: string;
  /** Whether applying it destroys something (the gate's `on-destructive`). */
  destructive: boolean;
  /** Whether applying it changes nothing. */
  empty: boolean;
  /** One line for approvers (`2 to add, 1 to destroy`). */
  summary?: string;
  /** What the plan changes, in the tool's order (only when the file lists it). */
  changes?: PlanChange[];
}

/** The most `changes` a plan file may list. */
export const MAX_PLAN_CHANGES = 10_000;
/** The longest `address` of a change, in characters. */
export const MAX_CHANGE_ADDRESS = 1024;
/** The most statements one change lists. */
export const MAX_CHANGE_STATEMENTS = 20;
/** The longest statement kept, in characters (a longer one is cut). */
export const MAX_STATEMENT_LENGTH = 400;
/** The most attribute paths one change lists. */
export const MAX_CHANGE_ATTRIBUTES = 64;
/** The longest attribute path, in characters. */
export const MAX_ATTRIBUTE_PATH = 256;
/** An action: a lowercase word of at most 32 characters (`create`, `deploy`). */
const ACTION = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * Parses and checks a plan file's text.
 * @param text The file's content.
 * @returns The plan, with `destructive` and `empty` defaulting to false, and
 *   `changes` (each entry's `address` and `action` only) when the file lists them.
 * @throws {ShapeError} A one-line reason without a source (`is not JSON: …`,
 *   `has no "planDigest"`, `"planDigest" is not sha256:<64 lowercase hex>:
 *   "…"`, `"changes[3].action" is not …`); the caller adds the target and path.
 * @example
 * ```ts
 * parsePlanFile(`{"planDigest":"sha256:${"a".repeat(64)}"}`).empty; // false
 * ```
 */
export function parsePlanFile(text: string): PlanFile {
  return readPlan(new JsonReader(parseJson(text)));
}

/** Reads one plan: a plan file's top level, or an entry of a plans file. */
function readPlan(plan: JsonReader): PlanFile {
  plan.object();
  const planDigest = plan.get("planDigest").digest();
  const flag = (key: string) =>
    plan.get(key).optional((r) => r.boolean()) === true;
  const destructive = flag("destructive");
  const empty = flag("empty");
  const summary = plan.get("summary").optional((r) => r.string());
  const changes = plan.get("changes").optional(readChanges);
  return {
    planDigest,
    destructive,
    empty,
    ...(summary === undefined ? {} : { summary }),
    ...(changes === undefined ? {} : { changes }),
  };
}

/**
 * Reads a plan file's `changes`: a list of at most {@linkcode MAX_PLAN_CHANGES}
 * objects, each with a non-empty `address` of at most
 * {@linkcode MAX_CHANGE_ADDRESS} characters, an `action` word, and optionally
 * `statements`, at most {@linkcode MAX_CHANGE_STATEMENTS} strings (each cut to
 * {@linkcode MAX_STATEMENT_LENGTH} characters), and `attributes`, at most
 * {@linkcode MAX_CHANGE_ATTRIBUTES} non-empty paths of at most
 * {@linkcode MAX_ATTRIBUTE_PATH} characters (a longer list or path fails: a
 * path cut short could match a rule it should not).
 */
function readChanges(changes: JsonReader): PlanChange[] {
  return changes.list(MAX_PLAN_CHANGES).map((entry) => {
    entry.object();
    const statements = entry.get("statements").optional((list) =>
      list.list(MAX_CHANGE_STATEMENTS).map((statement) =>
        statement.string().slice(0, MAX_STATEMENT_LENGTH)
      )
    );
    const attributes = entry.get("attributes").optional((list) =>
      list.list(MAX_CHANGE_ATTRIBUTES).map((path) =>
        path.string({ nonEmpty: true, max: MAX_ATTRIBUTE_PATH })
      )
    );
    return {
      address: entry.get("address").string({
        nonEmpty: true,
        max: MAX_CHANGE_ADDRESS,
      }),
      action: entry.get("action").matching(
        ACTION,
        "a lowercase word of at most 32 characters",
      ),
      ...(statements?.length ? { statements } : {}),
      ...(attributes === undefined ? {} : { attributes }),
    };
  });
}

/** One entry of a whole-wave plans file (SPEC.md §4.10). */
export interface WavePlanEntry extends PlanFile {
  /** The run's target. */
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
 * @throws {ShapeError} A one-line reason without a source, naming the entry
 *   (`"runs[2].planDigest" is not …`) or `"waves"`; the caller names the file.
 * @example
 * ```ts
 * parsePlansFile('{ "runs": [], "waves": 3 }'); // { runs: [], waves: 3 }
 * ```
 */
export function parsePlansFile(text: string): WavePlans {
  const file = new JsonReader(parseJson(text)).object();
  const entries = file.get("runs").list();
  const waves = file.get("waves").optional((r) =>
    r.integer({ min: 1, max: MAX_REPORTED_WAVES })
  );
  return {
    runs: readEntries(entries),
    ...(waves === undefined ? {} : { waves }),
  };
}

/** The entries of a plans file: each a target, once, and its plan. */
function readEntries(entries: JsonReader[]): WavePlanEntry[] {
  const seen = new Set<string>();
  return entries.map((entry) => {
    entry.object();
    const at = entry.get("target");
    const target = at.string({ nonEmpty: true });
    if (target.length > MAX_TARGET_LENGTH || hasControlCharacter(target)) {
      at.wrong(
        `is not a target of at most ${MAX_TARGET_LENGTH} characters without control characters`,
      );
    }
    const form = targetFormProblem(target);
    if (form !== undefined) at.fail(`has a ${form}`);
    if (seen.has(target)) entry.fail(`target ${quote(target)} appears twice`);
    seen.add(target);
    return { target, ...readPlan(entry) };
  });
}
