/**
 * The reader of untrusted JSON (STYLE.md, "Trust nothing that travelled"): a
 * plan file, a decision record, a ledger record, a plan set, a run locator, a
 * recorded-plans hand-off, a forge's answer. `parseJson` turns text into a
 * value, a {@linkcode JsonReader} walks it and hands back typed values, and
 * every problem is one {@linkcode ShapeError} naming the source and the field,
 * with the offending value cut by `quoteValue`. Pure: the caller reads the
 * bytes, within their bound (`readBounded`). The spec, whose schema pays for
 * itself, is zod's.
 * @module
 */

import { quoteValue } from "../quote.ts";
import { DIGEST_FORM, DIGEST_PATTERN } from "../digest/set_digest.ts";
import { FULL_SHA, FULL_SHA_FORM } from "./full_sha.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { ShapeError } from "./shape_error.ts";

export { parseJson, type ParseJsonOptions } from "./parse_json.ts";

/** How an input is named, and whether its values may be echoed. */
export interface ReaderOptions {
  /** How messages name the input (`x.json`); empty when the caller names it. @default {""} */
  source?: string;
  /**
   * Whether a failed check shows the offending value (cut to 60 characters).
   * Off for input that may hold secrets (a plan's values, a run locator).
   * @default {true}
   */
  echo?: boolean;
  /**
   * The input is a web API's answer (a forge's): places are shown as its
   * documentation does (`[2].user.login`, `.status`; `the answer` for the
   * whole), and `null` counts as absent.
   * @default {false}
   */
  api?: boolean;
}

/** The path of the top of an input. */
const TOP: readonly (string | number)[] = [];

/** Bounds of a string read by {@linkcode JsonReader.string}. */
export interface StringBounds {
  /** The most characters. @default {Infinity} */
  max?: number;
  /** Refuse `""`. @default {false} */
  nonEmpty?: boolean;
  /** Refuse control and invisible line characters (`hasControlCharacter`). @default {false} */
  printable?: boolean;
}

/** Bounds of a number read by {@linkcode JsonReader.integer}. */
export interface IntegerBounds {
  /** The least value. @default {0} */
  min?: number;
  /** The greatest value. @default {Number.MAX_SAFE_INTEGER} */
  max?: number;
}

/**
 * A value at a place in an untrusted input. Each check returns the value in the
 * type it promises or throws a {@linkcode ShapeError} at that place: the field
 * is the path from the top (`"runs[2].planDigest"`). Reading a value of a
 * member that is absent fails on the object: `has no "planDigest"`.
 * @example
 * ```ts
 * const plan = new JsonReader({ planDigest: 7 }, { source: "p.json" }).object();
 * plan.get("planDigest").digest(); // throws ShapeError 'p.json: "planDigest" is not sha256:<64 lowercase hex>: 7'
 * ```
 */
export class JsonReader {
  /** The value here (`undefined` for an absent member). */
  readonly value: unknown;
  readonly #options: ReaderOptions;
  /** The reader the value was read from, and its key there. */
  #parent?: JsonReader;
  #key: string | number = "";
  /** Where the top of the chain is (the constructor's `path`). */
  readonly #path: readonly (string | number)[];

  /**
   * Reads `value` as the whole of an input.
   * @param value A parsed value (`parseJson`), or `undefined`.
   * @param options How the input is named, whether values are echoed.
   * @param path Where `value` is; the top when empty.
   */
  constructor(
    value: unknown,
    options: ReaderOptions = {},
    path: readonly (string | number)[] = TOP,
  ) {
    this.value = value;
    this.#options = options;
    this.#path = path;
  }

  /**
   * The place as messages show it: `""` at the top, `"changes[3].action"`
   * below; for an `api` answer `the answer`, then `[3].action`.
   */
  get field(): string {
    const path = this.#segments();
    if (this.#options.api) {
      return path.map((segment) =>
        typeof segment === "number" ? `[${segment}]` : `.${segment}`
      ).join("") || "the answer";
    }
    if (path.length === 0) return "";
    const text = path.map((segment, i) =>
      typeof segment === "number"
        ? `[${segment}]`
        : i === 0
        ? segment
        : `.${segment}`
    ).join("");
    return `"${text}"`;
  }

  /**
   * Whether the value is absent (`undefined`: a member the input does not
   * have; for an `api` answer also `null`).
   */
  get absent(): boolean {
    return this.value === undefined ||
      (this.value === null && this.#options.api === true);
  }

  /**
   * Checks that the value is present (a member the input has).
   * @returns This reader.
   * @throws {ShapeError} On the object: `has no "<key>"`.
   */
  required(): this {
    if (this.absent) this.#missing();
    return this;
  }

  /**
   * Fails at this place.
   * @param what What is wrong.
   * @throws {ShapeError} Always.
   */
  fail(what: string): never {
    throw new ShapeError(this.field, what, this.#options.source);
  }

  /**
   * Fails at this place, showing the value when the input may be echoed.
   * @param what What is wrong (`is not a string`).
   * @throws {ShapeError} Always: `<field> <what>: <value>`.
   */
  wrong(what: string): never {
    if (this.absent) this.#missing();
    this.fail(
      this.#options.echo === false ? what : `${what}: ${this.#shown()}`,
    );
  }

  /**
   * The member `key` (absent when the object has none). Call on an object.
   * @param key The member's name.
   * @returns A reader of it.
   */
  get(key: string): JsonReader {
    const object = this.value as Record<string, unknown>;
    const value = Object.hasOwn(object, key) ? object[key] : undefined;
    return this.#child(value, key);
  }

  /**
   * Checks that the value is a JSON object (not an array, not null).
   * @returns This reader.
   * @throws {ShapeError} `is not an object`.
   */
  object(): this {
    const value = this.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.wrong("is not an object");
    }
    return this;
  }

  /**
   * The object's member names that are not in `known`. Call on an object.
   * @param known The names the input may use.
   * @returns The others, in the input's order.
   */
  unknownKeys(known: readonly string[]): string[] {
    return Object.keys(this.value as object).filter((key) =>
      !known.includes(key)
    );
  }

  /**
   * Checks that the value is a list of at most `max` entries.
   * @param max The most entries.
   * @returns A reader of each entry.
   * @throws {ShapeError} `is not a list`, `has N entries; at most M`.
   */
  list(max = Infinity): JsonReader[] {
    const value = this.value;
    if (!Array.isArray(value)) this.wrong("is not a list");
    if (value.length > max) {
      this.fail(`has ${value.length} entries; at most ${max}`);
    }
    return value.map((entry, i) => this.#child(entry, i));
  }

  /**
   * The value as a string within `bounds`.
   * @param bounds The longest, and whether `""` or control characters are refused.
   * @returns The string.
   * @throws {ShapeError} `is not a string`, `is empty`, `is longer than N
   *   characters`, `holds a control character`.
   */
  string(bounds: StringBounds = {}): string {
    const value = this.value;
    if (typeof value !== "string") this.wrong("is not a string");
    if (bounds.nonEmpty && value === "") this.fail("is empty");
    const max = bounds.max ?? Infinity;
    if (value.length > max) this.fail(`is longer than ${max} characters`);
    if (bounds.printable && hasControlCharacter(value)) {
      this.fail("holds a control character");
    }
    return value;
  }

  /**
   * The value as `true` or `false`.
   * @returns The boolean.
   * @throws {ShapeError} `is not true or false`.
   */
  boolean(): boolean {
    if (typeof this.value !== "boolean") this.wrong("is not true or false");
    return this.value;
  }

  /**
   * The value as a whole number within `bounds`.
   * @param bounds The least and greatest value.
   * @returns The number.
   * @throws {ShapeError} `is not a whole number from 1 to 10`, `… of at least 0`.
   */
  integer(bounds: IntegerBounds = {}): number {
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = bounds;
    const value = this.value;
    if (
      typeof value !== "number" || !Number.isSafeInteger(value) ||
      value < min || value > max
    ) {
      this.wrong(
        max === Number.MAX_SAFE_INTEGER
          ? `is not a whole number of at least ${min}`
          : `is not a whole number from ${min} to ${max}`,
      );
    }
    return value;
  }

  /**
   * The value as a string matching `pattern`.
   * @param pattern The form (anchored).
   * @param form How messages name it (`a full commit sha`).
   * @returns The string.
   * @throws {ShapeError} `is not <form>: <value>`.
   */
  matching(pattern: RegExp, form: string): string {
    const value = this.value;
    if (typeof value !== "string" || !pattern.test(value)) {
      this.wrong(`is not ${form}`);
    }
    return value;
  }

  /**
   * The value as one of a closed vocabulary.
   * @param words The words.
   * @returns The word.
   * @throws {ShapeError} `is not "a" or "b": <value>`, `is not one of "a", "b", "c": <value>`.
   */
  oneOf<T extends string>(words: readonly T[]): T {
    if (!(words as readonly unknown[]).includes(this.value)) {
      const shown = words.map((word) => JSON.stringify(word));
      this.wrong(
        shown.length === 2
          ? `is not ${shown[0]} or ${shown[1]}`
          : `is not one of ${shown.join(", ")}`,
      );
    }
    return this.value as T;
  }

  /**
   * The value as a digest (`sha256:` and 64 lowercase hex).
   * @returns The digest.
   * @throws {ShapeError} `is not sha256:<64 lowercase hex>: <value>`.
   */
  digest(): string {
    return this.matching(DIGEST_PATTERN, DIGEST_FORM);
  }

  /**
   * The value as a full commit sha.
   * @returns The sha.
   * @throws {ShapeError} `is not a full commit sha: <value>`.
   */
  fullSha(): string {
    return this.matching(FULL_SHA, FULL_SHA_FORM);
  }

  /**
   * Reads the value with `read` unless it is absent.
   * @param read What to read it as.
   * @returns What `read` returned, or `undefined`.
   * @example
   * ```ts
   * new JsonReader({}).object().get("note").optional((r) => r.string()); // undefined
   * ```
   */
  optional<T>(read: (reader: this) => T): T | undefined {
    return this.absent ? undefined : read(this);
  }

  /** A reader of `value` at `key` of this one (its path is made only for a message). */
  #child(value: unknown, key: string | number): JsonReader {
    const child = new JsonReader(value, this.#options, TOP);
    child.#parent = this;
    child.#key = key;
    return child;
  }

  #segments(): (string | number)[] {
    if (this.#parent === undefined) return [...this.#path];
    return [...this.#parent.#segments(), this.#key];
  }

  #missing(): never {
    const key = this.#parent ? this.#key : this.#path.at(-1);
    if (typeof key !== "string") this.fail("is missing");
    const parent: JsonReader = this.#parent ??
      new JsonReader(undefined, this.#options, this.#path.slice(0, -1));
    parent.fail(`has no ${JSON.stringify(key)}`);
  }

  #shown(): string {
    return quoteValue(this.value);
  }
}
