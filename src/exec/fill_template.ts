/**
 * Fills the argv templates of SPEC.md §3.4 and builds a step's environment. Pure:
 * values in, argv and environment out. It never uses a shell and does not validate
 * the spec (unknown `{word}`s are rejected by the spec parser, not here).
 * @module
 */

/** The placeholders an argv template may use (SPEC.md §3.4). */
export const PLACEHOLDERS = [
  "op",
  "target",
  "wave",
  "k",
  "plan",
  "runs",
  "plans",
] as const;
/** A placeholder name, without braces. */
export type Placeholder = typeof PLACEHOLDERS[number];

/** The value of each placeholder a template uses; numbers are printed in base 10. */
export type TemplateValues = Partial<Record<Placeholder, string | number>>;

const PLACEHOLDER_PATTERN = new RegExp(
  `\\{(${PLACEHOLDERS.join("|")})\\}`,
  "g",
);

/**
 * Replaces every occurrence of every placeholder in every element of `template`.
 * Replacement is a single pass, so a value that itself contains `{target}` is
 * kept literally. Text in braces that is not a placeholder is kept as it is.
 * @param template The argv template, e.g. `["tofu", "plan", "-out={plan}"]`.
 * @param values The placeholder values.
 * @returns A new argv; the template is not modified.
 * @throws {Error} When the template uses a placeholder that `values` lacks (a bug:
 * the spec parser rejects templates that use placeholders their command cannot get).
 * @example
 * ```ts
 * fillTemplate(["deploy", "{target}", "--out={plan}"], { target: "eu", plan: "p.json" });
 * // ["deploy", "eu", "--out=p.json"]
 * ```
 */
export function fillTemplate(
  template: readonly string[],
  values: TemplateValues,
): string[] {
  return template.map((element) =>
    element.replace(PLACEHOLDER_PATTERN, (_match, name: Placeholder) => {
      const value = values[name];
      if (value === undefined) {
        throw new Error(
          `Cannot fill "{${name}}" in "${element}": no value was given`,
        );
      }
      return String(value);
    })
  );
}

/** The phases a step runs in; `hook` is for the hook commands of SPEC.md §11. */
export const STEP_PHASES = ["plan", "apply", "hook"] as const;
/** A step's phase, printed as `[<phase>]` by the step console. */
export type StepPhase = typeof STEP_PHASES[number];

/** What a step's environment says about the step (SPEC.md §3.4). */
export interface StepEnvValues {
  /** `CHANT_WAVE_NAME`: the wave's name (the value of `{wave}`). */
  name: string;
  /** `CHANT_WAVE_K`: the wave's 1-based number. */
  k: number;
  /** `CHANT_WAVE_PHASE`. */
  phase: StepPhase;
  /** `CHANT_WAVE_TARGET`; omitted for whole-wave commands. */
  target?: string;
  /** `CHANT_WAVE_OP`; omitted for whole-wave commands. */
  op?: string;
  /** `CHANT_WAVE_PLAN`: the plan file path; omitted for whole-wave commands. */
  plan?: string;
}

/** The variables {@linkcode stepEnv} sets; inherited values of these are never passed on. */
export const STEP_ENV_NAMES = [
  "CHANT_WAVE_NAME",
  "CHANT_WAVE_K",
  "CHANT_WAVE_PHASE",
  "CHANT_WAVE_TARGET",
  "CHANT_WAVE_OP",
  "CHANT_WAVE_PLAN",
] as const;

/**
 * Builds a step's environment: the parent's variables plus the `CHANT_WAVE_*`
 * variables of SPEC.md §3.4. Inherited values of those six names are dropped
 * first, so a whole-wave command never sees a stale `CHANT_WAVE_TARGET`. Parent
 * entries whose value is `undefined` are dropped too.
 * @param parent The parent environment (at the edge: `process.env`).
 * @param step What the step is.
 * @returns A new environment object.
 * @example
 * ```ts
 * stepEnv({ HOME: "/h" }, { name: "prod", k: 2, phase: "plan", target: "eu", op: "x", plan: "p" });
 * // { HOME: "/h", CHANT_WAVE_NAME: "prod", CHANT_WAVE_K: "2", CHANT_WAVE_PHASE: "plan",
 * //   CHANT_WAVE_TARGET: "eu", CHANT_WAVE_OP: "x", CHANT_WAVE_PLAN: "p" }
 * ```
 */
export function stepEnv(
  parent: Readonly<Record<string, string | undefined>>,
  step: StepEnvValues,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value !== undefined) env[key] = value;
  }
  for (const name of STEP_ENV_NAMES) delete env[name];
  env.CHANT_WAVE_NAME = step.name;
  env.CHANT_WAVE_K = String(step.k);
  env.CHANT_WAVE_PHASE = step.phase;
  if (step.target !== undefined) env.CHANT_WAVE_TARGET = step.target;
  if (step.op !== undefined) env.CHANT_WAVE_OP = step.op;
  if (step.plan !== undefined) env.CHANT_WAVE_PLAN = step.plan;
  return env;
}
