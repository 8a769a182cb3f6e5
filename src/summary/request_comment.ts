/**
 * The plan comment on a pull or merge request, and the words of its commit
 * statuses (SPEC.md §18): per wave, the gate it will meet (read at the
 * request's base), how many runs change, the changes grouped by action
 * (deletes and replaces first) and then per target, the way approvers read
 * plans elsewhere (`plan_groups.ts`, `plan_changes.ts`). Bounded: the text
 * never passes {@linkcode MAX_COMMENT_CHARS}, what is left out is counted
 * (`… and 312 more changes in 40 runs`). Every text from a spec, a plan or a
 * target is escaped for Markdown (§14), so it can add no heading, link, table
 * or HTML of its own. Information only: nothing here approves anything.
 * Pure; `run --pull-request` posts it.
 * @module
 */

import type { GateOutlook } from "../gate/gate_outlook.ts";
import type { PlanChange } from "../plan/plan_file.ts";
import { changeSymbol } from "../plan/plan_changes.ts";
import { driftNote, groupLabel, groupPlans } from "../plan/plan_groups.ts";
import { countOf } from "../count_of.ts";
import { markdownText } from "./markdown_text.ts";

/**
 * The most characters the comment has: below GitHub's limit of 65,536 for a
 * comment's body (GitLab's and Forgejo's are larger), with room to spare.
 */
export const MAX_COMMENT_CHARS = 60_000;

/** One run's plan as the comment shows it. */
export interface RequestRun {
  target: string;
  planDigest: string;
  destructive: boolean;
  empty: boolean;
  summary?: string;
  /** What it changes, when the plan lists it. */
  changes?: PlanChange[];
}

/** One wave of the request: its gate and its runs' plans. */
export interface RequestWave {
  /** The wave's number. */
  k: number;
  /** The wave's name. */
  name: string;
  /** The gate it will meet; absent when a run failed to plan. */
  gate?: GateOutlook;
  /** Its planned runs. */
  runs: RequestRun[];
  /** The targets that failed to plan. */
  failed: string[];
}

/** The plan of every wave at a request's head. */
export interface RequestPlan {
  /** The spec's `name`. */
  name: string;
  /** The head commit planned (full sha). */
  head: string;
  /** The waves, in order. */
  waves: RequestWave[];
}

/**
 * The hidden line that marks the plan comment of one spec: the job edits only a
 * comment that holds it and that its own token's user wrote.
 * @param name The spec's `name`.
 * @returns `<!-- chant-wave plan: <name> -->`.
 * @example
 * ```ts
 * commentMarker("tf"); // "<!-- chant-wave plan: tf -->"
 * ```
 */
export function commentMarker(name: string): string {
  return `<!-- chant-wave plan: ${name} -->`;
}

/** Deletes and replaces first, then the rest of §13.1's words, then the tool's own. */
const ACTION_ORDER = [
  "delete",
  "replace",
  "revert",
  "create",
  "deploy",
  "update",
  "read",
];

function actionRank(action: string): number {
  const at = ACTION_ORDER.indexOf(action);
  return at === -1 ? ACTION_ORDER.length : at;
}

/** How many of a wave's runs change something. */
function changing(wave: RequestWave): RequestRun[] {
  return wave.runs.filter((run) => !run.empty);
}

/**
 * What a wave's commit status says: how much changes and what the gate does
 * with it. Never "approved": an approval is a person's, after the merge.
 * @param wave The wave.
 * @returns `3 to change, waits for 2 approvals`, `1 to change, applies
 *   without approval`, `no changes`, or `2 runs failed to plan`.
 * @example
 * ```ts
 * statusDescription({ k: 1, name: "dev", runs: [], failed: [] }); // "no changes"
 * ```
 */
export function statusDescription(wave: RequestWave): string {
  if (wave.failed.length > 0) {
    return `${countOf(wave.failed.length, "run")} failed to plan`;
  }
  const n = changing(wave).length;
  if (n === 0) return "no changes";
  return `${n} to change, ${gateWords(wave.gate)}`;
}

function gateWords(gate: GateOutlook | undefined): string {
  if (gate === undefined || !gate.needed) return "applies without approval";
  return `waits for ${countOf(gate.required, "approval")}`;
}

/**
 * The comment: the marker, a heading, a line saying it approves nothing, and
 * a section per wave. Waves come first, then their changes, so a plan too
 * large for the limit still shows every wave it can, then counts the rest.
 * @param plan The plan of every wave at the head.
 * @param max The most characters. @default {MAX_COMMENT_CHARS}
 * @returns The Markdown text.
 * @example
 * ```ts
 * requestComment({ name: "tf", head, waves: [] }).startsWith("<!-- chant-wave plan: tf -->"); // true
 * ```
 */
export function requestComment(
  plan: RequestPlan,
  max: number = MAX_COMMENT_CHARS,
): string {
  const changes = plan.waves.reduce(
    (n, wave) => n + changing(wave).length,
    0,
  );
  const head = [
    commentMarker(plan.name),
    `### chant-wave plan of ${markdownText(plan.name)} at \`${
      plan.head.slice(0, 12)
    }\``,
    "",
    changes === 0 && plan.waves.every((w) => w.failed.length === 0)
      ? "No wave changes anything at this commit."
      : "Gates are read at the request's base. This comment is information: it approves nothing.",
    "",
  ];
  const out = new Bounded(head, max);
  for (const [i, wave] of plan.waves.entries()) {
    if (!out.add(waveLines(wave))) {
      out.cut(plan.waves.slice(i));
      break;
    }
  }
  return out.text();
}

/** One entry of a wave's text: its lines, and the runs whose change it names. */
interface Entry {
  lines: string[];
  /** The targets of the plan group whose one change it names (none for other lines). */
  targets: string[];
}

/** An entry of lines that name no change. */
function said(...lines: string[]): Entry {
  return { lines, targets: [] };
}

function waveLines(wave: RequestWave): Entry[] {
  const moving = changing(wave);
  const title = `#### Wave ${wave.k} (${markdownText(wave.name)}): ${
    wave.failed.length > 0
      ? `${countOf(wave.failed.length, "run")} failed to plan`
      : `${moving.length} of ${countOf(wave.runs.length, "run")} ${
        moving.length === 1 ? "changes" : "change"
      }${moving.length === 0 ? "" : `, ${gateWords(wave.gate)}`}`
  }`;
  const entries: Entry[] = [said(title, "", ...gateLine(wave), "")];
  if (wave.failed.length > 0) {
    entries.push(
      said(`Failed to plan: ${wave.failed.map(markdownText).join(", ")}`, ""),
    );
  }
  const groups = groupPlans(moving);
  const byAction = new Map<string, Entry[]>();
  for (const group of groups) {
    const label = markdownText(groupLabel(group));
    for (const change of group.plan.changes ?? []) {
      const list = byAction.get(change.action) ?? [];
      list.push({
        lines: [`- ${markdownText(change.address)}: ${label}`],
        targets: group.targets,
      });
      byAction.set(change.action, list);
    }
  }
  const actions = [...byAction.keys()].sort((a, b) =>
    actionRank(a) - actionRank(b) || (a < b ? -1 : a > b ? 1 : 0)
  );
  for (const action of actions) {
    const list = byAction.get(action)!;
    entries.push(said(`**${markdownText(action)}**${symbolOf(action)}`, ""));
    entries.push(
      ...list.map((e, i) =>
        i === list.length - 1 ? { ...e, lines: [...e.lines, ""] } : e
      ),
    );
  }
  if (groups.length > 0) {
    entries.push(said("Per target:", ""));
    for (const [i, group] of groups.entries()) {
      const plan = group.plan;
      entries.push(said(
        `- ${markdownText(groupLabel(group))}: ${
          markdownText(plan.summary ?? "changes")
        }${plan.destructive ? " (destructive)" : ""}${
          markdownText(driftNote(group))
        }`,
        ...(i === groups.length - 1 ? [""] : []),
      ));
    }
  }
  const quiet = wave.runs.length - moving.length;
  if (quiet > 0 && moving.length > 0) {
    entries.push(said(`${countOf(quiet, "run")} plan no changes.`, ""));
  }
  return entries;
}

/** The symbol `plan_changes.ts` gives an action, after its heading (`**delete** (-)`). */
function symbolOf(action: string): string {
  const symbol = changeSymbol(action);
  return symbol === undefined ? "" : ` (${markdownText(symbol)})`;
}

function gateLine(wave: RequestWave): string[] {
  const gate = wave.gate;
  if (gate === undefined) return [];
  return [
    `Gate at base: **${gate.policy}**, ${markdownText(gate.approvers)}; rule: ${
      markdownText(gate.rule)
    }`,
    ...(gate.timing
      ? ["", `Timing at base: ${markdownText(gate.timing)}`]
      : []),
  ];
}

/** Lines added while they fit, then one line counting what did not. */
class Bounded {
  /** Room kept for the closing count. */
  static readonly RESERVE = 300;
  #lines: string[];
  #size: number;
  #max: number;
  /** The entries of the wave that did not fit, from the first left out. */
  #left: Entry[] = [];

  constructor(head: string[], max: number) {
    this.#lines = [...head];
    this.#size = head.reduce((n, line) => n + line.length + 1, 0);
    this.#max = max;
  }

  /** Adds a wave's entries while they fit; `false` once one did not. */
  add(entries: Entry[]): boolean {
    for (const [i, entry] of entries.entries()) {
      const size = entry.lines.reduce((n, line) => n + line.length + 1, 0);
      if (this.#size + size > this.#max - Bounded.RESERVE) {
        this.#left = entries.slice(i);
        return false;
      }
      this.#lines.push(...entry.lines);
      this.#size += size;
    }
    return true;
  }

  /**
   * Counts what was left out: the changes (one per run it is planned in) of
   * the wave cut short, and of every wave after it.
   */
  cut(waves: RequestWave[]): void {
    const runs = new Set<string>();
    let changes = 0;
    for (const entry of this.#left) {
      changes += entry.targets.length;
      for (const target of entry.targets) runs.add(`${waves[0].k} ${target}`);
    }
    for (const wave of waves.slice(1)) {
      for (const run of changing(wave)) {
        changes += run.changes?.length ?? 0;
        runs.add(`${wave.k} ${run.target}`);
      }
    }
    const more = waves.length > 1
      ? `; ${countOf(waves.length - 1, "more wave")} not shown`
      : "";
    this.#lines.push(
      "",
      `… and ${changes} more change${changes === 1 ? "" : "s"} in ${
        countOf(runs.size, "run")
      }${more} (the comment is cut at ${this.#max} characters; the job's log has every plan)`,
    );
  }

  /** The text, with one final newline. */
  text(): string {
    return this.#lines.join("\n").trimEnd() + "\n";
  }
}
