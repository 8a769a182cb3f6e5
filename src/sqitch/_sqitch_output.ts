/**
 * Reads what sqitch prints, as untrusted text: `sqitch status` (the change a
 * database is at), `sqitch plan --format "format:%H %e %o %n"` (every change of
 * the plan), and the apply state a sqitch plan file carries. Pure.
 * @module
 */

import { JsonReader, parseJson } from "../input/json_reader.ts";
import { ShapeError } from "../input/shape_error.ts";
import { quote } from "../quote.ts";
import type { SqitchChange, SqitchState } from "./sqitch_plan_file.ts";

/** A sqitch change id: 40 lowercase hex digits (a SHA-1, not a git commit). */
const ID = /^[0-9a-f]{40}$/;

/** Fails with `what` about the output as a whole. */
function fail(what: string): never {
  throw new ShapeError("", what);
}

/** The status exit code sqitch gives a database with no change deployed. */
const NOTHING_DEPLOYED_EXIT = 1;

/**
 * The id of the last change `sqitch status` reports, or null when it says
 * nothing is deployed (exit 1, `No changes deployed`).
 * @param stdout What it printed on stdout (run with `LC_ALL=C`).
 * @param exitCode How it exited.
 * @returns The id, or null.
 * @throws {ShapeError} When it printed neither: `printed no "# Change:" line`.
 */
export function deployedChange(
  stdout: string,
  exitCode: number,
): string | null {
  if (exitCode === NOTHING_DEPLOYED_EXIT) {
    if (/^No changes deployed\s*$/m.test(stdout)) return null;
    fail(`exited ${exitCode}`);
  }
  const match = /^# Change:[ \t]+([0-9a-f]{40})[ \t]*$/m.exec(stdout);
  if (!match) fail('printed no "# Change: <id>" line');
  return match[1];
}

/** A change of the plan listing, with its project. */
export interface ListedChange extends SqitchChange {
  project: string;
}

/**
 * Reads the output of `sqitch plan --no-headers --format "format:%H %e %o %n"`.
 * @param stdout What it printed.
 * @returns The changes, in plan order, all of one project.
 * @throws {ShapeError} On a line of another shape (`line 3 is not "<id> deploy
 *   <project> <name>": "…"`), a revert line, two projects, or no change.
 */
export function planListing(stdout: string): ListedChange[] {
  const changes: ListedChange[] = [];
  const lines = stdout.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    const match = /^([0-9a-f]{40}) (deploy|revert) (\S+) (\S+)$/.exec(line);
    if (!match) {
      fail(
        `line ${i + 1} is not "<id> deploy <project> <name>": ${quote(line)}`,
      );
    }
    const [, id, event, project, name] = match;
    if (event !== "deploy") {
      fail(
        `lists a revert of ${
          quote(name)
        }; chant-wave deploys plans of deploys only`,
      );
    }
    if (changes.length && changes[0].project !== project) {
      fail(
        `lists changes of two projects, ${quote(changes[0].project)} and ${
          quote(project)
        }`,
      );
    }
    changes.push({ id, name, project });
  });
  if (changes.length === 0) fail("lists no change");
  return changes;
}

/**
 * Reads the `sqitch` field of a plan file written by the sqitch plan: the
 * project, where the database was, how far to deploy, and how (the program,
 * the client's absolute path, verify).
 * @param text The plan file's text.
 * @returns The state.
 * @throws {ShapeError} When the text is not JSON, or the field is missing or
 *   not of that shape.
 */
export function sqitchState(text: string): SqitchState {
  const file: JsonReader = new JsonReader(parseJson(text));
  const state = isObject(file.value) ? file.value.sqitch : undefined;
  const id = (field: unknown): field is string | null =>
    field === null || (typeof field === "string" && ID.test(field));
  const named = (field: unknown): field is string =>
    typeof field === "string" && field !== "";
  if (
    !isObject(state) || !named(state.project) || !id(state.deployed) ||
    !id(state.deployTo) || !named(state.program) || !named(state.client) ||
    !state.client.startsWith("/") || typeof state.verify !== "boolean"
  ) {
    file.fail(
      'has no "sqitch": { "project", "deployed", "deployTo", "program", "client", "verify" } (write it with the sqitch tool or "chant-wave plan-file sqitch")',
    );
  }
  return {
    project: state.project,
    deployed: state.deployed,
    deployTo: state.deployTo,
    program: state.program,
    client: state.client,
    verify: state.verify,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
