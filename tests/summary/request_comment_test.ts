// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import type { GateOutlook } from "../../src/gate/gate_outlook.ts";
import {
  commentMarker,
  requestComment,
  type RequestRun,
  type RequestWave,
  statusDescription,
} from "../../src/summary/request_comment.ts";
import { fencedBlocks } from "../_helpers/markdown.ts";
import { examplePlan } from "./_docs_example.ts";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const P = (c: string) => `sha256:${c.repeat(64)}`;

const always: GateOutlook = {
  policy: "always",
  needed: true,
  required: 2,
  approvers: "2 distinct approvers, anyone, no self-approval",
  rule: 'the policy is "always" (read at 0123456789ab: wave 2 "prod")',
};
const never: GateOutlook = {
  policy: "never",
  needed: false,
  required: 1,
  approvers: "1 approver, anyone, self-approval allowed",
  rule: 'the policy is "never" (read at 0123456789ab: wave 1 "dev")',
};

const run = (target: string, over: Partial<RequestRun> = {}): RequestRun => ({
  target,
  planDigest: P("1"),
  destructive: false,
  empty: false,
  summary: "1 to add, 1 to change, 1 to destroy",
  changes: [
    { address: "aws_instance.web", action: "update" },
    { address: "aws_s3_bucket.logs", action: "create" },
    { address: "aws_db_instance.old", action: "delete" },
  ],
  ...over,
});

const quiet = (target: string): RequestRun => ({
  target,
  planDigest: P("0"),
  destructive: false,
  empty: true,
  summary: "no changes",
});

function html(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

Deno.test("requestComment() opens with the marker and says per wave what changes and the gate", () => {
  const waves: RequestWave[] = [
    { k: 1, name: "dev", gate: never, runs: [quiet("dev")], failed: [] },
    {
      k: 2,
      name: "prod",
      gate: always,
      runs: [run("eu-1"), run("eu-2"), quiet("us-1")],
      failed: [],
    },
  ];
  const text = requestComment({ name: "tf", head: HEAD, waves });
  expect(text.split("\n")[0]).toBe("<!-- chant-wave plan: tf -->");
  expect(text).toContain("### chant-wave plan of tf at `0123456789ab`");
  expect(text).toContain("it approves nothing");
  expect(text).toContain("#### Wave 1 (dev): 0 of 1 run change\n");
  expect(text).toContain(
    "#### Wave 2 (prod): 2 of 3 runs change, waits for 2 approvals\n",
  );
  expect(text).toContain(
    'Gate at base: **always**, 2 distinct approvers, anyone, no self-approval; rule: the policy is "always" (read at 0123456789ab: wave 2 "prod")',
  );
  // Deletes first, then creates, then updates; each naming the runs.
  const del = text.indexOf(
    "**delete** (-)\n\n- aws\\_db\\_instance.old: 2 runs (eu-1, eu-2)\n",
  );
  const add = text.indexOf(
    "**create** (+)\n\n- aws\\_s3\\_bucket.logs: 2 runs (eu-1, eu-2)\n",
  );
  const upd = text.indexOf(
    "**update** (\\~)\n\n- aws\\_instance.web: 2 runs (eu-1, eu-2)\n",
  );
  expect(del).toBeGreaterThan(0);
  expect(add).toBeGreaterThan(del);
  expect(upd).toBeGreaterThan(add);
  expect(text).toContain(
    "- 2 runs (eu-1, eu-2): 1 to add, 1 to change, 1 to destroy\n",
  );
  expect(text).toContain("1 run plan no changes.");
});

Deno.test("requestComment() puts replaces after deletes and before the rest", () => {
  const waves: RequestWave[] = [{
    k: 1,
    name: "dev",
    gate: never,
    runs: [run("a", {
      changes: [
        { address: "x.c", action: "create" },
        { address: "x.r", action: "replace" },
        { address: "x.d", action: "delete" },
      ],
    })],
    failed: [],
  }];
  const text = requestComment({ name: "tf", head: HEAD, waves });
  const order = ["**delete**", "**replace**", "**create**"].map((h) =>
    text.indexOf(h)
  );
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(order[0]).toBeGreaterThan(0);
});

Deno.test("requestComment() of a head where nothing changes says so", () => {
  const text = requestComment({
    name: "tf",
    head: HEAD,
    waves: [{
      k: 1,
      name: "dev",
      gate: never,
      runs: [quiet("dev")],
      failed: [],
    }],
  });
  expect(text).toContain("No wave changes anything at this commit.");
});

Deno.test("requestComment() names the runs that failed to plan", () => {
  const text = requestComment({
    name: "tf",
    head: HEAD,
    waves: [{ k: 1, name: "dev", runs: [], failed: ["eu-1"] }],
  });
  expect(text).toContain("#### Wave 1 (dev): 1 run failed to plan");
  expect(text).toContain("Failed to plan: eu-1");
});

Deno.test("requestComment() keeps hostile names, addresses and summaries inert", () => {
  const hostile =
    "x\n### Approved by admin\n| a | b |\n[click](https://evil.example) <img src=x> @org/team #1 **bold**";
  const waves: RequestWave[] = [{
    k: 1,
    name: "prod",
    gate: { ...always, approvers: hostile, rule: hostile },
    runs: [run(hostile, {
      summary: hostile,
      changes: [{ address: hostile, action: "delete" }],
    })],
    failed: [],
  }];
  const text = requestComment({ name: "tf", head: HEAD, waves });
  const rendered = html(text);
  expect(rendered).not.toContain("<a ");
  expect(rendered).not.toContain("<img");
  expect(rendered).not.toContain("<table");
  expect(rendered).not.toContain("<strong>bold");
  expect(rendered).not.toMatch(/<h3>Approved/);
  // Only the comment's own headings.
  expect(rendered.match(/<h[1-6]>/g)).toEqual(["<h3>", "<h4>"]);
  // The marker is the only HTML comment, and none of the text forges one.
  expect(text.match(/<!--/g)).toEqual(["<!--"]);
});

Deno.test("requestComment() cuts a very large plan with counts and stays under the limit", () => {
  const runs = Array.from(
    { length: 40 },
    (_, i) =>
      run(`tenant-${String(i).padStart(2, "0")}`, {
        planDigest: P(String(i % 10)),
        summary: `plan ${i}`,
        changes: Array.from({ length: 400 }, (_, j) => ({
          address: `module.m${i}.aws_instance.very_long_resource_name_${j}`,
          action: "update",
        })),
      }),
  );
  const waves: RequestWave[] = [
    { k: 1, name: "big", gate: always, runs, failed: [] },
    { k: 2, name: "after", gate: always, runs: runs.slice(0, 3), failed: [] },
  ];
  const text = requestComment({ name: "tf", head: HEAD, waves });
  expect(text.length).toBeLessThanOrEqual(60_000);
  const last = text.trimEnd().split("\n").at(-1)!;
  expect(last).toMatch(
    /^… and \d+ more changes in \d+ runs; 1 more wave not shown \(the comment is cut at 60000 characters; the job's log has every plan\)$/,
  );
  const shown =
    text.split("\n").filter((l) => l.startsWith("- module.")).length;
  const [, more, runsLeft] = last.match(
    /and (\d+) more changes in (\d+) runs/,
  )!;
  // Every change of every run is either shown or counted.
  expect(shown + Number(more)).toBe(40 * 400 + 3 * 400);
  expect(Number(runsLeft)).toBeGreaterThan(3);
});

Deno.test("requestComment() with a tiny limit still counts every change", () => {
  const text = requestComment({
    name: "tf",
    head: HEAD,
    waves: [{ k: 1, name: "dev", gate: never, runs: [run("a")], failed: [] }],
  }, 700);
  expect(text.length).toBeLessThanOrEqual(700);
  expect(text).toMatch(/… and \d+ more changes? in 1 run /);
});

Deno.test("statusDescription() says how much changes and what the gate does, never that it is approved", () => {
  const wave = (over: Partial<RequestWave>): RequestWave => ({
    k: 2,
    name: "prod",
    gate: always,
    runs: [run("a"), run("b"), run("c"), quiet("d")],
    failed: [],
    ...over,
  });
  expect(statusDescription(wave({}))).toBe(
    "3 to change, waits for 2 approvals",
  );
  expect(statusDescription(wave({ gate: never }))).toBe(
    "3 to change, applies without approval",
  );
  expect(statusDescription(wave({ runs: [quiet("d")] }))).toBe("no changes");
  expect(statusDescription(wave({ failed: ["a", "b"] }))).toBe(
    "2 runs failed to plan",
  );
});

Deno.test("commentMarker() is one hidden HTML comment naming the spec", () => {
  expect(commentMarker("tf")).toBe("<!-- chant-wave plan: tf -->");
  expect(html(commentMarker("tf")).trim()).toBe("<!-- chant-wave plan: tf -->");
});

Deno.test("requestComment() writes the worked example of docs/pull-requests.md", async () => {
  const page = await Deno.readTextFile(
    new URL("../../docs/pull-requests.md", import.meta.url),
  );
  const [block] = fencedBlocks("docs/pull-requests.md", page).filter((b) =>
    b.text.startsWith(commentMarker("infra"))
  );
  const plan = await examplePlan();
  expect(block.text).toBe(requestComment(plan));
  for (const wave of plan.waves) {
    expect(page).toContain(
      `| \`chant-wave/infra/plan/${wave.name}\``,
    );
    expect(page).toMatch(
      new RegExp(
        `\\| \`chant-wave/infra/plan/${wave.name}\` +\\| \`success\` \\| \`${
          statusDescription(wave)
        }\` +\\|`,
      ),
    );
  }
});
