/**
 * Checks of the argv templates (SPEC.md §3.4) and the `tool` shorthand (§15):
 * required commands, `tool` alone and with the fields of its kind, `plan`
 * mentions `{plan}`, and no unknown `{placeholder}`. Runs on the raw spec, skipping values
 * the schema already refuses; it does not fill templates in.
 * @module
 */

import { quote } from "../quote.ts";
import { suggest } from "./did_you_mean.ts";
import type { Path } from "./_locate.ts";
import { asRecord, type Collector } from "./_problems.ts";

/** Placeholders of the per-run commands `plan` and `apply`. */
export const RUN_PLACEHOLDERS = ["op", "target", "wave", "k", "plan"] as const;
/** Placeholders of the whole-wave commands `planWave` and `applyWave`. */
export const WAVE_PLACEHOLDERS = [
  ...RUN_PLACEHOLDERS,
  "runs",
  "plans",
] as const;

const TEMPLATES = {
  plan: RUN_PLACEHOLDERS,
  apply: RUN_PLACEHOLDERS,
  planWave: WAVE_PLACEHOLDERS,
  applyWave: WAVE_PLACEHOLDERS,
} as const;

/** Placeholders of the `tool` shorthand's `dir`, `target` and `args` (§15). */
export const TOOL_PLACEHOLDERS = ["op", "target", "wave", "k"] as const;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

const COMMANDS = ["plan", "apply", "planWave", "applyWave"] as const;

/**
 * Reports the unknown placeholders of one template element.
 * @param collector Receives the problems.
 * @param path Where the element is.
 * @param known The placeholders its command gets.
 * @param arg The element (anything but a string is skipped).
 * @param explain Says why a placeholder is not known here, for the ones that
 *   deserve more than a "did you mean".
 */
export function checkElement(
  collector: Collector,
  path: Path,
  known: readonly string[],
  arg: unknown,
  explain: (word: string) => string | undefined = () => undefined,
): void {
  if (typeof arg !== "string") return;
  for (const [, word] of arg.matchAll(PLACEHOLDER)) {
    if (known.includes(word)) continue;
    const why = explain(word);
    if (why !== undefined) {
      collector.add(path, `unknown placeholder "{${word}}": ${why}`);
      continue;
    }
    const near = suggest(word, known);
    const hint = near ? `; did you mean "{${near}}"?` : "";
    collector.add(path, `unknown placeholder "{${word}}"${hint}`);
  }
}

/** `tool` stands for every command: none of them may be given beside it. */
function checkTool(collector: Collector, spec: Record<string, unknown>): void {
  for (const field of COMMANDS) {
    if (!Object.hasOwn(spec, field)) continue;
    collector.add(
      [field],
      `"${field}" and "tool" do not go together: "tool" stands for the plan and apply commands`,
      { key: true },
    );
  }
  const tool = asRecord(spec.tool);
  if (!tool) return;
  checkToolFields(collector, tool);
  const explain = (word: string) =>
    word === "plan" ? '"tool" passes the saved plan itself' : undefined;
  for (const field of ["dir", "target"] as const) {
    checkElement(
      collector,
      ["tool", field],
      TOOL_PLACEHOLDERS,
      tool[field],
      explain,
    );
  }
  if (Array.isArray(tool.args)) {
    tool.args.forEach((arg, i) =>
      checkElement(
        collector,
        ["tool", "args", i],
        TOOL_PLACEHOLDERS,
        arg,
        explain,
      )
    );
  }
}

/**
 * sqitch needs `target` and takes no `args`; OpenTofu and Terraform take no
 * `target`, `client` or `verify`.
 */
function checkToolFields(
  collector: Collector,
  tool: Record<string, unknown>,
): void {
  if (tool.kind === "sqitch") {
    if (!Object.hasOwn(tool, "target")) {
      collector.add(
        ["tool"],
        'missing field "target" (sqitch needs the database to deploy to)',
      );
    }
    if (Object.hasOwn(tool, "args")) {
      collector.add(
        ["tool", "args"],
        '"args" is for opentofu and terraform; sqitch takes none',
        { key: true },
      );
    }
  } else if (typeof tool.kind === "string") {
    for (const field of ["target", "client", "verify"]) {
      if (!Object.hasOwn(tool, field)) continue;
      collector.add(
        ["tool", field],
        `"${field}" is for sqitch; ${quote(tool.kind)} takes none`,
        { key: true },
      );
    }
  }
}

/**
 * Adds the template problems of a raw spec: `plan` required unless `planWave` or
 * `tool`, `apply` unless `applyWave` or `tool`, `tool` beside none of them,
 * `tool`'s fields for its kind, `plan` mentioning `{plan}`, unknown
 * placeholders (in `tool`'s `dir`, `target` and `args` too).
 * @param collector Receives the problems.
 */
export function checkTemplates(collector: Collector): void {
  const spec = asRecord(collector.spec);
  if (!spec) return;
  if (Object.hasOwn(spec, "tool")) checkTool(collector, spec);
  else {
    for (
      const [field, wave] of [["plan", "planWave"], ["apply", "applyWave"]]
    ) {
      if (!Object.hasOwn(spec, field) && !Object.hasOwn(spec, wave)) {
        collector.add(
          [],
          `missing field ${quote(field)} (needed unless ${
            quote(wave)
          } or "tool" is set)`,
        );
      }
    }
  }
  for (const field of COMMANDS) {
    const argv = spec[field];
    if (!Array.isArray(argv)) continue;
    argv.forEach((arg, i) =>
      checkElement(collector, [field, i], TEMPLATES[field], arg)
    );
  }
  const plan = spec.plan;
  if (
    Array.isArray(plan) && plan.length > 0 &&
    !plan.some((arg) => typeof arg === "string" && arg.includes("{plan}"))
  ) {
    collector.add(
      ["plan"],
      'the plan command must mention "{plan}", the file it writes',
    );
  }
}
