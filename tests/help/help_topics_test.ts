// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  HELP_TOPICS,
  isHelpTopic,
  seeHelp,
  topicText,
} from "../../src/help/help_topics.ts";

Deno.test("topicText() gives every topic a summary and lines that cite the README", async (t) => {
  for (const topic of HELP_TOPICS) {
    await t.step(topic, () => {
      const { summary, lines } = topicText(topic);
      expect(summary).toMatch(/^[a-z]/);
      expect(lines.at(-1)).toMatch(/^README: "/);
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

Deno.test("nothing chant-wave prints cites SPEC.md: messages cite the README or a help topic", async () => {
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

Deno.test("the README sections a topic cites exist", async () => {
  const readme = await Deno.readTextFile(
    new URL("../../README.md", import.meta.url),
  );
  const headings = new Set(
    [...readme.matchAll(/^#+ (.+)$/gm)].map((match) => match[1]),
  );
  const missing: string[] = [];
  for (const topic of HELP_TOPICS) {
    const cited = topicText(topic).lines.at(-1)!.slice("README: ".length);
    for (const [, section] of cited.matchAll(/"([^"]+)"/g)) {
      if (!headings.has(section)) missing.push(`${topic}: ${section}`);
    }
  }
  expect(missing).toEqual([]);
});
