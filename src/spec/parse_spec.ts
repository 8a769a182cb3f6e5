/**
 * Parses and validates a spec file's text (SPEC.md §3) into the normalised
 * {@linkcode Spec}, reporting every problem with its line and column. Pure: it
 * reads no file; the caller passes the text and the name to report.
 * Before parsing, one linear scan finds where the text nests deeper than the
 * bound (§14): the parser recurses, so a text nested tens of thousands deep
 * would exhaust the stack.
 * @module
 */

import type * as z from "zod";
// @ts-types="../../types/std/jsonc.d.ts"
import { parse } from "@std/jsonc";
import { SpecError, type SpecProblem } from "../errors.ts";
import { formatBytes, MAX_SPEC_BYTES, MAX_SPEC_DEPTH } from "../limits.ts";
import { indexJsonc, positionAt } from "./_locate.ts";
import { addIssues } from "./_issues.ts";
import { normalise } from "./_normalise.ts";
import { asRecord, Collector, type RawProblem } from "./_problems.ts";
import { checkSemantics } from "./_semantic_checks.ts";
import {
  type SpecOutput,
  specSchema,
  wrappedSpecSchema,
} from "./spec_schema.ts";
import type { Spec } from "./types.ts";

export type { Spec };

function syntaxError(error: unknown, text: string, file: string): SpecError {
  const message = error instanceof Error ? error.message : String(error);
  const offset = /at position (\d+)/.exec(message)?.[1];
  const detail = message
    .replace(/^Cannot parse JSONC: /, "")
    .replace(/ in JSONC at position \d+$/, "")
    .replace(/ of JSONC input$/, " of input")
    .replace(
      /^unexpected token "(.*)"$/s,
      (_, token: string) =>
        token.startsWith('"')
          ? `unexpected string ${token}`
          : `unexpected token ${JSON.stringify(token)}`,
    );
  const { line, col } = positionAt(text, offset ? Number(offset) : text.length);
  return new SpecError([{
    file,
    line,
    col,
    where: "",
    what: `invalid JSONC: ${detail}`,
  }]);
}

/** Refuses a text over 1 MiB or nested deeper than 64 levels before parsing it. */
function checkLimits(text: string, file: string): void {
  const bytes = text.length * 3 <= MAX_SPEC_BYTES
    ? text.length
    : new TextEncoder().encode(text).length;
  if (bytes > MAX_SPEC_BYTES) {
    throw new SpecError([{
      file,
      line: 1,
      col: 1,
      where: "",
      what: `the spec is larger than ${formatBytes(MAX_SPEC_BYTES)}`,
    }]);
  }
  const deep = tooDeepAt(text, MAX_SPEC_DEPTH);
  if (deep !== undefined) {
    throw new SpecError([{
      file,
      ...positionAt(text, deep),
      where: "",
      what: `the spec nests deeper than ${MAX_SPEC_DEPTH} levels`,
    }]);
  }
}

function locateAll(
  problems: RawProblem[],
  text: string,
  file: string,
): SpecProblem[] {
  const locator = indexJsonc(text);
  const located = problems.map((problem) => ({
    file,
    ...locator.locate(problem.path, problem.key),
    where: problem.where,
    what: problem.what,
  }));
  located.sort((a, b) => a.line - b.line || a.col - b.col);
  const seen = new Set<string>();
  return located.filter((problem) => {
    const id =
      `${problem.line}:${problem.col}:${problem.where}:${problem.what}`;
    return seen.has(id) ? false : (seen.add(id), true);
  });
}

/**
 * The spec's JSONC document: through `JSON.parse` when the text is plain JSON
 * (the same value, `__proto__` an own key and a repeated key's last value, at a
 * fraction of the JSONC parser's time and garbage, which for a wave of 30,000
 * runs is tens of megabytes), else through the JSONC parser, whose messages
 * name what is wrong.
 */
function parseDocument(source: string, file: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    // Comments, trailing commas, or an error the JSONC parser describes.
  }
  try {
    return parse(source);
  } catch (error) {
    throw syntaxError(error, source, file);
  }
}

/**
 * Parses a spec file (JSON or JSONC, optionally the compatibility wrapper
 * `{ "waves": <spec>, "options": <pipeline> }`), validates it against SPEC.md §3
 * and normalises it.
 * Every run must match exactly one job group of its wave; a group that matches
 * no run is allowed (its job applies nothing, §4.7) with 1 share only, and with
 * `discover` group shares are not checked (see `_group_checks.ts`). Group
 * patterns are described in `src/jobs/group_pattern.ts`.
 * @param text The file's contents.
 * @param file The file name as the user gave it, for messages.
 * @returns The normalised spec.
 * @throws {SpecError} With every problem, in file order, each located at the
 *   offending value (or key) as `<file>:<line>:<col>: <where>: <what>`; a syntax
 *   error is the only problem reported when the text is not JSONC, and a text over
 *   1 MiB or nested deeper than 64 levels is refused before it is parsed.
 * @example
 * ```ts
 * const spec = parseSpec(
 *   '{ "name": "demo", "plan": ["p", "{plan}"], "apply": ["a"], "waves": [{ "name": "dev", "runs": ["dev"] }] }',
 *   "waves.jsonc",
 * );
 * spec.waves[0].runs; // [{ target: "dev", op: "demo" }]
 * ```
 */
export function parseSpec(text: string, file: string): Spec {
  const source = text.startsWith("\ufeff") ? ` ${text.slice(1)}` : text;
  checkLimits(source, file);
  const document = parseDocument(source, file);
  const outer = asRecord(document);
  const wrapped = outer !== undefined && asRecord(outer.waves) !== undefined;
  const schema = wrapped ? wrappedSpecSchema : specSchema;
  const collector = new Collector(
    wrapped ? outer.waves : document,
    wrapped ? ["waves"] : [],
  );
  const result = schema.safeParse(document);
  if (!result.success) {
    addIssues({ schema, document, collector }, result.error.issues);
  }
  checkSemantics(collector);
  if (
    wrapped && Object.hasOwn(outer, "options") &&
    asRecord(outer.waves)?.pipeline
  ) {
    collector.addInDocument(
      ["options"],
      '"options" and "waves.pipeline" both set the pipeline: keep one',
      { key: true },
    );
  }
  if (collector.problems.length > 0 || !result.success) {
    throw new SpecError(locateAll(collector.problems, source, file));
  }
  if (wrapped) {
    const data = result.data as z.output<typeof wrappedSpecSchema>;
    return normalise(data.waves, data.options);
  }
  return normalise(result.data as SpecOutput);
}

/**
 * The offset of the first `[` or `{` that opens a level deeper than `max`.
 * @param text A JSONC text (possibly invalid; the parser reports that).
 * @param max The deepest level allowed.
 * @returns The offset, or `undefined` when the text nests no deeper than `max`.
 * @example
 * ```ts
 * tooDeepAt("[[1]]", 1); // 1
 * tooDeepAt('{"a": "[[["}', 1); // undefined
 * ```
 */
export function tooDeepAt(text: string, max: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // "
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) { // //
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) { // /*
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 0x5b || c === 0x7b) { // [ {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) { // ] }
      depth--;
    }
  }
  return undefined;
}
