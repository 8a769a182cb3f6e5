/**
 * The GitHub Actions job summary of a `drift` run (SPEC.md §19): a heading with
 * the revision and the exit code, then per drifted wave its gate's status and
 * a table of its drifted runs (target, plan, why), and the waves that did not
 * plan. Every text from a user, a plan or a record is escaped for Markdown.
 * Pure; the CLI appends it to `$GITHUB_STEP_SUMMARY`.
 * @module
 */

import type { DriftResult } from "../jobs/drift_result.ts";
import { driftReason } from "../plan/drift_report.ts";
import { codeBlock, markdownText } from "./markdown_text.ts";

/**
 * Renders a drift run's findings as Markdown.
 * @param result What `drift` found.
 * @returns The section, ending with a blank line.
 * @example
 * ```ts
 * driftSummary({ exitCode: 0, name: "tf", revision, recorded: false, waves: [], failed: [] });
 * // "### chant-wave drift: tf at 1a2b3c4d5e6f: exit 0\n\nNo drift: …"
 * ```
 */
export function driftSummary(result: DriftResult): string {
  const lines = [
    `### chant-wave drift: ${markdownText(result.name)} at \`${
      result.revision.slice(0, 12)
    }\`: exit ${result.exitCode}`,
    "",
  ];
  const drifted = result.waves.filter((wave) => wave.drifted.length > 0);
  if (drifted.length === 0 && result.failed.length === 0) {
    lines.push(
      `No drift: every run of ${result.waves.length} waves plans no changes.`,
      "",
    );
  }
  for (const wave of drifted) {
    lines.push(
      `Wave ${wave.k} (${
        markdownText(wave.name)
      }): ${wave.drifted.length} of ${wave.runs} runs drifted; gate \`${wave.gate}\` **${wave.status}**, set digest \`${wave.digest}\``,
      "",
    );
    if (result.recorded && wave.status === "waiting" && wave.approve) {
      lines.push(
        "Its plans are recorded as a pending fact; approve them, then run the wave:",
        "",
        ...codeBlock(wave.approve),
        "",
      );
    }
    lines.push("| target | plan | why |", "|---|---|---|");
    for (const run of wave.drifted) {
      const plan = (run.summary ?? (run.changes ? "changes" : "no changes")) +
        (run.destructive ? " (destructive)" : "");
      lines.push(
        `| ${markdownText(run.target)} | ${markdownText(plan)} | ${
          markdownText(driftReason(run))
        } |`,
      );
    }
    lines.push("");
  }
  for (const wave of result.failed) {
    lines.push(
      `Wave ${wave.wave} (${
        markdownText(wave.name)
      }) did not plan; its drift is unknown. See the job's log.`,
      "",
    );
  }
  // A blank line ends the section, so what follows it is never a row of its table.
  return lines.join("\n") + "\n";
}
