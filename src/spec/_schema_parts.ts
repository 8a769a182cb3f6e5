/**
 * The building blocks of the spec schema (SPEC.md §3.1–§3.6): names, durations,
 * argv templates, runner labels, environments, `notify` and `pipeline`, each with
 * its own messages. `spec_schema.ts` assembles them; nothing here knows about waves.
 * Also the spec's `ledger` field (§5.1: `git`, `git:<remote>` or a
 * directory, written as `--ledger` takes it; which value a command uses is the
 * command line's business) and its `resume` block (§13: the cron schedule the
 * rendered pipelines run `chant-wave resume` on).
 * Descriptions are registered in place, not cloned with `.meta()` (see
 * `spec_schema.ts`).
 * @module
 */

import * as z from "zod";
import "./_zod_config.ts";
import { targetFormProblem } from "./target_form.ts";
import { DURATION_HINT, DURATION_PATTERN } from "./duration.ts";
import { hasControlCharacter, maskCredentials } from "../console/visible.ts";
import {
  MAX_NAME_LENGTH,
  MAX_SIGNERS_PATH,
  MAX_TARGET_LENGTH,
} from "../limits.ts";
import { quote } from "../quote.ts";
import { DESTRUCTIVE_OVERRIDES, TOOL_KINDS } from "./types.ts";
import { cronProblem } from "./cron.ts";

/** Rollout, wave, group and gate names. */
export const NAME_PATTERN: RegExp = /^[a-z0-9][a-z0-9_-]*$/;
/** Environment-variable names (`notify` values, `idTokens` and `variables` keys). */
export const ENV_NAME_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A value that looks like a literal URL rather than a variable name. */
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * Shows a value in a message: strings quoted, numbers and booleans as written,
 * arrays and objects by their kind.
 * @param value Any JSON value.
 * @returns `"dev"`, `42`, `null`, `an array`, `an object`.
 */
export function showValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : String(value);
}

/** A name: `^[a-z0-9][a-z0-9_-]*$`, at most 64 characters. */
export const nameSchema = z.string().max(MAX_NAME_LENGTH, {
  error: (issue) =>
    `name ${
      showValue(issue.input)
    } is too long: at most ${MAX_NAME_LENGTH} characters`,
}).regex(NAME_PATTERN, {
  error: (issue) =>
    `invalid name ${
      showValue(issue.input)
    }: use lowercase letters, digits, "-" and "_", starting with a letter or digit`,
});

/**
 * A run target: non-empty, at most 256 characters, no control characters, in
 * plain form (no empty, `.` or `..` path segment).
 */
export const targetSchema = z.string().min(1, {
  error: "a target must not be empty",
}).max(MAX_TARGET_LENGTH, {
  error: (issue) =>
    `target ${
      showValue(issue.input)
    } is too long: at most ${MAX_TARGET_LENGTH} characters`,
}).refine((target) => !hasControlCharacter(target), {
  error: (issue) =>
    `target ${showValue(issue.input)} holds a control character`,
}).refine((target) => targetFormProblem(target) === undefined, {
  error: (issue) => targetFormProblem(String(issue.input)) ?? "",
});

/** An environment-variable name; a literal URL gets its own message. */
export const envNameSchema = z.string().regex(ENV_NAME_PATTERN, {
  error: (issue) =>
    typeof issue.input === "string" && URL_LIKE.test(issue.input)
      ? "a literal URL is not allowed here: name the environment variable that holds it instead"
      : `invalid environment variable name ${
        showValue(issue.input)
      }: use letters, digits and "_", not starting with a digit`,
});

/** A non-empty string; `what` names it in the message. */
export function nonEmpty(what: string): z.ZodString {
  return z.string().min(1, { error: `${what} must not be empty` });
}

/** A duration (`90s`, `15m`, `2h`, `1h30m`) or the number (or string) 0. */
export const durationSchema = z.union([
  z.string().regex(DURATION_PATTERN, {
    error: (issue) =>
      `invalid duration ${showValue(issue.input)}: ${DURATION_HINT}`,
  }),
  z.literal(0),
], {
  error: (issue) =>
    `invalid duration ${showValue(issue.input)}: ${DURATION_HINT}`,
}).register(z.globalRegistry, {
  id: "Duration",
  description: 'A duration: "90s", "15m", "2h", "1h30m", or 0 (off)',
});

/** An argv template (§3.4): at least the program, no shell. */
export const argvSchema = z.array(z.string()).min(1, {
  error: "a command needs at least the program to run",
}).register(z.globalRegistry, {
  id: "ArgvTemplate",
  description:
    "An argv template: {op}, {target}, {wave}, {k}, {plan} (and {runs}, {plans} for wave commands)",
});

/**
 * The `tool` shorthand (SPEC.md §15), in place of `plan` and `apply`: one
 * object for every kind, so a mistyped field gets a "did you mean"; which
 * fields a kind needs (`target` for sqitch) and refuses (`args` for sqitch,
 * `target` for the others) is `_template_checks.ts`'s.
 */
export const toolSchema = z.strictObject({
  kind: z.enum(TOOL_KINDS).register(z.globalRegistry, {
    description:
      'The tool: opentofu (program "tofu"), terraform, or sqitch (database migrations)',
  }),
  dir: nonEmpty("a directory").register(z.globalRegistry, {
    description:
      "The root module's or sqitch project's directory, relative to the working directory: {op}, {target}, {wave}, {k}",
  }),
  target: nonEmpty("a database target").optional().register(z.globalRegistry, {
    description:
      'sqitch only, and required: the database, a URI or a sqitch target name ("db:pg://db.internal/tenant_{target}"): {op}, {target}, {wave}, {k}',
  }),
  binary: nonEmpty("a program").optional().register(z.globalRegistry, {
    description:
      'The program (default "tofu" for opentofu, "terraform" for terraform, "sqitch" for sqitch)',
  }),
  args: z.array(z.string()).optional().register(z.globalRegistry, {
    description:
      "OpenTofu and Terraform only: extra arguments of plan: {op}, {target}, {wave}, {k}",
  }),
  client: nonEmpty("a program").refine(
    (client) => !client.includes("/") || client.startsWith("/"),
    { error: "must be a program name (looked up on PATH) or an absolute path" },
  ).optional().register(z.globalRegistry, {
    description:
      'sqitch only: the database client the deploy runs (default "psql" on PATH): a program name or an absolute path; read at the base commit',
  }),
  verify: z.boolean().optional().register(z.globalRegistry, {
    description:
      "sqitch only: run each change's verify script after deploying it (default false); read at the base commit",
  }),
}).register(z.globalRegistry, {
  id: "Tool",
  description:
    "OpenTofu or Terraform (plan -out, show -json, the plan file, apply of the saved plan) or sqitch (the changes a database has not deployed, deployed up to the last one planned) in place of plan and apply",
});

/** Whether not-destructive marks in deploy scripts count (read at base). */
export const destructiveOverridesSchema = z.enum(DESTRUCTIVE_OVERRIDES)
  .register(z.globalRegistry, {
    id: "DestructiveOverrides",
    description:
      'Whether a "-- chant-wave: not destructive" line in a sqitch deploy script clears its destructive statements: "ignore" (default) or "honour"; read at the base commit, "ignore" winning',
  });

/** A runner label (§3.5). */
export const runnerSchema = z.union([
  nonEmpty("a runner label"),
  z.array(nonEmpty("a runner label")).min(1, {
    error: "a list of runner labels must not be empty",
  }),
  z.strictObject({
    group: nonEmpty("a runner group").register(z.globalRegistry, {
      description: "The runner group (GitHub only)",
    }),
    labels: z.array(nonEmpty("a runner label")).optional().register(
      z.globalRegistry,
      {
        description: "Labels a runner of the group must have",
      },
    ),
  }),
], {
  error: (issue) =>
    `invalid runner ${
      showValue(issue.input)
    }: expected a label, a list of labels or { "group": … }`,
}).register(z.globalRegistry, {
  id: "RunnerLabel",
  description: "A runner label, a list of labels, or a runner group",
});

/** A forge deployment environment. */
export const environmentSchema = z.strictObject({
  name: nonEmpty("an environment name").register(z.globalRegistry, {
    description: "The environment's name on the forge",
  }),
  url: z.string().optional().register(z.globalRegistry, {
    description: "A link shown with the deployment",
  }),
}).register(z.globalRegistry, {
  id: "Environment",
  description: "A forge deployment environment",
});

/** `{ NAME: audience }`: OIDC tokens; the entry count is a semantic check. */
export const idTokensSchema = z.record(
  envNameSchema,
  nonEmpty("an audience"),
).register(z.globalRegistry, {
  id: "IdTokens",
  description: "OIDC tokens: { NAME: audience }",
});

/** Environment variables of generated jobs. */
export const variablesSchema = z.record(envNameSchema, z.string());

/** `notify` (§8): the values NAME environment variables. */
export const notifySchema = z.strictObject({
  webhook: envNameSchema.meta({
    description: "The environment variable that holds the webhook URL",
  }),
  key: envNameSchema.meta({
    description: "The environment variable that holds the signing key",
  }).optional(),
});

/** A setup step of a generated job (§3.6). */
export const setupStepSchema = z.union([
  z.strictObject({
    run: z.string().register(z.globalRegistry, {
      description: "A shell line the job runs",
    }),
  }),
  z.strictObject({
    uses: nonEmpty("an action").register(z.globalRegistry, {
      description: "An action the job uses (GitHub and Forgejo only)",
    }),
    with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional().register(z.globalRegistry, {
        description: "The action's inputs",
      }),
  }),
], {
  error:
    'invalid setup step: expected { "run": … } or { "uses": …, "with"?: … }',
});

/** `pipeline` (§3.6), also read from the compatibility wrapper's `options`. */
export const pipelineSchema = z.strictObject({
  image: nonEmpty("an image").optional().register(z.globalRegistry, {
    description:
      "The container image of the jobs (GitLab image, GitHub and Forgejo container)",
  }),
  setup: z.array(setupStepSchema).default([]).register(z.globalRegistry, {
    description: 'Steps every job runs first: { "run" } or { "uses", "with"? }',
  }),
  variables: variablesSchema.default({}).register(z.globalRegistry, {
    description: "Environment variables of every generated job",
  }),
  install: z.string().register(z.globalRegistry, {
    description:
      "The shell line that puts chant-wave on PATH, run right before it in every job; without it the jobs cannot find chant-wave",
  }).optional(),
}).register(z.globalRegistry, {
  id: "Pipeline",
  description: "How generated jobs get chant-wave",
});

/** A scheduled job's `schedule`: a 5-field cron schedule in UTC. */
function cronSchedule(description: string) {
  return z.string().superRefine((schedule, ctx) => {
    const problem = cronProblem(schedule);
    if (problem !== undefined) {
      ctx.addIssue({ code: "custom", message: problem });
    }
  }).register(z.globalRegistry, { description });
}

/** `resume`: `{ "schedule": "<cron>" }`. */
export const resumeSchema = z.strictObject({
  schedule: cronSchedule(
    'When the scheduled job runs chant-wave resume: a 5-field cron schedule in UTC ("*/10 * * * *")',
  ),
}).register(z.globalRegistry, {
  id: "Resume",
  description:
    "A scheduled pipeline job that restarts the CI jobs of waiting gates once they are approved",
});

/** `pullRequests`: `{ "comment"?: boolean }` (SPEC.md §18). */
export const pullRequestsSchema = z.strictObject({
  comment: z.boolean().optional().register(z.globalRegistry, {
    description:
      "Whether pipeline renders the plan job of pull and merge requests, which keeps one plan comment and a status per wave on the request (default true)",
  }),
}).register(z.globalRegistry, {
  id: "PullRequests",
  description: "What the rendered pipeline does on pull and merge requests",
});

/** `drift`: `{ "schedule": "<cron>", "record"?: boolean }` (SPEC.md §19). */
export const driftSchema = z.strictObject({
  schedule: cronSchedule(
    'When the scheduled job runs chant-wave drift: a 5-field cron schedule in UTC ("0 6 * * *")',
  ),
  record: z.boolean().optional().register(z.globalRegistry, {
    description:
      "Whether the scheduled job records each drifted wave's plans as a pending fact (drift --record), which it pushes to the ledger; default false: it only reports",
  }),
}).register(z.globalRegistry, {
  id: "Drift",
  description:
    "A scheduled pipeline job that plans every wave again and reports the runs that drifted (exit 5)",
});

/**
 * The remote names a `git:<remote>` ledger may name: the pattern the git ledger
 * itself checks (a test keeps the two equal), so a URL is never taken for one.
 */
export const LEDGER_REMOTE_PATTERN: RegExp = /^[A-Za-z0-9_][A-Za-z0-9._\/-]*$/;

/** Why a ledger value is not one, or `undefined` when it is. */
function ledgerProblem(value: string): string | undefined {
  if (value === "") return "the ledger must not be empty";
  if (value.length > MAX_SIGNERS_PATH) {
    return `the ledger is too long: at most ${MAX_SIGNERS_PATH} characters`;
  }
  if (hasControlCharacter(value)) {
    return `ledger ${
      showValue(maskCredentials(value))
    } holds a control character`;
  }
  if (!value.startsWith("git:")) return undefined;
  const remote = value.slice("git:".length);
  if (remote === "") {
    return 'name the remote after "git:", e.g. "git:origin"';
  }
  return LEDGER_REMOTE_PATTERN.test(remote)
    ? undefined
    : `ledger ${
      showValue(maskCredentials(value))
    }: not a valid remote name; name a remote ("git:origin"), not a URL`;
}

/** `ledger`: `git`, `git:<remote>`, or a directory. */
export const ledgerSchema = z.string().superRefine((value, ctx) => {
  const problem = ledgerProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
}).register(z.globalRegistry, {
  description:
    'Where the gate ledger is, as --ledger takes it: "git" (the branch chant/ledger on origin), "git:<remote>", or a directory (default .chant/ledger); --ledger and CHANT_WAVE_LEDGER override it, and run reads it at the base commit',
});
