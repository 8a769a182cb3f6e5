/**
 * The schema of `hooks` (SPEC.md §11): the four hook points, each a list of
 * command hooks `{ name, run }` and holds `{ name, after }`. One object shape with
 * both fields optional, so an unknown or misspelt key gets a "did you mean"; that
 * a hook has exactly one of `run` and `after`, unique names and placeholders are
 * checked in `_hook_checks.ts`.
 * Descriptions are registered in place, not cloned with `.meta()` (see
 * `spec_schema.ts`).
 * @module
 */

import * as z from "zod";
import "./_zod_config.ts";
import { argvSchema, nameSchema } from "./_schema_parts.ts";

/** What a hold waits for. */
export const holdSchema = z.strictObject({
  name: nameSchema.meta({
    description: "The other rollout's name (the name in its spec)",
  }),
  gate: nameSchema.meta({
    description:
      'The gate there, "<gate>-wave-<k>": ok once its newest pending plans have a counting approval',
  }),
  applied: z.boolean().optional().register(z.globalRegistry, {
    description:
      "true: ok only once that wave also recorded an applied outcome after its newest pending plans",
  }),
}).register(z.globalRegistry, {
  id: "Hold",
  description: "Another rollout's gate this wave waits on",
});

/** A hook: a command (`run`) or a hold (`after`). */
export const hookSchema = z.strictObject({
  name: nameSchema.meta({
    description:
      "The hook's name, unique at its point; it labels the hook's output lines",
  }),
  run: argvSchema.optional().register(z.globalRegistry, {
    description:
      "A command hook: an argv template ({op}, {wave}, {k}, {runs}, and {plans} from after-plan on); exit 0 is ok",
  }),
  after: holdSchema.optional().register(z.globalRegistry, {
    description:
      "A hold: the wave waits (exit 3) until that gate stands approved (or applied); read at base too, so a change cannot remove it",
  }),
}).register(z.globalRegistry, {
  id: "Hook",
  description: 'A command hook { "name", "run" } or a hold { "name", "after" }',
  oneOf: [{ required: ["run"] }, { required: ["after"] }],
});

const hookList = (description: string) =>
  z.array(hookSchema).optional().register(z.globalRegistry, { description });

/** `hooks`: the lists of hooks at each point of a wave. */
export const hooksSchema = z.strictObject({
  "before-plan": hookList(
    "Before anything is planned; a failed one plans nothing (exit 1)",
  ),
  "after-plan": hookList(
    "After planning, before the gate is decided; a failed one applies nothing (exit 1)",
  ),
  "before-apply": hookList(
    "After the gate, before applying; a failed one applies nothing (exit 1)",
  ),
  "after-apply": hookList(
    "After applying (commands only); a failed one fails the job (exit 1)",
  ),
}).register(z.globalRegistry, {
  id: "Hooks",
  description:
    "Commands and holds around planning and applying; a wave's hooks replace the spec's",
});
