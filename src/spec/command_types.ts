/**
 * How a spec plans and applies its runs (SPEC.md §3.1, §4.10, §15): one argv
 * template per run, one for a job's runs, or a `tool` shorthand (OpenTofu,
 * Terraform, sqitch) that stands for both. Shapes and closed vocabularies only;
 * `types.ts` re-exports them with the rest of the spec.
 * @module
 */

/** The tools of the `tool` shorthand (SPEC.md §15): the OpenTofu kinds, then sqitch. */
export const TOOL_KINDS = ["opentofu", "terraform", "sqitch"] as const;
/** `opentofu`, `terraform` or `sqitch`. */
export type ToolKind = typeof TOOL_KINDS[number];

/** The kinds that plan with OpenTofu or Terraform; both write the same plan format. */
export const TOFU_KINDS = ["opentofu", "terraform"] as const;
/** `opentofu` or `terraform`. */
export type TofuKind = typeof TOFU_KINDS[number];

/**
 * The `tool` shorthand for OpenTofu or Terraform (SPEC.md §15): they stand for
 * the plan and apply commands.
 */
export interface TofuTool {
  /** Which tool. */
  kind: TofuKind;
  /** The root module's directory, an argv-template element (`live/{target}`). */
  dir: string;
  /** The program: the spec's, else `tofu` for opentofu and `terraform` for terraform. */
  binary: string;
  /** Extra arguments of `plan`, argv-template elements (possibly none). */
  args: string[];
}

/**
 * The `tool` shorthand for sqitch database migrations: the changes of a sqitch
 * project that a target database has not deployed stand for the plan, and
 * deploying exactly those for the apply.
 */
export interface SqitchTool {
  /** `sqitch`. */
  kind: "sqitch";
  /** The sqitch project's directory, an argv-template element (`db`). */
  dir: string;
  /** The database, an argv-template element (`db:pg://db.internal/tenant_{target}`). */
  target: string;
  /** The program: the spec's, else `sqitch`. */
  binary: string;
  /** The database client the deploy runs: the spec's, else `psql`. */
  client: string;
  /** Whether verify scripts run after each change: the spec's, else false. */
  verify: boolean;
}

/** A `tool` shorthand: OpenTofu/Terraform or sqitch. */
export type Tool = TofuTool | SqitchTool;

/** `plan` or `apply` (SPEC.md §3.1): one argv template per run. */
export interface PerRunCommand {
  /** Always `per-run`. */
  kind: "per-run";
  /** The template: `{target}`, `{op}`, `{plan}`, … */
  argv: string[];
}

/** `planWave` or `applyWave` (SPEC.md §4.10): one call for a job's runs. */
export interface WholeWaveCommand {
  /** Always `whole-wave`. */
  kind: "whole-wave";
  /** The template: `{runs}` in, `{plans}` out. */
  argv: string[];
}

/** `tool` (SPEC.md §15): OpenTofu, Terraform or sqitch plans and applies. */
export interface ToolCommand {
  /** Always `tool`. */
  kind: "tool";
  /** The tool, with its defaults. */
  tool: Tool;
}

/**
 * How a spec plans or applies its runs: one command per run, one for the
 * whole job, or its tool (which stands for both).
 */
export type Command = PerRunCommand | WholeWaveCommand | ToolCommand;

/**
 * Whether a spec's plans are plans of each target's live state that are empty
 * once applied (the sqitch tool: what a database has not deployed, SPEC.md
 * §17), so a non-empty plan planned again after it applied means the target
 * moved back since. OpenTofu and Terraform plans may repeat after an apply (a
 * perpetual diff), and a command's plans are its own.
 * @param plan The spec's `plan`.
 * @returns True for the sqitch tool.
 * @example
 * ```ts
 * plansLiveState({ kind: "per-run", argv: ["plan", "{plan}"] }); // false
 * ```
 */
export function plansLiveState(plan: Command): boolean {
  return plan.kind === "tool" && plan.tool.kind === "sqitch";
}
