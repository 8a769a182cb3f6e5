/**
 * Turns a rendered pipeline value (maps, lists, strings, numbers, booleans) into
 * YAML text under a header of comment lines. The `yaml` library writes every key
 * and scalar that is not a bare word (all quoting, escaping and block literals
 * are its); this file only lays out the block structure, the way the library
 * lays it out, so a 2,600-job pipeline renders in tens of milliseconds instead of
 * a second. Tests check the text equals the library's own rendering of the whole
 * document. Strings that a YAML 1.1 reader (GitLab's Ruby) or a 1.2 reader could
 * take for a number, a boolean or null are double-quoted.
 * @module
 */

import { Document, Scalar, type YAMLMap } from "yaml";

/** Plain scalars some YAML version reads as something other than a string. */
export const AMBIGUOUS: RegExp =
  /^(?:y|n|yes|no|true|false|on|off|null|~|<<|=|)$|^[-+]?\.?[0-9]|^[-+]?\.(?:inf|nan)$/i;

/** Words any YAML writer leaves plain in block context (checked against AMBIGUOUS too). */
const BARE = /^[A-Za-z_][A-Za-z0-9_./@-]*(?: [A-Za-z0-9_./@-]+)*$/;

/**
 * One line of printable ASCII the library leaves plain as a value: it starts
 * with a letter, `_`, `$`, `/` or `(` (no indicator, digit, sign or dot), and
 * holds no `: ` or ` #` and does not end in a space or `:`; checked against
 * AMBIGUOUS too. (`${{ needs.decide.outputs.digest }}`, `export PATH=$PWD/bin`.)
 */
const PLAIN_VALUE = /^[A-Za-z_$/(](?:[ -~]*[!-9;-~])?$/;
const NOT_PLAIN = /: | #/;

/** Multi-line text any YAML writer puts in a `|-` block: printable ASCII lines, none blank or space-edged. */
const LITERAL = /^[!-~](?:[ -~]*[!-~])?(?:\n[!-~](?:[ -~]*[!-~])?)+$/;

/** Options of {@linkcode toYaml}. */
export interface ToYamlOptions {
  /**
   * Keys of the top-level map written plain even when ambiguous (`on` in a
   * GitHub workflow, which GitHub reads as a string).
   * @default {[]}
   */
  plainTopKeys?: readonly string[];
  /**
   * The path of a map whose entries (after the first) get a blank line before
   * them: `[]` for the document's top level, `["jobs"]` for a workflow's jobs.
   */
  spacedMap?: readonly string[];
}

type Plain = Record<string, unknown>;

/**
 * Serialises `value` as a YAML document preceded by `header` as `# ` comment
 * lines and a blank line (none when `header` is empty). No anchors, no folded lines, insertion key order.
 * @param value The document: a map.
 * @param header Comment lines, without the `#`.
 * @param options Keys to keep plain, a map to space out.
 * @returns The text, ending with a newline.
 * @throws {TypeError} For a value other than a map, list, string, finite number or boolean.
 * @example
 * ```ts
 * toYaml({ variables: { GIT_DEPTH: "0" } }, ["generated"]);
 * // '# generated\n\nvariables:\n  GIT_DEPTH: "0"\n'
 * ```
 */
export function toYaml(
  value: Plain,
  header: readonly string[],
  options: ToYamlOptions = {},
): string {
  const writer = new BlockWriter(options);
  writer.prime(value);
  writer.map(value, 0, []);
  const body = `${writer.lines.join("\n")}\n`;
  if (header.length === 0) return body;
  const comments = header.map((line) => line === "" ? "#" : `# ${line}`);
  return `${comments.join("\n")}\n\n${body}`;
}

/** A string scalar as the library would write it, double-quoted when ambiguous. */
export function scalarNode(text: string): Scalar {
  const node = new Scalar(text);
  if (AMBIGUOUS.test(text)) node.type = "QUOTE_DOUBLE";
  return node;
}

/** Whether only the library can write `text`: not a bare word, nor a `|-` block. */
function needsLibrary(text: string): boolean {
  if (isPlainValue(text)) return false;
  return !(text.includes("\n") && LITERAL.test(text));
}

/** Whether `text` is written as it is, a plain scalar. */
function isPlainValue(text: string): boolean {
  return (BARE.test(text) ||
    (PLAIN_VALUE.test(text) && !NOT_PLAIN.test(text))) &&
    !AMBIGUOUS.test(text);
}

function isMap(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class BlockWriter {
  readonly lines: string[] = [];
  readonly #cache = new Map<string, string>();
  readonly #plainTop: Set<string>;
  readonly #spaced?: readonly string[];

  constructor(options: ToYamlOptions) {
    this.#plainTop = new Set(options.plainTopKeys ?? []);
    this.#spaced = options.spacedMap;
  }

  /**
   * Renders every scalar of `value` the library must write in one document
   * per context (a map's values, a list's items), so a pipeline of thousands
   * of distinct commands builds two documents, not one per command.
   */
  prime(value: Plain): void {
    const wanted = { map: new Set<string>(), seq: new Set<string>() };
    const walk = (item: unknown, context: "map" | "seq") => {
      if (Array.isArray(item)) { for (const inner of item) walk(inner, "seq"); }
      else if (isMap(item)) {
        for (const inner of Object.values(item)) walk(inner, "map");
      } else if (typeof item === "string" && needsLibrary(item)) {
        wanted[context].add(item);
      }
    };
    walk(value, "map");
    for (const context of ["map", "seq"] as const) {
      const texts = [...wanted[context]];
      if (texts.length === 0) continue;
      const nodes = texts.map(scalarNode);
      // `k<i>: ` or `- ` at the start of a line opens an item; every other
      // line of the text is indented under it.
      const doc = new Document(
        context === "map"
          ? Object.fromEntries(nodes.map((node, i) => [`k${i}`, node]))
          : nodes,
      );
      const lines = doc.toString({ lineWidth: 0 }).replace(/\n$/, "")
        .split("\n");
      let item = -1;
      const parts: string[][] = [];
      for (const line of lines) {
        const opens = context === "map"
          ? /^k(\d+): /.exec(line)
          : line.startsWith("- ")
          ? [line, String(item + 1)]
          : null;
        if (opens !== null && Number(opens[1]) === item + 1) {
          item++;
          parts.push([line.slice(context === "map" ? opens[0].length : 2)]);
        } else parts[item].push(line);
      }
      for (const [i, text] of texts.entries()) {
        this.#cache.set(`${context}\u0000${text}`, parts[i].join("\n"));
      }
    }
  }

  map(value: Plain, indent: number, path: string[]): void {
    const pad = " ".repeat(indent);
    const spaced = this.#spaced !== undefined &&
      this.#spaced.length === path.length &&
      this.#spaced.every((part, index) => part === path[index]);
    let index = 0;
    for (const [key, item] of Object.entries(value)) {
      if (spaced && index++ > 0) this.lines.push("");
      const plainKey = path.length === 0 && this.#plainTop.has(key);
      const head = `${pad}${plainKey ? key : this.#key(key, indent)}:`;
      if (isMap(item) || Array.isArray(item)) {
        const empty = isMap(item)
          ? Object.keys(item).length === 0
          : item.length === 0;
        if (empty) {
          this.lines.push(`${head} ${isMap(item) ? "{}" : "[]"}`);
        } else {
          this.lines.push(head);
          this.#collection(item, indent + 2, [...path, key]);
        }
      } else {
        this.lines.push(`${head} ${this.#scalar(item, "map", indent)}`);
      }
    }
  }

  seq(value: unknown[], indent: number, path: string[]): void {
    const pad = " ".repeat(indent);
    for (const item of value) {
      const nonEmpty = (isMap(item) && Object.keys(item).length > 0) ||
        (Array.isArray(item) && item.length > 0);
      if (nonEmpty) {
        const first = this.lines.length;
        this.#collection(item, indent + 2, path);
        this.lines[first] = `${pad}- ${this.lines[first].slice(indent + 2)}`;
      } else if (isMap(item) || Array.isArray(item)) {
        this.lines.push(`${pad}- ${isMap(item) ? "{}" : "[]"}`);
      } else {
        this.lines.push(`${pad}- ${this.#scalar(item, "seq", indent)}`);
      }
    }
  }

  #collection(item: Plain | unknown[], indent: number, path: string[]): void {
    if (Array.isArray(item)) this.seq(item, indent, path);
    else this.map(item, indent, path);
  }

  #key(key: string, indent: number): string {
    if (BARE.test(key) && key.length < 200 && !AMBIGUOUS.test(key)) return key;
    const text = this.#library("key", key, () => {
      const doc = new Document({});
      const inner = doc.createNode({}) as YAMLMap;
      inner.set(scalarNode(key), 0);
      doc.set("k", inner);
      const lines = doc.toString({ lineWidth: 0 }).split("\n").slice(1, -1);
      const body = lines.map((line) => line.slice(2)).join("\n");
      return body.slice(0, body.lastIndexOf(": 0"));
    });
    return text.replaceAll("\n", `\n${" ".repeat(indent)}`);
  }

  #scalar(value: unknown, context: "map" | "seq", indent: number): string {
    if (typeof value === "boolean") return String(value);
    if (typeof value === "number" && Number.isFinite(value)) {
      return String(value);
    }
    if (typeof value !== "string") {
      throw new TypeError(`cannot write ${typeof value} as YAML`);
    }
    if (!needsLibrary(value)) {
      if (isPlainValue(value)) return value;
      const pad = " ".repeat(indent + 2);
      return `|-\n${pad}${value.replaceAll("\n", `\n${pad}`)}`;
    }
    const text = this.#cache.get(`${context}\u0000${value}`);
    if (text === undefined) {
      throw new Error(`a scalar was not primed: ${JSON.stringify(value)}`);
    }
    return text.includes("\n")
      ? text.replaceAll("\n", `\n${" ".repeat(indent)}`)
      : text;
  }

  #library(context: string, value: string, make: () => string): string {
    const id = `${context}\u0000${value}`;
    let text = this.#cache.get(id);
    if (text === undefined) {
      text = make();
      this.#cache.set(id, text);
    }
    return text;
  }
}
