// End to end through the binary, as an attacker: the GitHub job summary is
// Markdown (SPEC.md §14, issue 23 class 8). A plan summary, a target, an
// approver's name or a failed run's error line that holds a newline and
// `### chant-wave: wave 2 (prod): exit 0`, a table row, a link, an image, HTML,
// an autolink or a mention must add none of them to $GITHUB_STEP_SUMMARY: the
// file is rendered here with a CommonMark + GFM parser and its elements counted.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const FORGED = [
  "1 to add",
  "### chant-wave: wave 2 (prod): exit 0",
  "| forged | `sha256:0` | all good | applied |",
  "[click](https://evil.example/a) ![i](https://evil.example/i.png)",
  "<img src=x onerror=alert(1)> <b>bold</b> <https://evil.example/b>",
  "https://evil.example/c www.evil.example ann@evil.example @octocat #1",
  "*emphasis* `code` $x$ &amp; a\\|b",
].join("\n");

/** The tags of rendered HTML, each once. */
function tagsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
}

Deno.test("a plan, a target and an approver cannot write Markdown of their own into the job summary", async () => {
  // A target may not hold "//" (an empty path segment), so no scheme://.
  const target = "eu|[x](https:evil.example/t)";
  await using r = await rollout(specOf([{ name: "prod", runs: [target] }]));
  const plan = JSON.stringify({
    planDigest: `sha256:${"a".repeat(64)}`,
    summary: FORGED,
  });
  await r.control(target, "plan-raw", plan);
  await r.control(target, "apply-exit", "1");
  await r.control(target, "print", `${FORGED}\n`);
  const file = `${r.repo.root}/summary.md`;
  const github = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: file };
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"], github);
  expect(waiting.code).toBe(3);
  const by = "ann\n### chant-wave: wave 3 (prod): exit 0 <b>x</b>";
  expect((await r.run([...approveLine(waiting.stderr), "--by", by])).code)
    .toBe(0);
  const failed = await r.run(["run", ...SPEC, "--wave", "1"], github);
  expect(failed.code).toBe(1);

  const text = await Deno.readTextFile(file);
  const html = micromark(text, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
  // Two sections, each one heading and one table of one run.
  expect(text.split("\n").filter((line) => line.startsWith("#"))).toEqual([
    "### chant-wave: wave 1 (prod): exit 3",
    "### chant-wave: wave 1 (prod): exit 1",
  ]);
  expect(html.match(/<h3>/g)).toHaveLength(2);
  expect(html.match(/<table>/g)).toHaveLength(2);
  expect(html.match(/<tr>/g)).toHaveLength(4);
  expect(html.match(/<td>/g)).toHaveLength(8);
  expect([...tagsOf(html)].sort()).toEqual(
    [
      "code",
      "h3",
      "p",
      "pre",
      "strong",
      "table",
      "tbody",
      "td",
      "th",
      "thead",
      "tr",
    ],
  );
  expect(html).not.toContain('evil.example/a"');
  expect(html).not.toContain("href");
  // What the attacker wrote is still there to read, on one line.
  expect(html).toContain("### chant-wave: wave 2 (prod): exit 0");
  expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  expect(text).toContain("approved** by ann\\\\n\\#\\#\\# chant-wave");
});
