/**
 * The run locator a pending fact recorded in CI carries (SPEC.md §13): which
 * forge, API, repository and run or job to restart once the gate is approved,
 * and the strict parser for one read back from a ledger record, which is
 * untrusted: every field's form is checked, unknown and missing fields refused.
 * Pure.
 * @module
 */

import { FORGES } from "./forges.ts";
import { hasControl } from "./_json_shape.ts";

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

/** A run locator that is not valid; the message says which field and why. */
export class LocatorError extends Error {
  /**
   * Makes the error `run locator: <what>`.
   * @param what What is wrong, naming the field.
   */
  constructor(what: string) {
    super(`run locator: ${what}`);
    this.name = "LocatorError";
  }
}

const DIGITS = /^[1-9]\d{0,19}$/;
const SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;
const WORKFLOW_FILE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,250}\.ya?ml$/;

type Check = (value: unknown) => string | undefined;

/** Per forge, each field and the check that returns a problem or `undefined`. */
const FIELDS: Record<RunLocator["forge"], Record<string, Check>> = {
  github: {
    forge: () => undefined,
    apiUrl: apiUrlProblem,
    repository: repositoryProblem,
    runId: digitsProblem("a run id"),
    attempt: attemptProblem,
  },
  gitlab: {
    forge: () => undefined,
    apiUrl: apiUrlProblem,
    projectId: digitsProblem("a project id"),
    pipelineId: digitsProblem("a pipeline id"),
    jobId: digitsProblem("a job id"),
    jobName: jobNameProblem,
  },
  forgejo: {
    forge: () => undefined,
    apiUrl: apiUrlProblem,
    repository: repositoryProblem,
    workflow: (value) =>
      typeof value === "string" && WORKFLOW_FILE.test(value)
        ? undefined
        : "must be a workflow file name (`name.yml`)",
    ref: refProblem,
  },
};

/**
 * Reads a run locator back from a ledger record, trusting nothing: it must be an
 * object with exactly the fields of its forge, each of the documented form (ids
 * are digits; `repository` is `owner/name`; `apiUrl` is http(s) without
 * credentials, query or fragment; names hold no control characters; `ref` is a
 * full git ref). Offending values are never echoed.
 * @param value The parsed JSON.
 * @returns The locator, with exactly its forge's fields.
 * @throws {LocatorError} Naming the first field that is wrong.
 * @example
 * ```ts
 * parseRunLocator({ forge: "github", apiUrl: "https://api.github.com",
 *   repository: "o/r", runId: "7", attempt: 1 }).forge; // "github"
 * ```
 */
export function parseRunLocator(value: unknown): RunLocator {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new LocatorError("must be an object");
  }
  const record = value as Record<string, unknown>;
  const forge = record.forge;
  if (
    typeof forge !== "string" || !(FORGES as readonly string[]).includes(forge)
  ) {
    throw new LocatorError(`"forge" must be one of ${FORGES.join(", ")}`);
  }
  const fields = FIELDS[forge as RunLocator["forge"]];
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(fields, key)) {
      throw new LocatorError(
        `unknown field ${JSON.stringify(key.slice(0, 60))} for ${forge}`,
      );
    }
  }
  const locator: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(fields)) {
    if (!Object.hasOwn(record, key)) {
      throw new LocatorError(`"${key}" is missing`);
    }
    const problem = check(record[key]);
    if (problem !== undefined) throw new LocatorError(`"${key}" ${problem}`);
    locator[key] = record[key];
  }
  return locator as unknown as RunLocator;
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
      value.length <= 255 && !hasControl(value)
    ? undefined
    : "must be a job name (1 to 255 characters, no control characters)";
}

function refProblem(value: unknown): string | undefined {
  const form = "must be a full git ref (`refs/heads/main`)";
  if (typeof value !== "string" || value.length > 255) return form;
  const bad = hasControl(value) ||
    /[ ~^:?*[\\]|\.\.|@\{|\/\/|\/\.|\.lock$|\.$|\/$/.test(value);
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
    hasControl(value) || value.includes(" ");
  return bad ? form : undefined;
}
