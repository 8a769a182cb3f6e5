/**
 * The one zod schema of the spec file (SPEC.md §3): every field, strict objects,
 * defaults, and the compatibility wrapper. The runner validates with it and
 * `chant-wave schema` prints the JSON Schema generated from it. Rules that span
 * fields (unique names, group matching, placeholders) live in `_semantic_checks.ts`;
 * defaults that depend on other fields live in `_normalise.ts`.
 * The JSON Schema for editors and `chant-wave schema` is generated from it; its
 * root picks the plain spec or the compatibility wrapper with `if`/`then`/`else`
 * on `waves` being an object, so an editor reports the real error, never
 * "matches no schema of anyOf".
 * Every command that reads a spec builds these schemas once, so the JSON
 * Schema's descriptions and `$defs` ids are registered on the schemas in place
 * (`.register(z.globalRegistry, …)`, a map entry each) rather than with
 * `.meta()`, which clones the schema for every described field; `.meta()` is
 * kept only where one schema is shared by fields with different descriptions.
 * The union of the two file forms is built only for the JSON Schema.
 * @module
 */

import * as z from "zod";
import "./_zod_config.ts";
import { GATE_POLICIES, ON_FAILURE, ORDERS } from "./types.ts";
import {
  argvSchema,
  destructiveOverridesSchema,
  driftSchema,
  durationSchema,
  environmentSchema,
  idTokensSchema,
  ledgerSchema,
  nameSchema,
  nonEmpty,
  notifySchema,
  pipelineSchema,
  pullRequestsSchema,
  resumeSchema,
  runnerSchema,
  targetSchema,
  toolSchema,
  variablesSchema,
} from "./_schema_parts.ts";
import {
  approvalModeSchema,
  approversSchema,
  signersSchema,
} from "./_approval_schema.ts";
import { rulesSchema } from "./_rules_schema.ts";
import { freezeSchema } from "./_timing_schema.ts";
import { hooksSchema } from "./_hooks_schema.ts";

const countSchema = z.int().min(1);

/** A run (§3.2): a bare target, or `{ target, op? }`. */
export const runSchema = z.union([
  targetSchema,
  z.strictObject({
    target: targetSchema.meta({
      description: "The run's target, unique in its wave: fills {target}",
    }),
    op: nonEmpty("an op").optional().register(z.globalRegistry, {
      description: "Fills {op} for this run (default: the spec's op)",
    }),
  }),
], { error: 'invalid run: expected a target or { "target": … }' }).register(
  z.globalRegistry,
  {
    id: "Run",
    description: 'A target, or { "target", "op"? }',
  },
);

/** A job group (§3.3). */
export const jobGroupSchema = z.strictObject({
  name: nameSchema.meta({
    description:
      'The group\'s name, unique in the wave; not "decide" nor "share-<n>"',
  }),
  runs: z.array(nonEmpty("a pattern")).min(1, {
    error: "a group needs at least one pattern",
  }).register(z.globalRegistry, {
    description:
      'Targets or patterns: "*" within one "/"-separated segment, "**" across segments',
  }),
  shares: countSchema.default(1).register(z.globalRegistry, {
    description: "Share jobs the group's runs are sliced into (default 1)",
  }),
  runner: runnerSchema.optional().register(z.globalRegistry, {
    description: "The runner of the group's jobs (default: the wave's)",
  }),
  environment: environmentSchema.optional().register(z.globalRegistry, {
    description: "The forge deployment environment of the group's jobs",
  }),
  idTokens: idTokensSchema.optional().register(z.globalRegistry, {
    description: "OIDC tokens of the group's jobs: { NAME: audience }",
  }),
}).register(z.globalRegistry, {
  id: "JobGroup",
  description: "Runs of a wave split off by pattern into their own jobs",
});

/** A wave (§3.2); `parallel`, `onFailure` and `timeout` inherit the top level. */
export const waveSchema = z.strictObject({
  name: nameSchema.meta({
    description:
      "The wave's name, unique: fills {wave}; the policy at base is looked up by it",
  }),
  runs: z.array(runSchema).register(z.globalRegistry, {
    description: 'Targets, unique in the wave; may be [] with "discover"',
  }),
  gate: z.enum(GATE_POLICIES).default("always").register(z.globalRegistry, {
    description:
      "When a person must approve: always, on-destructive (a plan deletes or replaces) or never; read at the base commit only",
  }),
  shares: countSchema.optional().register(z.globalRegistry, {
    description:
      "Share jobs after a deciding job, each applying a slice of the runs (default 1)",
  }),
  jobs: z.array(jobGroupSchema).min(1, {
    error: "jobs must name at least one group",
  }).optional().register(z.globalRegistry, {
    description:
      "Job groups: split the runs by pattern, every run in exactly one group; not with shares",
  }),
  parallel: countSchema.optional().register(z.globalRegistry, {
    description:
      "Runs planned or applied at once in one job (default: the spec's)",
  }),
  onFailure: z.enum(ON_FAILURE).optional().register(z.globalRegistry, {
    description:
      "After a failed apply: continue with the job's other runs, or stop (default: the spec's, else stop when a run the job applies has a destructive plan, else continue)",
  }),
  timeout: durationSchema.optional().register(z.globalRegistry, {
    description:
      "A plan or apply command running longer is stopped and fails (default: the spec's)",
  }),
  environment: environmentSchema.optional().register(z.globalRegistry, {
    description:
      "The forge deployment environment of the wave's jobs (dropped on Forgejo)",
  }),
  variables: variablesSchema.optional().register(z.globalRegistry, {
    description: "Environment variables of the wave's generated jobs",
  }),
  runner: runnerSchema.optional().register(z.globalRegistry, {
    description: "The runner of the wave's jobs (default: the spec's)",
  }),
  idTokens: idTokensSchema.optional().register(z.globalRegistry, {
    description: "OIDC tokens of the wave's jobs: { NAME: audience }",
  }),
  discover: z.boolean().default(false).register(z.globalRegistry, {
    description: "planWave chooses the wave's runs (runs may then be [])",
  }),
  approval: approvalModeSchema.optional().register(z.globalRegistry, {
    description:
      "Which approvals this wave's gate counts (default: the spec's); read at the base commit",
  }),
  approvers: approversSchema.optional().register(z.globalRegistry, {
    description:
      "This wave's approver rules, each field over the spec's; read at the base commit",
  }),
  rules: rulesSchema.optional(),
  soak: durationSchema.optional().register(z.globalRegistry, {
    description:
      "How long ago the wave before must have applied this revision before this wave applies it (default: the spec's); read at the base commit",
  }),
  freeze: freezeSchema.optional().register(z.globalRegistry, {
    description:
      "Windows in which this wave applies nothing without an approval given with --during-freeze, beside the spec's; read at the base commit",
  }),
  canary: countSchema.optional().register(z.globalRegistry, {
    description:
      "Apply the wave's first N runs (spec order) first, and the rest only when all N applied (default: the spec's); read at the base commit",
  }),
  destructiveOverrides: destructiveOverridesSchema.optional().register(
    z.globalRegistry,
    {
      description:
        "Whether this wave's deploy scripts may clear their destructive statements with a \"-- chant-wave: not destructive\" line (default: the spec's); read at the base commit",
    },
  ),
  rest: z.boolean().default(false).register(z.globalRegistry, {
    description:
      'The last wave only (not with jobs): it stands for every further wave, "--wave k" past the spec\'s waves, and a whole-wave job goes on through the waves its planWave reports',
  }),
  hooks: hooksSchema.optional().register(z.globalRegistry, {
    description: "This wave's hooks, in place of the spec's",
  }),
}).register(z.globalRegistry, {
  id: "Wave",
  description:
    "An ordered step of the rollout: runs that go together behind one gate",
});

/** The `"$schema"` key, which the runner ignores. */
const schemaKey = z.string().optional().register(z.globalRegistry, {
  description:
    "The JSON Schema editors check this file with; chant-wave ignores it",
});

const specShape = {
  $schema: schemaKey,
  name: nameSchema.meta({
    description:
      "The rollout's name: lowercase letters, digits, - and _; gates are recorded under it",
  }),
  op: nonEmpty("an op").optional().register(z.globalRegistry, {
    description: "Fills {op} (default: name)",
  }),
  gate: nameSchema.optional().register(z.globalRegistry, {
    description:
      "Gate prefix: wave k's gate is <gate>-wave-<k> (default: name)",
  }),
  base: nonEmpty("a base revision").optional().register(z.globalRegistry, {
    description:
      "Where the gate policy is read (default: the commit before the push, else every version since the last trusted decision); must be an ancestor of HEAD",
  }),
  plan: argvSchema.optional().register(z.globalRegistry, {
    description:
      "Plans one run and writes its plan file at {plan}; required unless planWave or tool",
  }),
  apply: argvSchema.optional().register(z.globalRegistry, {
    description:
      "Applies one run whose plan is at {plan}; required unless applyWave or tool",
  }),
  planWave: argvSchema.optional().register(z.globalRegistry, {
    description:
      "Plans all the job's runs in one command: reads {runs}, writes {plans}",
  }),
  applyWave: argvSchema.optional().register(z.globalRegistry, {
    description: "Applies all the job's runs in one command: {runs}, {plans}",
  }),
  tool: toolSchema.optional().register(z.globalRegistry, {
    description: "OpenTofu, Terraform or sqitch in place of plan and apply",
  }),
  ledger: ledgerSchema.optional(),
  parallel: countSchema.default(1).register(z.globalRegistry, {
    description: "Runs planned or applied at once in one job (default 1)",
  }),
  onFailure: z.enum(ON_FAILURE).optional().register(z.globalRegistry, {
    description:
      "After a failed apply: continue with the job's other runs, or stop and leave them untried (default: stop when a run the job applies has a destructive plan, else continue); the job exits 1 either way",
  }),
  timeout: durationSchema.optional().register(z.globalRegistry, {
    description:
      "A plan or apply command running longer is stopped and fails (default: none)",
  }),
  heartbeat: durationSchema.default("60s").register(z.globalRegistry, {
    description:
      "A quiet step prints a still-running line this often (default 60s; 0 off)",
  }),
  pendingTtl: durationSchema.default("48h").register(z.globalRegistry, {
    description:
      "How long a waiting wave's pending fact stands (default 48h): meanwhile re-runs add none and approve without --plan approves it",
  }),
  order: z.enum(ORDERS).default("strict").register(z.globalRegistry, {
    description:
      'Whether wave k runs only after wave k-1 applied this revision ("strict") or not ("none"); read at the base commit',
  }),
  branches: z.array(nonEmpty("a branch")).min(1, {
    error: "branches must name at least one branch",
  }).default(["main"]).register(z.globalRegistry, {
    description:
      'Branches whose pushes start the generated pipeline (default ["main"])',
  }),
  runner: runnerSchema.optional().register(z.globalRegistry, {
    description: "The runner of the generated jobs (default: the forge's)",
  }),
  notify: notifySchema.optional().register(z.globalRegistry, {
    description:
      "Webhook events: the environment variables holding the URL and key",
  }),
  pipeline: pipelineSchema.optional().register(z.globalRegistry, {
    description:
      "How generated jobs get chant-wave: install, image, setup, variables",
  }),
  approval: approvalModeSchema.optional().register(z.globalRegistry, {
    description:
      'Which approvals the gates count (default "ledger"): "ledger", "forge" (confirmed by the forge in the job, or sealed; "pr-review" is read as it) or "sealed" (signed by a key listed in the signers file at base); read at the base commit',
  }),
  signers: signersSchema.optional(),
  approvers: approversSchema.optional().register(z.globalRegistry, {
    description:
      "Approver rules of every wave unless a wave overrides a field: required, allowed, selfApproval; read at the base commit",
  }),
  destructiveOverrides: destructiveOverridesSchema.optional().register(
    z.globalRegistry,
    {
      description:
        'Whether deploy scripts may clear their destructive statements with a "-- chant-wave: not destructive" line: "ignore" (default) or "honour"; read at the base commit',
    },
  ),
  soak: durationSchema.optional().register(z.globalRegistry, {
    description:
      'How long ago wave k-1 must have applied a revision before wave k applies it, for every wave that sets none ("2h"; default 0); read at the base commit',
  }),
  freeze: freezeSchema.optional().register(z.globalRegistry, {
    description:
      "Windows in which no wave applies without an approval given with --during-freeze; read at the base commit",
  }),
  canary: countSchema.optional().register(z.globalRegistry, {
    description:
      "For every wave that sets none: apply its first N runs first, the rest only when all N applied; read at the base commit",
  }),
  resume: resumeSchema.optional().register(z.globalRegistry, {
    description:
      "A scheduled job running chant-wave resume: { schedule: <cron> }",
  }),
  pullRequests: pullRequestsSchema.optional().register(z.globalRegistry, {
    description:
      'The plan job on pull and merge requests: { "comment": false } renders none',
  }),
  drift: driftSchema.optional().register(z.globalRegistry, {
    description:
      "A scheduled job running chant-wave drift: { schedule: <cron>, record?: boolean }",
  }),
  hooks: hooksSchema.optional().register(z.globalRegistry, {
    description:
      "Hooks of every wave that sets none: commands and holds at before-plan, after-plan, before-apply, after-apply",
  }),
  waves: z.array(waveSchema).min(1, {
    error: "a spec needs at least one wave",
  }).register(z.globalRegistry, {
    description: "The waves, in order; at least one",
  }),
};

/** The spec itself (§3.1). */
export const specSchema = z.strictObject(specShape).register(z.globalRegistry, {
  id: "Spec",
  description: "The waves file of chant-wave",
});

/**
 * The compatibility wrapper (§3): `{ "waves": <spec>, "options": <pipeline> }`.
 * Told apart from a plain spec by its `waves` being an object.
 */
export const wrappedSpecSchema = z.strictObject({
  $schema: schemaKey,
  waves: specSchema.meta({ description: "The spec itself" }),
  options: pipelineSchema.optional().register(z.globalRegistry, {
    description: 'Read as the spec\'s "pipeline"',
  }),
}).register(z.globalRegistry, {
  id: "WrappedSpec",
  description:
    'The compatibility form { "waves": <spec>, "options": <pipeline> }, told apart by "waves" being an object',
});

/** A spec as the schema outputs it: defaults applied, nothing normalised yet. */
export type SpecOutput = z.output<typeof specSchema>;
/** A pipeline as the schema outputs it. */
export type PipelineOutput = z.output<typeof pipelineSchema>;

/**
 * Generates the JSON Schema (draft 2020-12) of a spec file: a plain spec
 * (`$defs/Spec`), or the compatibility wrapper (`$defs/WrappedSpec`) when
 * `waves` is an object; `"$schema"` allowed, defaults shown, every field
 * described.
 * @returns A fresh JSON Schema object.
 * @example
 * ```ts
 * JSON.stringify(specJsonSchema(), null, 2); // what `chant-wave schema` prints
 * ```
 */
export function specJsonSchema(): Record<string, unknown> {
  const specFile = z.union([specSchema, wrappedSpecSchema]);
  const schema = z.toJSONSchema(specFile, { io: "input" }) as Record<
    string,
    unknown
  >;
  return {
    $schema: schema.$schema,
    title: "chant-wave spec",
    description:
      "The waves file of chant-wave (docs/spec.md; chant-wave help spec)",
    if: {
      type: "object",
      properties: {
        waves: {
          type: "object",
          description: "An object here means the compatibility wrapper",
        },
      },
      required: ["waves"],
    },
    then: { $ref: "#/$defs/WrappedSpec" },
    else: { $ref: "#/$defs/Spec" },
    $defs: schema.$defs,
  };
}
