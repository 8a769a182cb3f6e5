/**
 * How sqitch runs, as the spec at the base commits says (SPEC.md §17): the
 * sqitch program, the database client the deploy runs, and whether verify
 * scripts run. A change cannot choose them: each comes from the spec's `tool`
 * at base, and when the bases do not all say the same (or a base has no sqitch
 * tool, no spec, or a broken one) the default wins (`sqitch`, `psql` on PATH,
 * no verify). Pure: the specs at base are given.
 * @module
 */

import type { BaseSpec } from "../gate/base_spec.ts";

/** How sqitch runs. */
export interface SqitchSettings {
  /** The sqitch program. */
  program: string;
  /** The database client the deploy runs: a program name (on PATH) or an absolute path. */
  client: string;
  /** Whether each change's verify script runs after it. */
  verify: boolean;
}

/** How sqitch runs when no base says otherwise. */
export const DEFAULT_SQITCH: SqitchSettings = {
  program: "sqitch",
  client: "psql",
  verify: false,
};

/** The settings read at base, and why. */
export interface SqitchAtBase extends SqitchSettings {
  /** One phrase for the log: `read at <sha12>`, `the spec is not in <sha12>`, … joined with `; and `. */
  reason: string;
}

/** What one base says. */
function atOneBase(
  base: { sha: string; spec: BaseSpec },
): { settings: SqitchSettings; reason: string } {
  const sha12 = base.sha.slice(0, 12);
  const spec = base.spec;
  if (spec.status === "absent") {
    return { settings: DEFAULT_SQITCH, reason: `the spec is not in ${sha12}` };
  }
  if (spec.status === "unparsable") {
    return {
      settings: DEFAULT_SQITCH,
      reason: `the spec at ${sha12} does not parse: ${spec.problem}`,
    };
  }
  const command = spec.spec.plan;
  if (command.kind !== "tool" || command.tool.kind !== "sqitch") {
    return {
      settings: DEFAULT_SQITCH,
      reason: `the spec at ${sha12} has no sqitch tool`,
    };
  }
  const { binary, client, verify } = command.tool;
  return {
    settings: { program: binary, client, verify },
    reason: `read at ${sha12}`,
  };
}

/**
 * Reads how sqitch runs at each base: a setting every base agrees on, else
 * its default.
 * @param bases The commits and the spec at each, at least one.
 * @returns The settings and the reasons.
 * @example
 * ```ts
 * sqitchAtBase([{ sha, spec: { status: "absent" } }]);
 * // { program: "sqitch", client: "psql", verify: false, reason: "the spec is not in 0123456789ab" }
 * ```
 */
export function sqitchAtBase(
  bases: readonly { sha: string; spec: BaseSpec }[],
): SqitchAtBase {
  const reads = bases.map(atOneBase);
  const agreed = <K extends keyof SqitchSettings>(
    key: K,
  ): SqitchSettings[K] => {
    const values = new Set(reads.map((read) => read.settings[key]));
    return values.size === 1 ? [...values][0] : DEFAULT_SQITCH[key];
  };
  return {
    program: agreed("program"),
    client: agreed("client"),
    verify: agreed("verify"),
    reason: reads.map((read) => read.reason).join("; and "),
  };
}
