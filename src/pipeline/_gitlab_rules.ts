/**
 * The `rules:` of every GitLab job: run on a push to one of the spec's branches,
 * or a pipeline started by hand from the web on one. Branch names become
 * `==` comparisons, or anchored regular expressions when they hold `*`
 * (`*` within a path segment, `**` across). Pure.
 * @module
 */

const BRANCH = /^[A-Za-z0-9._/*-]+$/;
const SOURCES =
  '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web")';

/**
 * The rules for `branches`.
 * @param branches The spec's branches.
 * @param problems Where to add branches no rules expression can hold.
 * @returns One `{ if }` rule per branch.
 * @example
 * ```ts
 * gitlabRules(["main"], []);
 * // [{ if: '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web") && $CI_COMMIT_BRANCH == "main"' }]
 * ```
 */
export function gitlabRules(
  branches: readonly string[],
  problems: string[],
): { if: string }[] {
  const rules: { if: string }[] = [];
  for (const branch of branches) {
    if (!BRANCH.test(branch)) {
      problems.push(branchProblem(branch));
      continue;
    }
    rules.push({ if: `${SOURCES} && $CI_COMMIT_BRANCH ${matcher(branch)}` });
  }
  return rules;
}

/**
 * The rules of the record-plans job: a merge request pipeline (SPEC.md §13) of
 * a merge request into one of the spec's branches.
 * @param branches The spec's branches.
 * @param problems Where to add branches no rules expression can hold.
 * @returns One `{ if }` rule per branch.
 * @example
 * ```ts
 * mergeRequestRules(["main"], []);
 * // [{ if: '$CI_PIPELINE_SOURCE == "merge_request_event" && $CI_MERGE_REQUEST_TARGET_BRANCH_NAME == "main"' }]
 * ```
 */
export function mergeRequestRules(
  branches: readonly string[],
  problems: string[],
): { if: string }[] {
  return branches.filter((branch) => {
    const ok = BRANCH.test(branch);
    if (!ok) problems.push(branchProblem(branch));
    return ok;
  }).map((branch) => ({
    if:
      `$CI_PIPELINE_SOURCE == "merge_request_event" && $CI_MERGE_REQUEST_TARGET_BRANCH_NAME ${
        matcher(branch)
      }`,
  }));
}

function branchProblem(branch: string): string {
  return `branch "${branch}" cannot go into a rules expression; use letters, digits, ".", "_", "-", "/" and "*"`;
}

function matcher(branch: string): string {
  if (!branch.includes("*")) return `== "${branch}"`;
  const pattern = branch.split(/(\*\*|\*)/).map((part) =>
    part === "**"
      ? ".*"
      : part === "*"
      ? "[^\\/]*"
      : part.replace(/[.]/g, "\\.").replaceAll("/", "\\/")
  ).join("");
  return `=~ /^${pattern}$/`;
}
