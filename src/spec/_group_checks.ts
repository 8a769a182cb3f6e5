/**
 * Checks of a wave's job groups (SPEC.md §3.3): unique, unreserved names; every
 * run in exactly one group; a group's shares within its runs. Runs on the raw
 * spec, skipping values the schema already refuses.
 *
 * A group that matches no run is allowed (its job applies nothing and exits 0,
 * §4.7; with `discover` the runs are not known yet), but then only with 1 share:
 * a group's `shares` must not exceed the larger of 1 and its matching runs. With
 * `discover` the shares of groups are not checked against the listed runs.
 * @module
 */

import { quote } from "../quote.ts";
import { compilePattern } from "./group_pattern.ts";
import { asRecord, type Collector } from "./_problems.ts";
import type { Path } from "./_locate.ts";

/** A run's target and where it sits, as the wave checks found it. */
export interface TargetAt {
  target: string;
  /** Where to point: the run, or its `target` value. */
  path: Path;
  /** The run, for `where`. */
  run: Path;
}

interface Group {
  label: string;
  patterns: RegExp[];
  matched: number;
}

const SHARE_JOB_NAME = /^share-\d+$/;

function checkGroupName(
  collector: Collector,
  at: Path,
  name: unknown,
  seen: Set<string>,
): void {
  if (typeof name !== "string") return;
  const where = { where: at };
  const quoted = quote(name);
  if (seen.has(name)) {
    collector.add([...at, "name"], `group name ${quoted} appears twice`, where);
  } else if (name === "decide") {
    collector.add(
      [...at, "name"],
      `group name ${quoted} is taken by the deciding job`,
      where,
    );
  } else if (SHARE_JOB_NAME.test(name)) {
    collector.add(
      [...at, "name"],
      `group name ${quoted} looks like a share job's name`,
      where,
    );
  }
  seen.add(name);
}

function readGroups(
  collector: Collector,
  wavePath: Path,
  jobs: unknown[],
): Group[] {
  const seen = new Set<string>();
  return jobs.map((raw, j) => {
    const group = asRecord(raw) ?? {};
    checkGroupName(collector, [...wavePath, "jobs", j], group.name, seen);
    const patterns = Array.isArray(group.runs) ? group.runs : [];
    return {
      label: typeof group.name === "string" ? quote(group.name) : `jobs[${j}]`,
      patterns: patterns.filter((p): p is string => typeof p === "string")
        .map(compilePattern),
      matched: 0,
    };
  });
}

function listLabels(labels: readonly string[]): string {
  return labels.length > 1
    ? `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`
    : labels.join("");
}

/**
 * Adds the problems of a wave's `jobs`.
 * @param collector Receives the problems.
 * @param wavePath `["waves", i]`.
 * @param jobs The wave's raw `jobs` array.
 * @param targets The wave's targets (string ones only).
 * @param discover Whether the wave discovers its runs.
 */
export function checkGroups(
  collector: Collector,
  wavePath: Path,
  jobs: unknown[],
  targets: readonly TargetAt[],
  discover: boolean,
): void {
  const groups = readGroups(collector, wavePath, jobs);
  for (const { target, path, run } of targets) {
    const matching = groups.filter((group) =>
      group.patterns.some((pattern) => pattern.test(target))
    );
    for (const group of matching) group.matched++;
    const quoted = quote(target);
    if (matching.length === 0) {
      collector.add(path, `target ${quoted} matches no group of "jobs"`, {
        where: run,
      });
    } else if (matching.length > 1) {
      const labels = listLabels(matching.map((group) => group.label));
      collector.add(
        path,
        `target ${quoted} matches more than one group: ${labels}`,
        {
          where: run,
        },
      );
    }
  }
  if (discover) return;
  groups.forEach((group, j) => {
    const shares = asRecord(jobs[j])?.shares;
    if (
      Number.isInteger(shares) &&
      (shares as number) > Math.max(1, group.matched)
    ) {
      collector.add(
        [...wavePath, "jobs", j, "shares"],
        `more shares (${shares}) than matching runs (${group.matched})`,
      );
    }
  });
}
