/**
 * The page of the repository's `docs/` that tells the rest of a help topic or a
 * command, so `chant-wave help <word>` can end with `more: docs/<page>` (a path
 * any clone has). Pure text; which pages exist and that their anchors resolve
 * is checked by the tests, not here.
 * @module
 */

import type { HelpTopic } from "./help_topics.ts";

/** The docs page of each help topic. */
const TOPIC_PAGES: Record<HelpTopic, string> = {
  "exit-codes": "docs/commands.md#exit-codes",
  spec: "docs/spec.md",
  base: "docs/how-a-wave-runs.md#1-the-base",
  approvals: "docs/approvals.md",
  environment: "docs/commands.md#environment",
};

/** The docs page of each command, by name. */
const COMMAND_PAGES: Readonly<Record<string, string>> = {
  run: "docs/how-a-wave-runs.md",
  approve: "docs/approvals.md",
  show: "docs/approvals.md#approve-from-a-laptop",
  revoke: "docs/approvals.md#approve-from-a-laptop",
  resume: "docs/pipelines.md#resume-restart-the-jobs-that-waited",
  status: "docs/commands.md#status",
  drift: "docs/drift.md",
  check: "docs/spec.md#validation",
  jobs: "docs/spec.md#job-groups",
  pipeline: "docs/pipelines.md",
  "plan-file": "docs/opentofu-terraform.md#plan-file",
  schema: "docs/spec.md#in-an-editor",
  ledger: "docs/ledger.md",
  completion: "docs/commands.md#completion",
  help: "docs/commands.md#help",
};

/**
 * The docs page of a help topic.
 * @param topic The topic.
 * @returns A path from the repository's top level, with an anchor where the
 *   topic is one section of a page.
 * @example
 * ```ts
 * topicPage("approvals"); // "docs/approvals.md"
 * ```
 */
export function topicPage(topic: HelpTopic): string {
  return TOPIC_PAGES[topic];
}

/**
 * The docs page of a command.
 * @param name The command's name.
 * @returns A path from the repository's top level, or `undefined` for a name
 *   that is no command of chant-wave.
 * @example
 * ```ts
 * commandPage("pipeline"); // "docs/pipelines.md"
 * ```
 */
export function commandPage(name: string): string | undefined {
  return Object.hasOwn(COMMAND_PAGES, name) ? COMMAND_PAGES[name] : undefined;
}

/**
 * The line a help text ends its own part with to point at a page.
 * @param page A path from {@linkcode topicPage} or {@linkcode commandPage}.
 * @returns `more: <page>`.
 * @example
 * ```ts
 * moreLine("docs/spec.md"); // "more: docs/spec.md"
 * ```
 */
export function moreLine(page: string): string {
  return `more: ${page}`;
}
