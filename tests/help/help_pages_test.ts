// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { COMMANDS } from "../../src/cli/main.ts";
import { commandPage, moreLine, topicPage } from "../../src/help/help_pages.ts";
import { HELP_TOPICS } from "../../src/help/help_topics.ts";
import { headingAnchors, ROOT } from "../_helpers/markdown.ts";

/** Why a `docs/…[#anchor]` path does not resolve, or undefined. */
async function unresolved(page: string): Promise<string | undefined> {
  const [path, anchor] = page.split("#");
  if (!/^docs\/[a-z-]+\.md$/.test(path)) return `${page}: not a docs page`;
  const text = await Deno.readTextFile(ROOT + path).catch(() => undefined);
  if (text === undefined) return `${page}: no such file`;
  if (anchor !== undefined && !headingAnchors(text).has(anchor)) {
    return `${page}: no heading with that anchor`;
  }
}

Deno.test("topicPage() names a docs page that exists for every topic, anchors included", async () => {
  const problems = [];
  for (const topic of HELP_TOPICS) {
    problems.push(await unresolved(topicPage(topic)));
  }
  expect(problems.filter(Boolean)).toEqual([]);
  expect(topicPage("approvals")).toBe("docs/approvals.md");
});

Deno.test("commandPage() names a docs page that exists for every command, and none for others", async () => {
  const problems = [];
  for (const { name } of COMMANDS) {
    const page = commandPage(name);
    problems.push(
      page === undefined ? `${name}: no page` : await unresolved(page),
    );
  }
  expect(problems.filter(Boolean)).toEqual([]);
  expect(commandPage("deploy")).toBeUndefined();
  expect(commandPage("toString")).toBeUndefined();
});

Deno.test("moreLine() points at a page", () => {
  expect(moreLine("docs/spec.md")).toBe("more: docs/spec.md");
});
