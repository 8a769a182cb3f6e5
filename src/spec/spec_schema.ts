/**
 * The one zod schema of the spec file (SPEC.md §3): every field, strict objects,
 * defaults, and the compatibility wrapper. The runner validates with it and
 * `chant-wave schema` prints the JSON Schema generated from it. Rules that span
 * fields (unique names, group matching, placeholders) live in `_semantic_checks.ts`;
 * defaults that depend on other fields live in `_normalise.ts`.
 * @module
 */

import * as z from "zod";
import { GATE_POLICIES, ON_FAILURE } from "./types.ts";
import {
  argvSchema,
  durationSchema,
  environmentSchema,
  idTokensSchema,
  nameSchema,
  nonEmpty,
  notifySchema,
  pipelineSchema,
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

const countSchema = z.int().min(1);

/** A run (§3.2): a bare target, or `{ target, op? }`. */
export const runSchema = z.union([
  targetSchema,
  z.strictObject({
    target: targetSchema,
    op: nonEmpty("an op").optional(),
  }),
], { error: 'invalid run: expected a target or { "target": … }' }).meta({
  id: "Run",
  description: 'A target, or { "target", "op"? }',
});

/** A job group (§3.3). */
export const jobGroupSchema = z.strictObject({
  name: nameSchema,
  runs: z.array(nonEmpty("a pattern")).min(1, {
    error: "a group needs at least one pattern",
  }).meta({ description: 'Targets or patterns with "*" and "**"' }),
  shares: countSchema.default(1),
  runner: runnerSchema.optional(),
  environment: environmentSchema.optional(),
  idTokens: idTokensSchema.optional(),
}).meta({ id: "JobGroup", description: "Runs split off by pattern" });

/** A wave (§3.2); `parallel`, `onFailure` and `timeout` inherit the top level. */
export const waveSchema = z.strictObject({
  name: nameSchema,
  runs: z.array(runSchema).meta({
    description: 'Targets, unique in the wave; may be [] with "discover"',
  }),
  gate: z.enum(GATE_POLICIES).default("always").meta({
    description: "The policy, read at the base commit only",
  }),
  shares: countSchema.optional().meta({
    description: "Share jobs after a deciding job (default 1)",
  }),
  jobs: z.array(jobGroupSchema).min(1, {
    error: "jobs must name at least one group",
  }).optional(),
  parallel: countSchema.optional(),
  onFailure: z.enum(ON_FAILURE).optional(),
  timeout: durationSchema.optional(),
  environment: environmentSchema.optional(),
  variables: variablesSchema.optional(),
  runner: runnerSchema.optional(),
  idTokens: idTokensSchema.optional(),
  discover: z.boolean().default(false),
  approval: approvalModeSchema.optional(),
  approvers: approversSchema.optional(),
}).meta({ id: "Wave" });

const specShape = {
  $schema: z.string().optional(),
  name: nameSchema.meta({ description: "The rollout's name" }),
  op: nonEmpty("an op").optional().meta({
    description: "Fills {op} (default: name)",
  }),
  gate: nameSchema.optional().meta({
    description: "Gate prefix (default: name)",
  }),
  base: nonEmpty("a base revision").optional().meta({
    description: "Where the policy is read (default HEAD^1)",
  }),
  plan: argvSchema.optional(),
  apply: argvSchema.optional(),
  planWave: argvSchema.optional(),
  applyWave: argvSchema.optional(),
  tool: toolSchema.optional(),
  parallel: countSchema.default(1),
  onFailure: z.enum(ON_FAILURE).default("continue"),
  timeout: durationSchema.optional(),
  heartbeat: durationSchema.default("60s"),
  pendingTtl: durationSchema.default("48h"),
  branches: z.array(nonEmpty("a branch")).min(1, {
    error: "branches must name at least one branch",
  }).default(["main"]),
  runner: runnerSchema.optional(),
  notify: notifySchema.optional(),
  pipeline: pipelineSchema.optional(),
  approval: approvalModeSchema.optional(),
  signers: signersSchema.optional(),
  approvers: approversSchema.optional(),
  waves: z.array(waveSchema).min(1, {
    error: "a spec needs at least one wave",
  }),
};

/** The spec itself (§3.1). */
export const specSchema = z.strictObject(specShape).meta({ id: "Spec" });

/**
 * The compatibility wrapper (§3): `{ "waves": <spec>, "options": <pipeline> }`.
 * Told apart from a plain spec by its `waves` being an object.
 */
export const wrappedSpecSchema = z.strictObject({
  $schema: z.string().optional(),
  waves: specSchema,
  options: pipelineSchema.optional(),
});

/** A spec file: a plain spec or the compatibility wrapper. */
export const specFileSchema = z.union([specSchema, wrappedSpecSchema]);

/** A spec as the schema outputs it: defaults applied, nothing normalised yet. */
export type SpecOutput = z.output<typeof specSchema>;
/** A pipeline as the schema outputs it. */
export type PipelineOutput = z.output<typeof pipelineSchema>;
