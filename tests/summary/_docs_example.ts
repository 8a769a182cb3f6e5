/**
 * The worked example of docs/pull-requests.md: a pull request on the README's
 * six-module rollout that adds a logs bucket to every module and replaces the
 * database of prod-eu-1, as its plan job sees it. The test renders it and
 * compares the page's blocks. Tests only.
 * @module
 */

import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { gateOutlook } from "../../src/gate/gate_outlook.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type {
  RequestPlan,
  RequestRun,
} from "../../src/summary/request_comment.ts";
import { fencedBlocks } from "../_helpers/markdown.ts";

/** The base commit of the example (the tip of main the request branched from). */
export const EXAMPLE_BASE = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432";
/** The request's head. */
export const EXAMPLE_HEAD = "5b2c9e1f7a3d4c6b8e0f1a2b3c4d5e6f70819263";

const bucket = { address: "aws_s3_bucket.logs", action: "create" };

function run(target: string, n: number, extra: RequestRun["changes"] = []) {
  const changes = [bucket, ...extra];
  const destructive = changes.some((c) =>
    c.action === "delete" || c.action === "replace"
  );
  return {
    target,
    planDigest: `sha256:${String(n).repeat(64)}`,
    destructive,
    empty: false,
    summary: destructive
      ? "2 to add, 0 to change, 1 to destroy"
      : "1 to add, 0 to change, 0 to destroy",
    changes,
  };
}

/**
 * The plan of every wave of the example, its gates stated from the README's
 * spec at base as the plan job states them.
 * @returns The plan.
 */
export async function examplePlan(): Promise<RequestPlan> {
  const readme = await Deno.readTextFile(
    new URL("../../README.md", import.meta.url),
  );
  const text =
    fencedBlocks("README.md", readme).find((b) =>
      b.info.includes("waves.jsonc")
    )!.text;
  const bases = [{
    sha: EXAMPLE_BASE,
    spec: baseSpecOf(text, "waves.jsonc", parseSpec),
  }];
  const runs: Record<string, ReturnType<typeof run>[]> = {
    dev: [run("dev", 1)],
    staging: [run("staging-eu", 2), run("staging-us", 3)],
    prod: [
      run("prod-eu-1", 4, [
        { address: "aws_db_instance.main", action: "replace" },
      ]),
      run("prod-eu-2", 5),
      run("prod-us-1", 6),
    ],
  };
  const waves = ["dev", "staging", "prod"].map((name, i) => ({
    k: i + 1,
    name,
    gate: gateOutlook(bases, { k: i + 1, name }, runs[name]),
    runs: runs[name],
    failed: [],
  }));
  return { name: "infra", head: EXAMPLE_HEAD, waves };
}
