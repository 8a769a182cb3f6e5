/**
 * Reads what sqitch prints, as untrusted text: `sqitch status` (the change a
 * database is at), `sqitch plan --format "format:%H %e %o %n"` (every change of
 * the plan), and the apply state a sqitch plan file carries. Pure.
 * @module
 */

import { quote } from "../quote.ts";
import type { SqitchChange, SqitchState } from "./sqitch_plan_file.ts";

const ID = /^[0-9a-f]{40}$/;

/** The status exit code sqitch gives a database with no change deployed. */
const NOTHING_DEPLOYED_EXIT = 1;

/**
 * The id of the last change `sqitch status` reports, or null when it says
 * nothing is deployed (exit 1, `No changes deployed`).
 * @param stdout What it printed on stdout (run with `LC_ALL=C`).
 * @param exitCode How it exited.
 * @returns The id, or null.
 * @throws {Error} When it printed neither: `printed no "# Change:" line`.
 */
export function deployedChange(
  stdout: string,
  exitCode: number,
): string | null {
  if (exitCode === NOTHING_DEPLOYED_EXIT) {
    if (/^No changes deployed\s*$/m.test(stdout)) return null;
    throw new Error(`exited ${exitCode}`);
  }
  const match = /^# Change:[ \t]+([0-9a-f]{40})[ \t]*$/m.exec(stdout);
  if (!match) throw new Error('printed no "# Change: <id>" line');
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
 * @throws {Error} On a line of another shape (`line 3 is not "<id> deploy
 *   <project> <name>": "…"`), a revert line, two projects, or no change.
 */
export function planListing(stdout: string): ListedChange[] {
  const changes: ListedChange[] = [];
  const lines = stdout.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    const match = /^([0-9a-f]{40}) (deploy|revert) (\S+) (\S+)$/.exec(line);
    if (!match) {
      throw new Error(
        `line ${i + 1} is not "<id> deploy <project> <name>": ${quote(line)}`,
      );
    }
    const [, id, event, project, name] = match;
    if (event !== "deploy") {
      throw new Error(
        `lists a revert of ${
          quote(name)
        }; chant-wave deploys plans of deploys only`,
      );
    }
    if (changes.length && changes[0].project !== project) {
      throw new Error(
        `lists changes of two projects, ${quote(changes[0].project)} and ${
          quote(project)
        }`,
      );
    }
    changes.push({ id, name, project });
  });
  if (changes.length === 0) throw new Error("lists no change");
  return changes;
}

/**
 * Reads the `sqitch` field of a plan file written by the sqitch plan: the
 * project, where the database was, and how far to deploy.
 * @param text The plan file's text.
 * @returns The state.
 * @throws {Error} When the field is missing or not of that shape.
 */
export function sqitchState(text: string): SqitchState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`);
  }
  const state = (value as { sqitch?: unknown } | null)?.sqitch as
    | Record<string, unknown>
    | undefined;
  const id = (field: unknown) =>
    field === null || (typeof field === "string" && ID.test(field));
  if (
    typeof state !== "object" || state === null ||
    typeof state.project !== "string" || state.project === "" ||
    !id(state.deployed) || !id(state.deployTo)
  ) {
    throw new Error(
      'has no "sqitch": { "project", "deployed", "deployTo" } (write it with the sqitch tool or "chant-wave plan-file sqitch")',
    );
  }
  return {
    project: state.project,
    deployed: state.deployed as string | null,
    deployTo: state.deployTo as string | null,
  };
}
