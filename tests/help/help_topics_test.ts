// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  HELP_TOPICS,
  isHelpTopic,
  seeHelp,
  topicText,
} from "../../src/help/help_topics.ts";

Deno.test("topicText() gives every topic a summary and lines of at most 80 characters", async (t) => {
  for (const topic of HELP_TOPICS) {
    await t.step(topic, () => {
      const { summary, lines } = topicText(topic);
      expect(summary).toMatch(/^[a-z]/);
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    });
  }
});

Deno.test("isHelpTopic() and seeHelp() name topics", () => {
  expect(isHelpTopic("base")).toBe(true);
  expect(isHelpTopic("run")).toBe(false);
  expect(seeHelp("exit-codes")).toBe('see "chant-wave help exit-codes"');
});

/** The source of a TypeScript file without its comments (roughly). */
function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .filter((line) => !line.trim().startsWith("//"))
    .map((line) => line.replace(/\s\/\/\s.*$/, ""))
    .join("\n");
}

Deno.test("nothing chant-wave prints cites SPEC.md: messages cite a help topic or a docs page", async () => {
  const citing: string[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts")) {
        const code = withoutComments(await Deno.readTextFile(url));
        if (/SPEC\.md|§/.test(code)) citing.push(url.pathname);
      }
    }
  };
  await walk(new URL("../../src/", import.meta.url));
  expect(citing).toEqual([]);
});
