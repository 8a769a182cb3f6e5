/**
 * Spec problems before they are located: a path into the document, whether the
 * key or the value is at fault, the `where` text naming the wave, run, group and
 * field, and the message. Also the small readers the checks use on raw,
 * not-yet-valid JSON. Locating (line and column) is `_locate.ts`'s job.
 * @module
 */

import { quote } from "../quote.ts";
import type { Path } from "./_locate.ts";

/** A problem found by the schema or the semantic checks, not located yet. */
export interface RawProblem {
  /** Path from the document root (the wrapper's, when there is one). */
  path: Path;
  /** Point at the key rather than the value (unknown fields). */
  key: boolean;
  where: string;
  what: string;
}

/** A plain JSON object, or `undefined`. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** The value at `path` inside `root`, or `undefined`. */
export function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof segment === "number") {
      value = Array.isArray(value) ? value[segment] : undefined;
    } else {
      const record = asRecord(value);
      value = record && Object.hasOwn(record, segment)
        ? record[segment]
        : undefined;
    }
  }
  return value;
}

function accessor(path: Path): string {
  return path.map((segment, i) => {
    if (typeof segment === "number") return `[${segment}]`;
    if (!/^[A-Za-z_$][\w$-]*$/.test(segment)) {
      return `[${quote(segment)}]`;
    }
    return i === 0 ? segment : `.${segment}`;
  }).join("");
}

function named(label: string, item: unknown): string {
  const name = asRecord(item)?.name;
  return typeof name === "string" ? `${label} ${quote(name)}` : label;
}

/**
 * Names a place in the spec: `wave 2 "prod" runs[3]`,
 * `wave 1 "dev" jobs[0] "eu" runs[1]`, `notify.webhook`, or "" for the whole spec.
 */
function describeWhere(spec: unknown, path: Path): string {
  if (path[0] !== "waves" || typeof path[1] !== "number") return accessor(path);
  const wave = valueAt(spec, path.slice(0, 2));
  let where = named(`wave ${path[1] + 1}`, wave);
  let rest = path.slice(2);
  if (rest[0] === "jobs" && typeof rest[1] === "number") {
    where += " " + named(`jobs[${rest[1]}]`, valueAt(wave, rest.slice(0, 2)));
    rest = rest.slice(2);
  }
  return rest.length ? `${where} ${accessor(rest)}` : where;
}

/** Options of {@linkcode Collector.add}. */
export interface AddOptions {
  /** Point at the key. */
  key?: boolean;
  /** Name this place in `where` instead of the located path. */
  where?: Path;
}

/**
 * Collects problems found in a spec that may sit inside the compatibility wrapper:
 * paths given to {@linkcode Collector.add} are relative to the spec, and are
 * prefixed with `root` for locating.
 */
export class Collector {
  /** Every problem added, in the order found. */
  readonly problems: RawProblem[] = [];

  /**
   * @param spec The raw spec.
   * @param root The spec's path in the document: `[]`, or `["waves"]` in a wrapper.
   */
  constructor(readonly spec: unknown, readonly root: Path) {}

  /** Adds a problem at `path` (relative to the spec). */
  add(path: Path, what: string, options: AddOptions = {}): void {
    this.problems.push({
      path: [...this.root, ...path],
      key: options.key ?? false,
      where: describeWhere(this.spec, options.where ?? path),
      what,
    });
  }

  /** Adds a problem at `path` relative to the document root. */
  addInDocument(path: Path, what: string, options: AddOptions = {}): void {
    const root = this.root;
    const inSpec = root.every((segment, i) => path[i] === segment);
    if (inSpec) {
      this.add(path.slice(root.length), what, {
        ...options,
        where: options.where?.slice(root.length),
      });
    } else {
      this.problems.push({
        path,
        key: options.key ?? false,
        where: describeWhere(undefined, options.where ?? path),
        what,
      });
    }
  }
}
