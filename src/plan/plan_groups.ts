/**
 * The plans of a wave as an approver reads them (SPEC.md §17): runs with one
 * identical plan go together (`18 runs (eu-01, eu-02, eu-03 and 15 more): 2
 * changes to deploy`), and when most of the wave shares one plan, a run whose
 * plan differs from it is named as drifted (a tenant someone changed by hand
 * plans `no changes` among its siblings). Pure; the log, `show` and the job
 * summary print the groups, each escaping for its own output.
 * @module
 */

/** What a plan shows: the pair, its flags and summary (a decision member, a plan set member). */
export interface ShownPlan {
  target: string;
  planDigest: string;
  destructive?: boolean;
  empty?: boolean;
  summary?: string;
}

/** Runs with one identical plan. */
export interface PlanGroup<P extends ShownPlan> {
  /** Their targets, in the members' order. */
  targets: string[];
  /** The plan, as its first run has it. */
  plan: P;
  /**
   * Whether it differs from the plan most of the wave shares, and how many
   * runs share that one.
   */
  drifted?: { from: number };
}

/**
 * Groups a wave's plans: by digest, flags and summary; the group most of the
 * wave shares first (when one holds more than half of three runs or more, and
 * then every other group is drifted from it), the rest in the members' order.
 * @param members The wave's plans, in order (sorted by target).
 * @returns The groups.
 * @example
 * ```ts
 * groupPlans([a1, a2, b1]).map((g) => g.targets); // [["a1", "a2"], ["b1"]], b1 drifted
 * ```
 */
export function groupPlans<P extends ShownPlan>(
  members: readonly P[],
): PlanGroup<P>[] {
  const byKey = new Map<string, PlanGroup<P>>();
  for (const member of members) {
    const key = JSON.stringify([
      member.planDigest,
      member.destructive === true,
      member.empty === true,
      member.summary ?? "",
    ]);
    const group = byKey.get(key);
    if (group) group.targets.push(member.target);
    else byKey.set(key, { targets: [member.target], plan: member });
  }
  const groups = [...byKey.values()];
  const largest = groups.reduce<PlanGroup<P> | undefined>(
    (best, g) => best && best.targets.length >= g.targets.length ? best : g,
    undefined,
  );
  if (
    largest === undefined || members.length < 3 ||
    largest.targets.length * 2 <= members.length
  ) return groups;
  const from = largest.targets.length;
  return [
    largest,
    ...groups.filter((g) => g !== largest).map((g) => ({
      ...g,
      drifted: { from },
    })),
  ];
}

/** How many targets a group's label names before it counts the rest. */
const NAMED_TARGETS = 3;

/**
 * How a group is named: its one target, or how many runs and the first few.
 * @param group The group.
 * @returns `eu-01`, or `18 runs (eu-01, eu-02, eu-03 and 15 more)`.
 * @example
 * ```ts
 * groupLabel({ targets: ["a", "b"], plan }); // "2 runs (a, b)"
 * ```
 */
export function groupLabel(
  group: Pick<PlanGroup<ShownPlan>, "targets">,
): string {
  const { targets } = group;
  if (targets.length === 1) return targets[0];
  const named = targets.slice(0, NAMED_TARGETS).join(", ");
  const more = targets.length - NAMED_TARGETS;
  return `${targets.length} runs (${named}${
    more > 0 ? ` and ${more} more` : ""
  })`;
}

/**
 * What a drifted group's line adds.
 * @param group The group.
 * @returns `; drifted: its plan differs from the other 18 runs of the wave`,
 *   or nothing for a group that is not drifted.
 * @example
 * ```ts
 * driftNote({ targets: ["eu-07"], plan, drifted: { from: 18 } });
 * // "; drifted: its plan differs from the other 18 runs of the wave"
 * ```
 */
export function driftNote(
  group: Pick<PlanGroup<ShownPlan>, "drifted" | "targets">,
): string {
  if (group.drifted === undefined) return "";
  const whose = group.targets.length === 1
    ? "its plan differs"
    : "their plan differs";
  return `; drifted: ${whose} from the other ${group.drifted.from} runs of the wave`;
}
