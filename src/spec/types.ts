/**
 * The validated, normalised spec (SPEC.md §3) that every other part of chant-wave
 * reads: defaults applied, runs as objects with their `op` resolved, durations in
 * milliseconds. Parsing and validation live in `parse_spec.ts`; this file owns only
 * the shapes and closed vocabularies.
 * @module
 */

/** The gate policies of SPEC.md §4.4. */
export const GATE_POLICIES = ["always", "on-destructive", "never"] as const;
/** A gate policy. */
export type GatePolicy = typeof GATE_POLICIES[number];

/** What a job does after a failed apply. */
export const ON_FAILURE = ["continue", "stop"] as const;
/** `continue` with the job's other runs, or `stop`. */
export type OnFailure = typeof ON_FAILURE[number];

/** A runner label (§3.5): a label, several labels, or a runner group. */
export type RunnerLabel = string | string[] | {
  group: string;
  labels?: string[];
};

/** A forge deployment environment. */
export interface Environment {
  name: string;
  url?: string;
}

/** One target of a wave, with its `op` resolved (the run's, else the spec's). */
export interface Run {
  target: string;
  op: string;
}

/** A job group (§3.3). */
export interface JobGroup {
  name: string;
  /** Patterns: exact targets, `*` within a segment, `**` across segments. */
  runs: string[];
  /** Share jobs of this group; 1 means one group job. */
  shares: number;
  runner?: RunnerLabel;
  environment?: Environment;
  idTokens?: Record<string, string>;
}

/** A wave (§3.2), numbered from 1 in spec order. */
export interface Wave {
  /** 1-based position in the spec. */
  k: number;
  name: string;
  runs: Run[];
  /** The working copy's gate; the runner reads the policy at base instead (§4.4). */
  gate: GatePolicy;
  shares: number;
  jobs?: JobGroup[];
  parallel: number;
  onFailure: OnFailure;
  /** Milliseconds; 0 means no timeout. */
  timeoutMs: number;
  environment?: Environment;
  variables?: Record<string, string>;
  runner?: RunnerLabel;
  idTokens?: Record<string, string>;
  discover: boolean;
}

/** A setup step of a generated pipeline job (§3.6). */
export type SetupStep =
  | { run: string }
  | { uses: string; with?: Record<string, string | number | boolean> };

/** How generated jobs get the binary and what they run first (§3.6). */
export interface Pipeline {
  image?: string;
  setup: SetupStep[];
  variables: Record<string, string>;
  /** The shell line that puts `chant-wave` on PATH. */
  install?: string;
}

/** Webhook settings (§8): the values NAME environment variables. */
export interface Notify {
  webhook: string;
  key?: string;
}

/** A whole, valid spec (§3.1). */
export interface Spec {
  name: string;
  op: string;
  gate: string;
  /** The base rev when the spec sets one; the runner defaults to `HEAD^1`. */
  base?: string;
  plan?: string[];
  apply?: string[];
  planWave?: string[];
  applyWave?: string[];
  parallel: number;
  onFailure: OnFailure;
  /** Milliseconds; 0 means no timeout. */
  timeoutMs: number;
  /** Milliseconds; 0 turns the heartbeat off. */
  heartbeatMs: number;
  pendingTtlMs: number;
  branches: string[];
  runner?: RunnerLabel;
  notify?: Notify;
  pipeline?: Pipeline;
  waves: Wave[];
}
