/**
 * Checks of the argv templates (SPEC.md §3.4): required commands, `plan` mentions
 * `{plan}`, and no unknown `{placeholder}`. Runs on the raw spec, skipping values
 * the schema already refuses; it does not fill templates in.
 * @module
 */

import { quote } from "./_quote.ts";
import { suggest } from "./did_you_mean.ts";
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

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

function checkPlaceholders(
  collector: Collector,
  field: keyof typeof TEMPLATES,
  argv: readonly unknown[],
): void {
  const known: readonly string[] = TEMPLATES[field];
  argv.forEach((arg, index) => {
    if (typeof arg !== "string") return;
    for (const [, word] of arg.matchAll(PLACEHOLDER)) {
      if (known.includes(word)) continue;
      const near = suggest(word, known);
      const hint = near ? `; did you mean "{${near}}"?` : "";
      collector.add([field, index], `unknown placeholder "{${word}}"${hint}`);
    }
  });
}

/**
 * Adds the template problems of a raw spec: `plan` required unless `planWave`,
 * `apply` unless `applyWave`, `plan` mentioning `{plan}`, unknown placeholders.
 * @param collector Receives the problems.
 */
export function checkTemplates(collector: Collector): void {
  const spec = asRecord(collector.spec);
  if (!spec) return;
  for (const [field, wave] of [["plan", "planWave"], ["apply", "applyWave"]]) {
    if (!Object.hasOwn(spec, field) && !Object.hasOwn(spec, wave)) {
      collector.add(
        [],
        `missing field ${quote(field)} (needed unless ${quote(wave)} is set)`,
      );
    }
  }
  for (const field of Object.keys(TEMPLATES) as (keyof typeof TEMPLATES)[]) {
    const argv = spec[field];
    if (Array.isArray(argv)) checkPlaceholders(collector, field, argv);
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
