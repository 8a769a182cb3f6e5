/**
 * The run locator a pending fact recorded in CI carries (SPEC.md §13): which
 * forge, API, repository and run or job to restart once the gate is approved,
 * and the strict parser for one read back from a ledger record, which is
 * untrusted: every field's form is checked, unknown and missing fields refused
 * (with the input reader). Pure.
 * @module
 */

import { type Forge, FORGES } from "./forges.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { JsonReader } from "../input/json_reader.ts";
import { quote } from "../quote.ts";

/** A GitHub Actions run: re-run its failed jobs. */
export interface GithubRunLocator {
  /** Always `github`. */
  forge: "github";
  /** The API URL the run's forge answers on (`https://api.github.com`). */
  apiUrl: string;
  /** `owner/name`. */
  repository: string;
  /** The run id (`GITHUB_RUN_ID`), as digits. */
  runId: string;
  /** The run attempt the fact was recorded in (`GITHUB_RUN_ATTEMPT`). */
  attempt: number;
}

/** A GitLab CI job: retry it. */
export interface GitlabRunLocator {
  /** Always `gitlab`. */
  forge: "gitlab";
  /** `CI_API_V4_URL`. */
  apiUrl: string;
  /** `CI_PROJECT_ID`, as digits. */
  projectId: string;
  /** `CI_PIPELINE_ID`, as digits. */
  pipelineId: string;
  /** `CI_JOB_ID`, as digits. */
  jobId: string;
  /** `CI_JOB_NAME`. */
  jobName: string;
}

/** A Forgejo Actions workflow: dispatch it again on the ref. */
export interface ForgejoRunLocator {
  /** Always `forgejo`. */
  forge: "forgejo";
  /** The API URL (`<server>/api/v1`). */
  apiUrl: string;
  /** `owner/name`. */
  repository: string;
  /** The workflow's file name (`rollout.yml`). */
  workflow: string;
  /** The ref the run was for (`refs/heads/main`). */
  ref: string;
}

/** Where a pending fact was recorded, per forge. */
export type RunLocator =
  | GithubRunLocator
  | GitlabRunLocator
  | ForgejoRunLocator;

const DIGITS = /^[1-9]\d{0,19}$/;
const SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;
const WORKFLOW_FILE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,250}\.ya?ml$/;

/** What is wrong with a value, or `undefined` when nothing is. */
type Check = (value: unknown) => string | undefined;

/** Each forge's fields beside `forge`, with the check of each. */
const CHECKS = {
  github: {
    apiUrl: apiUrlProblem,
    repository: repositoryProblem,
    runId: digitsProblem("a run id"),
    attempt: attemptProblem,
  },
  gitlab: {
    apiUrl: apiUrlProblem,
    projectId: digitsProblem("a project id"),
    pipelineId: digitsProblem("a pipeline id"),
    jobId: digitsProblem("a job id"),
    jobName: jobNameProblem,
  },
  forgejo: {
    apiUrl: apiUrlProblem,
    repository: repositoryProblem,
    workflow: (value: unknown) =>
      typeof value === "string" && WORKFLOW_FILE.test(value)
        ? undefined
        : "must be a workflow file name (`name.yml`)",
    ref: refProblem,
  },
} satisfies Record<Forge, Record<string, Check>>;

/**
 * Reads a run locator back from a ledger record with the input reader,
 * trusting nothing: it must be an object with exactly the fields of its forge,
 * each of the documented form (ids are digits; `repository` is `owner/name`;
 * `apiUrl` is http(s) without credentials, query or fragment; names hold no
 * control characters; `ref` is a full git ref). Offending values are never
 * echoed.
 * @param value The parsed JSON.
 * @returns The locator, with exactly its forge's fields.
 * @throws {ShapeError} `run locator: <what>`, naming the first field that is wrong.
 * @example
 * ```ts
 * parseRunLocator({ forge: "github", apiUrl: "https://api.github.com",
 *   repository: "o/r", runId: "7", attempt: 1 }).forge; // "github"
 * ```
 */
export function parseRunLocator(value: unknown): RunLocator {
  const locator = new JsonReader(value, { source: "run locator", echo: false })
    .object();
  const forge = locator.get("forge").value;
  if (!(FORGES as readonly unknown[]).includes(forge)) {
    locator.get("forge").fail(`must be one of ${FORGES.join(", ")}`);
  }
  const checks: Record<string, Check> = CHECKS[forge as Forge];
  const [unknown] = locator.unknownKeys(["forge", ...Object.keys(checks)]);
  if (unknown !== undefined) {
    locator.fail(`unknown field ${quote(unknown)} for ${forge}`);
  }
  const field = <T = string>(key: string): T => {
    const at = locator.get(key).required();
    const problem = checks[key](at.value);
    if (problem !== undefined) at.fail(problem);
    return at.value as T;
  };
  switch (forge as Forge) {
    case "github":
      return {
        forge: "github",
        apiUrl: field("apiUrl"),
        repository: field("repository"),
        runId: field("runId"),
        attempt: field<number>("attempt"),
      };
    case "gitlab":
      return {
        forge: "gitlab",
        apiUrl: field("apiUrl"),
        projectId: field("projectId"),
        pipelineId: field("pipelineId"),
        jobId: field("jobId"),
        jobName: field("jobName"),
      };
    case "forgejo":
      return {
        forge: "forgejo",
        apiUrl: field("apiUrl"),
        repository: field("repository"),
        workflow: field("workflow"),
        ref: field("ref"),
      };
  }
}

/**
 * Whether two locators name the same CI job (every field equal): a re-run
 * attempt, a retried job or another run is another job.
 * @param a One locator.
 * @param b The other.
 * @returns `true` when they name the same job.
 * @example
 * ```ts
 * sameRunLocator({ ...run, attempt: 1 }, { ...run, attempt: 2 }); // false
 * ```
 */
export function sameRunLocator(a: RunLocator, b: RunLocator): boolean {
  const keys = Object.keys(a);
  const other = b as unknown as Record<string, unknown>;
  return keys.length === Object.keys(b).length &&
    keys.every((key) =>
      (a as unknown as Record<string, unknown>)[key] === other[key]
    );
}

function digitsProblem(what: string): Check {
  return (value) =>
    typeof value === "string" && DIGITS.test(value)
      ? undefined
      : `must be ${what} (digits)`;
}

function attemptProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 &&
      value <= 10_000
    ? undefined
    : "must be a whole number from 1 to 10000";
}

function repositoryProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be `owner/name`";
  const parts = value.split("/");
  return parts.length === 2 &&
      parts.every((part) => SEGMENT.test(part) && !/^\.{1,2}$/.test(part))
    ? undefined
    : "must be `owner/name`";
}

function jobNameProblem(value: unknown): string | undefined {
  return typeof value === "string" && value.length >= 1 &&
      value.length <= 255 && !hasControlCharacter(value)
    ? undefined
    : "must be a job name (1 to 255 characters, no control characters)";
}

function refProblem(value: unknown): string | undefined {
  const form = "must be a full git ref (`refs/heads/main`)";
  if (typeof value !== "string" || value.length > 255) return form;
  const bad = hasControlCharacter(value) ||
    /[\s~^:?*[\\]|\.\.|@\{|\/\/|\/\.|\.lock$|\.$|\/$/.test(value);
  return !bad && /^refs\/[A-Za-z0-9_.-]/.test(value) ? undefined : form;
}

function apiUrlProblem(value: unknown): string | undefined {
  const form = "must be an http(s) URL without credentials, query or fragment";
  if (typeof value !== "string" || value.length > 2048) return form;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return form;
  }
  const bad = !/^https?:$/.test(url.protocol) || url.username !== "" ||
    url.password !== "" || url.search !== "" || url.hash !== "" ||
    hasControlCharacter(value) || /\s/.test(value);
  return bad ? form : undefined;
}
