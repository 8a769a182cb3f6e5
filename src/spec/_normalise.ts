/**
 * Turns a schema-valid spec into the normalised {@linkcode Spec}: runs as
 * `{ target, op }`, waves numbered, inherited settings filled in, durations in
 * milliseconds. Pure and total on valid input; it checks nothing.
 * @module
 */

import { parseDuration } from "./duration.ts";
import { hoursRange } from "./_timing_schema.ts";
import type { PipelineOutput, SpecOutput } from "./spec_schema.ts";
import {
  type ApproverRules,
  type Command,
  DEFAULT_SIGNERS,
  type FreezeWindow,
  type Hook,
  HOOK_POINTS,
  type Hooks,
  type JobGroup,
  type Pipeline,
  type PlanRule,
  type Run,
  type SetupStep,
  type Spec,
  type Tool,
  type ToolKind,
  type Wave,
} from "./types.ts";

type WaveOutput = SpecOutput["waves"][number];
type GroupOutput = NonNullable<WaveOutput["jobs"]>[number];
type HooksOutput = NonNullable<SpecOutput["hooks"]>;

/** Milliseconds of a schema-valid duration; `undefined` gives `fallback`. */
function ms(duration: string | 0 | undefined, fallback: number): number {
  if (duration === undefined) return fallback;
  return duration === 0 ? 0 : parseDuration(duration);
}

/** Copies the keys of `from` whose values are defined. */
function defined<T extends object>(from: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(from).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

function normaliseGroup(group: GroupOutput): JobGroup {
  return {
    name: group.name,
    runs: [...group.runs],
    shares: group.shares,
    ...defined({
      runner: group.runner,
      environment: group.environment,
      idTokens: group.idTokens,
    }),
  };
}

type ApproversOutput = NonNullable<SpecOutput["approvers"]>;

/**
 * Approver rules, field by field: the first of `layers` that sets a field wins,
 * then the defaults (1 approver, anyone, self-approval allowed).
 */
function approverRules(
  ...layers: (ApproversOutput | undefined)[]
): ApproverRules {
  const pick = <K extends keyof ApproversOutput>(key: K) =>
    layers.find((layer) => layer?.[key] !== undefined)?.[key];
  const allowed = pick("allowed");
  return {
    required: pick("required") ?? 1,
    ...(allowed === undefined ? {} : { allowed: [...allowed] }),
    selfApproval: pick("selfApproval") ?? true,
  };
}

/**
 * The hooks at every point (none where the spec sets none): a hold's `applied`
 * is made a boolean; a hook with both or neither of `run` and `after` never gets
 * here (a semantic check refuses it).
 */
function normaliseHooks(hooks: HooksOutput | undefined): Hooks {
  const entries = HOOK_POINTS.map((point) => {
    const list: Hook[] = (hooks?.[point] ?? []).map((hook) =>
      hook.after
        ? {
          name: hook.name,
          after: {
            name: hook.after.name,
            gate: hook.after.gate,
            applied: hook.after.applied === true,
          },
        }
        : { name: hook.name, run: [...hook.run ?? []] }
    );
    return [point, list];
  });
  return Object.fromEntries(entries) as Hooks;
}

type RuleOutput = NonNullable<WaveOutput["rules"]>[number];

/**
 * A rule as the runner reads it: `only` rules apart (the schema let them set
 * `gate: "never"` and nothing else), approvers as written (each field tightens
 * the wave's; none is defaulted).
 */
function normaliseRule(rule: RuleOutput): PlanRule {
  const { only, ...fields } = rule.when;
  if (only !== undefined) {
    return { kind: "only", match: { ...only }, gate: "never" };
  }
  return {
    kind: "when",
    match: fields,
    ...defined({ gate: rule.gate, approvers: rule.approvers }),
  };
}

function normaliseWave(
  wave: WaveOutput,
  index: number,
  spec: SpecOutput,
  defaults: { op: string; timeoutMs: number },
): Wave {
  const runs: Run[] = wave.runs.map((run) =>
    typeof run === "string"
      ? { target: run, op: defaults.op }
      : { target: run.target, op: run.op ?? defaults.op }
  );
  return {
    k: index + 1,
    name: wave.name,
    runs,
    gate: wave.gate,
    shares: wave.shares ?? 1,
    parallel: wave.parallel ?? spec.parallel,
    timeoutMs: ms(wave.timeout, defaults.timeoutMs),
    discover: wave.discover,
    approval: wave.approval ?? spec.approval ?? "ledger",
    approvers: approverRules(wave.approvers, spec.approvers),
    destructiveOverrides: wave.destructiveOverrides ??
      spec.destructiveOverrides ?? "ignore",
    rules: (wave.rules ?? []).map(normaliseRule),
    soakMs: ms(wave.soak ?? spec.soak, 0),
    freeze: [...wave.freeze ?? [], ...spec.freeze ?? []].map(normaliseWindow),
    rest: wave.rest,
    hooks: normaliseHooks(wave.hooks ?? spec.hooks),
    ...defined({
      jobs: wave.jobs?.map(normaliseGroup),
      environment: wave.environment,
      variables: wave.variables,
      runner: wave.runner,
      idTokens: wave.idTokens,
      canary: wave.canary ?? spec.canary,
      onFailure: wave.onFailure ?? spec.onFailure,
    }),
  };
}

type WindowOutput = NonNullable<SpecOutput["freeze"]>[number];

/** A freeze window as the runner reads it (the schema made sure of its form). */
function normaliseWindow(window: WindowOutput): FreezeWindow {
  const common = {
    timezone: window.timezone ?? "UTC",
    ...defined({ reason: window.reason }),
  };
  if (window.days !== undefined) {
    return {
      kind: "weekly",
      days: [...window.days],
      hours: hoursRange(window.hours ?? "00:00-24:00")!,
      ...common,
    };
  }
  return { kind: "dated", from: window.from!, to: window.to!, ...common };
}

/** The program of each tool when the spec names none. */
const DEFAULT_BINARY: Record<ToolKind, string> = {
  opentofu: "tofu",
  terraform: "terraform",
  sqitch: "sqitch",
};

/** The tool with its defaults; the checks made sure sqitch has a `target`. */
function normaliseTool(tool: NonNullable<SpecOutput["tool"]>): Tool {
  const binary = tool.binary ?? DEFAULT_BINARY[tool.kind];
  if (tool.kind === "sqitch") {
    return {
      kind: "sqitch",
      dir: tool.dir,
      target: tool.target!,
      binary,
      client: tool.client ?? "psql",
      verify: tool.verify ?? false,
    };
  }
  return {
    kind: tool.kind,
    dir: tool.dir,
    binary,
    args: [...(tool.args ?? [])],
  };
}

/**
 * The plan and apply commands: the tool for both, else each side's whole-wave
 * command over its per-run one (the checks made sure one of them is there).
 */
function commandsOf(spec: SpecOutput): { plan: Command; apply: Command } {
  if (spec.tool) {
    const command: Command = { kind: "tool", tool: normaliseTool(spec.tool) };
    return { plan: command, apply: command };
  }
  const side = (whole?: string[], perRun?: string[]): Command => {
    if (whole) return { kind: "whole-wave", argv: [...whole] };
    if (perRun) return { kind: "per-run", argv: [...perRun] };
    throw new Error("a spec without a command passed the checks");
  };
  return {
    plan: side(spec.planWave, spec.plan),
    apply: side(spec.applyWave, spec.apply),
  };
}

function normalisePipeline(pipeline: PipelineOutput): Pipeline {
  return {
    setup: pipeline.setup.map((step) => ({ ...step }) as SetupStep),
    variables: { ...pipeline.variables },
    ...defined({ image: pipeline.image, install: pipeline.install }),
  };
}

/**
 * Normalises a spec that passed the schema and the semantic checks.
 * @param spec The schema's output for the spec.
 * @param options The compatibility wrapper's `options`, read as `pipeline`.
 * @returns The normalised spec. `op` and `gate` default to `name`; each wave's
 *   `parallel`, `onFailure`, `timeout` and `hooks` inherit the top level (a
 *   wave's `hooks` replace the spec's); `timeoutMs` 0 means none; `onFailure`
 *   stays absent when neither sets it (a destructive plan then stops the job
 *   at its first failed apply, SPEC.md §19). `tool` gets
 *   its default `binary` (and `args`); `plan` and `apply` say which command
 *   runs (the tool, else the whole-wave one, else the per-run one). A wave's
 *   `approval` is its own, else the top level's, else `ledger`; its
 *   `approvers` take each field from the wave, else the top level, else the
 *   default; its `destructiveOverrides` is the wave's, else the top level's,
 *   else `ignore`. `runner`, `environment` and `idTokens` are kept as written:
 *   the job expansion falls back to the wave's and the top level's.
 */
export function normalise(spec: SpecOutput, options?: PipelineOutput): Spec {
  const op = spec.op ?? spec.name;
  const timeoutMs = ms(spec.timeout, 0);
  const pipeline = spec.pipeline ?? options;
  return {
    name: spec.name,
    op,
    gate: spec.gate ?? spec.name,
    parallel: spec.parallel,
    timeoutMs,
    heartbeatMs: ms(spec.heartbeat, 60_000),
    pendingTtlMs: ms(spec.pendingTtl, 48 * 3_600_000),
    branches: [...spec.branches],
    approval: spec.approval ?? "ledger",
    signers: spec.signers ?? DEFAULT_SIGNERS,
    approvers: approverRules(spec.approvers),
    destructiveOverrides: spec.destructiveOverrides ?? "ignore",
    order: spec.order,
    soakMs: ms(spec.soak, 0),
    freeze: (spec.freeze ?? []).map(normaliseWindow),
    hooks: normaliseHooks(spec.hooks),
    waves: spec.waves.map((wave, i) =>
      normaliseWave(wave, i, spec, { op, timeoutMs })
    ),
    ...commandsOf(spec),
    ...defined({
      base: spec.base,
      canary: spec.canary,
      onFailure: spec.onFailure,
      ledger: spec.ledger,
      runner: spec.runner,
      notify: spec.notify,
      pipeline: pipeline && normalisePipeline(pipeline),
      resume: spec.resume && { schedule: spec.resume.schedule.trim() },
      pullRequests: spec.pullRequests && {
        comment: spec.pullRequests.comment ?? true,
      },
      drift: spec.drift && {
        schedule: spec.drift.schedule.trim(),
        record: spec.drift.record === true,
      },
    }),
  };
}
