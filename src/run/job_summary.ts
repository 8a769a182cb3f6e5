/**
 * The GitHub Actions job summary (SPEC.md §7): a Markdown table of the job's runs,
 * their plan digests and outcomes. Pure; the CLI appends it to
 * `$GITHUB_STEP_SUMMARY`.
 * @module
 */

import type { JobResult } from "./job_result.ts";

const OUTCOMES = ["applied", "failed", "moved", "untried"] as const;

/**
 * Renders a job's result as Markdown.
 * @param result The job's result.
 * @param waveName The wave's name.
 * @returns A heading, the gate status and a table of runs.
 * @example
 * ```ts
 * jobSummary({ exitCode: 0, wave: 1, job: { kind: "wave" }, applied: ["dev"], failed: [], moved: [], untried: [] }, "dev");
 * ```
 */
export function jobSummary(result: JobResult, waveName: string): string {
  const { decision, job } = result;
  const part = [
    job.group ? `group ${job.group}` : "",
    job.share ? `share ${job.share}` : "",
  ].filter(Boolean).join(", ");
  const lines = [
    `### chant-wave: wave ${result.wave} (${waveName})${
      part ? `, ${part}` : ""
    }: exit ${result.exitCode}`,
    "",
  ];
  if (decision) {
    const by = decision.approvedBy ? ` by ${decision.approvedBy}` : "";
    lines.push(
      `Gate \`${decision.gate}\`: **${decision.status}**${by}, policy \`${decision.policy}\`, set digest \`${decision.digest}\``,
    );
    if (decision.approve) lines.push("", "```", decision.approve, "```");
    lines.push("");
  }
  const outcome = new Map<string, string>();
  for (const kind of OUTCOMES) {
    for (const target of result[kind]) outcome.set(target, kind);
  }
  const members = decision?.members ?? [];
  const targets = [
    ...new Set([...members.map((m) => m.target), ...outcome.keys()]),
  ];
  if (targets.length === 0) return lines.join("\n") + "\n";
  lines.push(
    "| run | plan digest | summary | outcome |",
    "| --- | --- | --- | --- |",
  );
  for (const target of targets) {
    const member = members.find((m) => m.target === target);
    const cells = [
      target,
      member ? `\`${member.planDigest}\`` : "",
      member?.summary ?? "",
      outcome.get(target) ?? "decided",
    ];
    lines.push(
      `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`,
    );
  }
  return lines.join("\n") + "\n";
}
