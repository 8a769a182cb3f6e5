/**
 * Decides a wave's gate policy from the spec as it was at the base commit (SPEC.md
 * §4.4), with the reason the log prints. Pure: the text at base and the spec
 * parser are given; reading git is `read_policy.ts`'s job.
 * @module
 */

// @ts-types="../../types/std/jsonc.d.ts"
import { parse as parseJsonc } from "@std/jsonc";
import { GATE_POLICIES, type GatePolicy } from "../spec/types.ts";

/** Where a policy came from: the wave at base, or a fallback because it had none. */
export type PolicySource = "base" | "absent-at-base";

/** A wave's policy as read at base, with the reason the log prints. */
export interface PolicyAtBase {
  /** The policy that decides whether an approval is needed. */
  policy: GatePolicy;
  /** `base` when the wave exists in the base spec; `absent-at-base` otherwise. */
  source: PolicySource;
  /** One line for the log: `read at <sha12>`, `the spec is not in <sha12>`, … */
  reason: string;
}

/**
 * The spec parser, injected: `parseSpec` in production. It throws on a spec that
 * is not valid JSONC or fails validation; the message's first line is the first
 * problem.
 */
export type ParseSpecFn = (
  text: string,
  file: string,
) => { waves: readonly { name: string; gate?: string }[] };

/** The inputs of {@linkcode policyAtBase}. */
export interface PolicyAtBaseInput {
  /** The spec file's text at base, or `undefined` when the file is absent there. */
  text: string | undefined;
  /** The spec file as the user named it (for parse messages). */
  file: string;
  /** The full spec parser (validates everything). */
  parse: ParseSpecFn;
  /** The wave to look up, by name. */
  waveName: string;
  /** The base commit's full sha. */
  base: string;
}

type Json = ReturnType<typeof parseJsonc>;

/**
 * Decides the policy of one wave from the spec text at base, per every row of the
 * SPEC.md §4.4 table. Whatever goes wrong at base, the answer is `always` (fail
 * closed); the working copy's `gate` is never consulted.
 *
 * A base spec that is valid JSONC but fails validation counts as "does not parse"
 * (the parser throws; its first problem is quoted): a broken base spec cannot
 * loosen a gate. Because the parser fills the default `gate`, whether the wave
 * sets `gate` at all is read from the raw JSONC (the compatibility wrapper
 * `{ "waves": {…spec…}, "options": … }` is unwrapped).
 * @param input The text at base, the parser, the wave's name and the base sha.
 * @returns The policy, its source and the reason line.
 * @example
 * ```ts
 * policyAtBase({ text: undefined, file: "w.jsonc", parse, waveName: "prod", base: sha });
 * // { policy: "always", source: "absent-at-base",
 * //   reason: "the spec is not in 0123456789ab" }
 * ```
 */
export function policyAtBase(input: PolicyAtBaseInput): PolicyAtBase {
  const sha12 = input.base.slice(0, 12);
  const fallback = (reason: string): PolicyAtBase => ({
    policy: "always",
    source: "absent-at-base",
    reason,
  });
  if (input.text === undefined) return fallback(`the spec is not in ${sha12}`);
  const unparsable = (problem: string) =>
    fallback(`the spec at ${sha12} does not parse: ${problem}`);

  let waves: readonly { name: string; gate?: string }[];
  let raw: Json;
  try {
    waves = input.parse(input.text, input.file).waves;
    raw = parseJsonc(input.text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return unparsable(firstLine(error));
  }
  const name = input.waveName;
  const parsed = waves.find((wave) => wave.name === name);
  if (parsed === undefined) {
    return fallback(`wave "${name}" is not in the spec at ${sha12}`);
  }
  const rawWave = findRawWave(raw, name);
  const gate = rawWave ? rawWave.gate : parsed.gate;
  if (gate === undefined) {
    return {
      policy: "always",
      source: "base",
      reason: `read at ${sha12}; wave "${name}" sets no gate`,
    };
  }
  if (!isGatePolicy(gate)) {
    const known = GATE_POLICIES.map((p) => `"${p}"`).join(", ");
    return unparsable(
      `wave "${name}": gate ${JSON.stringify(gate)} is not one of ${known}`,
    );
  }
  return { policy: gate, source: "base", reason: `read at ${sha12}` };
}

function isGatePolicy(value: unknown): value is GatePolicy {
  return (GATE_POLICIES as readonly unknown[]).includes(value);
}

function isObject(value: Json | undefined): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The raw wave object named `name`, unwrapping the compatibility wrapper. */
function findRawWave(
  raw: Json,
  name: string,
): { gate?: unknown } | undefined {
  if (!isObject(raw)) return undefined;
  const spec = isObject(raw.waves) ? raw.waves : raw;
  const waves = spec.waves;
  if (!Array.isArray(waves)) return undefined;
  for (const wave of waves) {
    if (isObject(wave) && wave.name === name) return wave;
  }
  return undefined;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] || "unknown error";
}
