/**
 * The GitHub Actions job summary (SPEC.md §7, §13.1, §14): a Markdown section
 * per job with the gate, a waiting job's approval rules, tally and approve
 * command, what the decided plans change per target, and
 * a table of the job's own runs (a share's slice, not the whole wave) with
 * their real outcome. Every text from a user, a plan or a record is escaped
 * for Markdown, so none can add a heading, a row, a link or HTML of its own.
 * Pure; the CLI appends it to `$GITHUB_STEP_SUMMARY`.
 * @module
 */

import { WAITING } from "../exit_codes.ts";
import type { JobResult } from "../jobs/job_result.ts";
import { codeBlock, markdownText } from "./markdown_text.ts";
import { describeChange, statementLines } from "../plan/plan_changes.ts";
import { driftNote, groupLabel, groupPlans } from "../plan/plan_groups.ts";
import type { ApproveClick } from "./approve_link.ts";

/**
 * Renders a job's result as Markdown.
 * @param result The job's result.
 * @param waveName The wave's name.
 * @param click How to approve from the forge, when the job runs in CI.
 * @returns A heading, the gate, what a waiting job waits for and how to
 *   approve it, what the plans change, and the runs.
 * @example
 * ```ts
 * jobSummary({ exitCode: 0, wave: 1, job: { kind: "wave" }, applied: ["dev"], failed: [], moved: [], untried: [], skipped: [] }, "dev");
 * ```
 */
export function jobSummary(
  result: JobResult,
  waveName: string,
  click?: ApproveClick,
): string {
  const { job } = result;
  const part = [
    job.group ? `group ${markdownText(job.group)}` : "",
    job.share ? `share ${job.share}` : "",
  ].filter(Boolean).join(", ");
  const lines = [
    `### chant-wave: wave ${result.wave} (${markdownText(waveName)})${
      part ? `, ${part}` : ""
    }: exit ${result.exitCode}`,
    "",
    ...(result.waitsFor ?? []).flatMap((line) => [
      `Waits: ${markdownText(line)}`,
      "",
    ]),
    ...gateLines(result, click),
    ...changeLines(result),
    ...runLines(result),
  ];
  // A blank line ends the section, so what follows it is never a row of its table.
  return lines.join("\n") + "\n\n";
}

/** The gate's status, and a waiting job's rules, tally and approve command. */
function gateLines(result: JobResult, click?: ApproveClick): string[] {
  const { decision, waiting } = result;
  if (!decision) return [];
  const by = decision.approvedBy
    ? ` by ${markdownText(decision.approvedBy)}`
    : "";
  const lines = [
    `Gate \`${decision.gate}\`: **${decision.status}**${by}, policy \`${decision.policy}\`, set digest \`${decision.digest}\``,
    "",
  ];
  if (decision.rules?.length) {
    lines.push(
      "Decided by the rules at base:",
      "",
      ...decision.rules.map((rule) => `- ${markdownText(rule)}`),
      "",
    );
  }
  if (result.exitCode !== WAITING || !waiting) return lines;
  lines.push(`Approval rules at base: ${markdownText(waiting.rules)}`, "");
  if (waiting.tally) {
    lines.push(`Approvals so far: ${markdownText(waiting.tally)}`, "");
  }
  if (waiting.approve) lines.push(...codeBlock(waiting.approve), "");
  if (click && decision.status === "waiting") {
    lines.push(clickLine(click, result.wave, decision.digest), "");
  }
  return lines;
}

/** Which workflow to run with which inputs, or which manual job to play. */
function clickLine(click: ApproveClick, wave: number, digest: string): string {
  if (click.forge === "gitlab") {
    return `Approve from GitLab: play the manual job ${
      markdownText(click.job)
    } of this pipeline.`;
  }
  const name = click.url
    ? `[${markdownText(click.workflow)}](${click.url})`
    : markdownText(click.workflow);
  return `Approve from the forge: run the workflow ${name} with wave \`${wave}\` and digest \`${digest}\`.`;
}

/** How many plans, and changes of each, the summary names. */
const SUMMARY_PLANS = 50;
const SUMMARY_CHANGES = 20;

/**
 * What the decided plans change, for the job's own runs (SPEC.md §13.1,
 * §17): one list item per plan, the runs with one identical plan together
 * (and a drifted one named), with the statements that make it destructive
 * below it, every text escaped; none when no plan lists its changes.
 */
function changeLines(result: JobResult): string[] {
  const mine = result.runs ? new Set(result.runs) : undefined;
  const groups = groupPlans(
    (result.decision?.members ?? []).filter((m) =>
      mine === undefined || mine.has(m.target)
    ),
  ).filter((group) => (group.plan.changes?.length ?? 0) > 0);
  if (groups.length === 0) return [];
  const lines = ["What will change:", ""];
  for (const group of groups.slice(0, SUMMARY_PLANS)) {
    const { plan } = group;
    const changes = plan.changes ?? [];
    const named = changes.slice(0, SUMMARY_CHANGES).map((change) =>
      markdownText(describeChange(change))
    );
    const more = changes.length - named.length + (plan.moreChanges ?? 0);
    if (more > 0) named.push(`and ${more} more`);
    lines.push(
      `- ${markdownText(groupLabel(group))}: ${named.join(", ")}${
        markdownText(driftNote(group))
      }`,
    );
    for (const quoted of statementLines(plan)) {
      lines.push(`  - ${markdownText(quoted)}`);
    }
  }
  if (groups.length > SUMMARY_PLANS) {
    lines.push(`- and ${groups.length - SUMMARY_PLANS} more plans`);
  }
  return [...lines, ""];
}

/** The table of the job's own runs, each with its outcome. */
function runLines(result: JobResult): string[] {
  const members = new Map(
    (result.decision?.members ?? []).map((m) => [m.target, m]),
  );
  const targets = result.runs ??
    [
      ...new Set([
        ...members.keys(),
        ...result.applied,
        ...result.failed,
        ...result.moved,
        ...result.untried,
      ]),
    ];
  if (targets.length === 0) return [];
  const outcome = outcomeOf(result);
  const lines = [
    "| run | plan digest | summary | outcome |",
    "| --- | --- | --- | --- |",
  ];
  for (const target of targets) {
    const member = members.get(target);
    const cells = [
      markdownText(target),
      member ? `\`${member.planDigest}\`` : "",
      member?.summary === undefined ? "" : markdownText(member.summary),
      markdownText(outcome(target)),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines;
}

/**
 * What became of each run: applied, already applied, no changes, refused (its
 * plan moved), failed with its error line, untried; a waiting job's runs wait,
 * a deciding job's are decided.
 */
function outcomeOf(result: JobResult): (target: string) => string {
  const applied = new Set(result.applied);
  const moved = new Set(result.moved);
  const failed = new Set(result.failed);
  const untried = new Set(result.untried);
  const skipped = new Map(result.skipped.map((s) => [s.target, s.reason]));
  const errors = new Map(
    (result.failures ?? []).map((f) => [f.target, f.message]),
  );
  const rest = result.exitCode === WAITING
    ? "waiting"
    : result.job.kind === "decide" && result.exitCode === 0
    ? "decided"
    : "untried";
  return (target) => {
    if (applied.has(target)) return "applied";
    const reason = skipped.get(target);
    if (reason !== undefined) return reason;
    if (moved.has(target)) return "refused: plan moved";
    if (failed.has(target)) {
      const error = errors.get(target);
      return error === undefined ? "failed" : `failed: ${error}`;
    }
    if (untried.has(target)) return "untried";
    return rest;
  };
}
