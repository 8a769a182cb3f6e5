/**
 * The `resume` block of the spec (SPEC.md §13): a cron schedule on which the
 * rendered pipelines run `chant-wave resume`. Its part of the zod schema only.
 * @module
 */

import * as z from "zod";
import { cronProblem } from "./cron.ts";

/** `resume`: `{ "schedule": "<cron>" }`. */
export const resumeSchema = z.strictObject({
  schedule: z.string().superRefine((schedule, ctx) => {
    const problem = cronProblem(schedule);
    if (problem !== undefined) {
      ctx.addIssue({ code: "custom", message: problem });
    }
  }).meta({
    description:
      'When the scheduled job runs chant-wave resume: a 5-field cron schedule in UTC ("*/10 * * * *")',
  }),
}).meta({
  id: "Resume",
  description:
    "A scheduled pipeline job that restarts the CI jobs of waiting gates once they are approved",
});
