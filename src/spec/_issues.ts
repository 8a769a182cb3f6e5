/**
 * Turns zod issues into spec problems with house-style messages: missing and
 * unknown fields (with "did you mean"), wrong types, empty lists, bad values, and
 * unions narrowed to the branch the user evidently meant. It knows no spec rules
 * beyond what the schema says.
 * @module
 */

import { quote } from "../quote.ts";
import type * as z from "zod";
import { suggest } from "./did_you_mean.ts";
import { showValue } from "./_schema_parts.ts";
import { asRecord, type Collector, valueAt } from "./_problems.ts";
import type { Path } from "./_locate.ts";
import { knownKeysAt } from "./_schema_walk.ts";

/** The parts of a zod issue this module reads. */
interface Issue {
  code: string;
  path: Path;
  message: string;
  keys?: string[];
  errors?: Issue[][];
  issues?: Issue[];
  expected?: string;
  values?: unknown[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
};

function listOf(values: readonly unknown[]): string {
  const shown = values.map(showValue);
  return shown.length > 1
    ? `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}`
    : shown.join("");
}

function isTypeMismatchAtRoot(issue: Issue): boolean {
  return issue.path.length === 0 &&
    (issue.code === "invalid_type" || issue.code === "invalid_value");
}

/** The issues of the union branch the value evidently meant, if there is one. */
function bestBranch(issue: Issue): Issue[] | undefined {
  const branches = (issue.errors ?? []).filter((branch) =>
    !branch.some(isTypeMismatchAtRoot)
  );
  if (branches.length === 0) return undefined;
  const fewest = Math.min(...branches.map((branch) => branch.length));
  const best = branches.filter((branch) => branch.length === fewest);
  return best.length === 1 ? best[0] : undefined;
}

/** Context of one conversion: the document, the schema, the collector. */
export interface IssueContext {
  schema: z.ZodType;
  document: unknown;
  collector: Collector;
}

function unknownKeys(context: IssueContext, issue: Issue): void {
  const object = asRecord(valueAt(context.document, issue.path)) ?? {};
  const known = knownKeysAt(context.schema, context.document, issue.path)
    .filter((key) => !Object.hasOwn(object, key));
  for (const key of issue.keys ?? []) {
    const near = suggest(key, known);
    const hint = near ? `; did you mean ${quote(near)}?` : "";
    context.collector.addInDocument(
      [...issue.path, key],
      `unknown field ${quote(key)}${hint}`,
      { key: true, where: issue.path },
    );
  }
}

function wrongType(context: IssueContext, issue: Issue): void {
  const value = valueAt(context.document, issue.path);
  if (value === undefined && issue.path.length > 0) {
    const parent = issue.path.slice(0, -1);
    const field = String(issue.path[issue.path.length - 1]);
    context.collector.addInDocument(
      parent,
      `missing field ${quote(field)}`,
    );
    return;
  }
  const expected = EXPECTED[issue.expected ?? ""] ?? issue.expected;
  context.collector.addInDocument(
    issue.path,
    `expected ${expected}, got ${showValue(value)}`,
  );
}

function badValue(context: IssueContext, issue: Issue): void {
  const value = valueAt(context.document, issue.path);
  const values = issue.values ?? [];
  const strings = values.filter((v): v is string => typeof v === "string");
  const near = typeof value === "string" ? suggest(value, strings) : undefined;
  const hint = near ? `; did you mean ${quote(near)}?` : "";
  context.collector.addInDocument(
    issue.path,
    `invalid value ${showValue(value)}: expected ${listOf(values)}${hint}`,
  );
}

function tooSmall(context: IssueContext, issue: Issue): void {
  const value = valueAt(context.document, issue.path);
  const message = issue.origin === "number"
    ? `must be at least ${issue.minimum}, got ${showValue(value)}`
    : issue.message;
  context.collector.addInDocument(issue.path, message);
}

/**
 * Adds one problem per zod issue (one per key for unknown keys; the meant branch's
 * problems for a union) to the context's collector.
 * @param context The document, the schema it failed and the collector.
 * @param issues The zod issues, paths relative to the document.
 */
export function addIssues(
  context: IssueContext,
  issues: readonly z.core.$ZodIssue[] | readonly Issue[],
): void {
  for (const issue of issues as readonly Issue[]) {
    switch (issue.code) {
      case "unrecognized_keys":
        unknownKeys(context, issue);
        break;
      case "invalid_type":
        wrongType(context, issue);
        break;
      case "invalid_value":
        badValue(context, issue);
        break;
      case "too_small":
        tooSmall(context, issue);
        break;
      case "invalid_key":
        context.collector.addInDocument(
          issue.path,
          issue.issues?.[0]?.message ?? issue.message,
          { key: true, where: issue.path.slice(0, -1) },
        );
        break;
      case "invalid_union": {
        const branch = bestBranch(issue);
        if (!branch) context.collector.addInDocument(issue.path, issue.message);
        else {
          addIssues(
            context,
            branch.map((inner) => ({
              ...inner,
              path: [...issue.path, ...inner.path],
            })),
          );
        }
        break;
      }
      default:
        context.collector.addInDocument(issue.path, issue.message);
    }
  }
}
