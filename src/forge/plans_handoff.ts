/**
 * How the pull-request job hands the plans it recorded to the job on the merged
 * commit (SPEC.md §13) without any credential that can write the ledger: on
 * GitHub and Forgejo one commit status of the head per wave (context
 * `chant-wave/<name>/wave-<k>`, description the set digest), on GitLab one file
 * of the `record-plans` job's artifact. This module owns the names, the file's
 * text and the readers of both. Whatever it reads was written by the pull
 * request's own code: it is bounded and validated here, and each claim is only
 * ever compared with a plan made on the merged commit, never taken as an
 * approval. Pure.
 * Handing them over as commit statuses is the same request on GitHub and
 * Forgejo; the clients differ only in how they list them back.
 * @module
 */

import { isDigest } from "../digest/set_digest.ts";
import { JsonReader } from "../input/json_reader.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_RECORD_BYTES } from "../limits.ts";
import { quote } from "../quote.ts";
import type { ForgeHttp } from "./forge_http.ts";

/** One wave's set digest as planned at a pull request's head. */
export interface RecordedWave {
  /** The wave's number. */
  wave: number;
  /** The wave's name (for people; the merged commit's spec names it again). */
  name: string;
  /** The set digest its plans had at the head. */
  digest: string;
}

/** The plans of every wave at a pull request's head (`run --record-plans`). */
export interface RecordedPlans {
  /** The spec's `name`. */
  name: string;
  /** The head commit planned (full sha). */
  head: string;
  /** Each wave's digest, in wave order. */
  waves: RecordedWave[];
}

/**
 * What one hand-off says about one wave's digest at a head, or why it could not
 * be read. Untrusted: the pull request's code may have written it.
 */
export interface PlanClaim {
  /** Where it was read, for messages: `status 17`, `job 88's artifact`. */
  from: string;
  /** The wave it speaks for; absent when the hand-off is unreadable as a whole. */
  wave?: number;
  /** The set digest it claims; absent when it has a problem. */
  digest?: string;
  /** Why it could not be read (it then speaks for no digest). */
  problem?: string;
}

/** The GitLab job whose artifact carries the plans (the renderer names it so). */
export const PLANS_JOB = "record-plans";

/** The most waves one hand-off may carry. */
export const MAX_HANDED_WAVES = 500;

/** The largest plans file read back. */
export const MAX_PLANS_HANDOFF_BYTES = MAX_RECORD_BYTES;

/**
 * The plans file `run --record-plans` writes (GitLab's artifact), from the
 * working directory.
 * @param name The spec's `name` (lowercase letters, digits, `-`, `_`).
 * @returns `.chant/recorded-plans/<name>.json`.
 * @example
 * ```ts
 * plansFile("tf"); // ".chant/recorded-plans/tf.json"
 * ```
 */
export function plansFile(name: string): string {
  return `.chant/recorded-plans/${name}.json`;
}

/**
 * The commit status context of wave `k`'s recorded plans (GitHub, Forgejo).
 * Forges compare contexts without regard to case; so do the readers here.
 * @param name The spec's `name`.
 * @param k The wave's number.
 * @returns `chant-wave/<name>/wave-<k>`.
 * @example
 * ```ts
 * statusContext("tf", 2); // "chant-wave/tf/wave-2"
 * ```
 */
export function statusContext(name: string, k: number): string {
  return `${statusPrefix(name)}${k}`;
}

function statusPrefix(name: string): string {
  return `chant-wave/${name}/wave-`;
}

/**
 * The text of the plans file: one JSON object and a final newline.
 * @param plans The spec's name, the head and each wave's digest.
 * @returns `{"version":1,"kind":"recorded-plans",name,head,waves}` as JSON.
 */
export function formatPlansFile(plans: RecordedPlans): string {
  return JSON.stringify({
    version: 1,
    kind: "recorded-plans",
    name: plans.name,
    head: plans.head,
    waves: plans.waves.map(({ wave, name, digest }) => ({
      wave,
      name,
      digest,
    })),
  }) + "\n";
}

/** A plans file as read back: the head it names, and a claim per wave. */
export interface PlansFileRead {
  /** The head it claims to be of, when it names one. */
  head?: string;
  /** One claim per wave; a single claim with a problem when unreadable. */
  claims: PlanClaim[];
}

/**
 * Reads a plans file fetched from the forge (GitLab: the artifact), as parsed
 * JSON, with the input reader: version 1, kind `recorded-plans`, this spec's
 * name, a full head sha and at most {@linkcode MAX_HANDED_WAVES} waves, each a
 * whole wave number (once each) and a set digest.
 * @param body The parsed file.
 * @param name The spec's `name` it must be for.
 * @param from Where it was read, for the claims.
 * @returns The head and the claims; one claim with a problem when any check
 *   fails (`"head" is not a full commit sha: "abc"`).
 * @example
 * ```ts
 * readPlansFile({ version: 1 }, "tf", "job 8's artifact").claims[0].problem;
 * // "it is not a plans file of version 1"
 * ```
 */
export function readPlansFile(
  body: unknown,
  name: string,
  from: string,
): PlansFileRead {
  try {
    return readClaims(new JsonReader(body), name, from);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return {
      claims: [{
        from,
        problem: error.field ? error.message : `it ${error.message}`,
      }],
    };
  }
}

function readClaims(
  file: JsonReader,
  name: string,
  from: string,
): PlansFileRead {
  const raw = file.object().value as Record<string, unknown>;
  if (raw.version !== 1 || raw.kind !== "recorded-plans") {
    file.fail("is not a plans file of version 1");
  }
  if (raw.name !== name) file.fail(`is not of ${quote(name)}`);
  const head = file.get("head").fullSha();
  const seen = new Set<number>();
  const claims = file.get("waves").list(MAX_HANDED_WAVES).map((entry) => {
    entry.object();
    const at = entry.get("wave");
    const wave = at.integer({ min: 1, max: MAX_HANDED_WAVES });
    if (seen.has(wave)) at.wrong("appears twice");
    seen.add(wave);
    return { from, wave, digest: entry.get("digest").digest() };
  });
  return { head, claims };
}

/**
 * The claim of one commit status, as the forge listed it (untrusted JSON):
 * `undefined` for a status of another context; a digest for a `success` status
 * of context `chant-wave/<name>/wave-<k>` whose description is exactly a set
 * digest; a problem for any other status under that prefix (another state,
 * another description, a malformed wave number), so a status that cannot be
 * read is never silently skipped. Statuses of other contexts are not looked at
 * further, so a malformed one of theirs changes nothing.
 * @param item One status of the list.
 * @param stateKey Where the state is: GitHub `state`, Forgejo `status`.
 * @param name The spec's `name`.
 * @returns The claim, or `undefined` when the status is not a hand-off of `name`.
 * @example
 * ```ts
 * claimOfStatus({ id: 3, context: "CI", state: "success" }, "state", "tf"); // undefined
 * ```
 */
export function claimOfStatus(
  item: unknown,
  stateKey: "state" | "status",
  name: string,
): PlanClaim | undefined {
  const status =
    (typeof item === "object" && item !== null ? item : {}) as Record<
      string,
      unknown
    >;
  if (typeof status.context !== "string") return undefined;
  const context = status.context.toLowerCase();
  const prefix = statusPrefix(name);
  if (!context.startsWith(prefix)) return undefined;
  const id = typeof status.id === "number" && Number.isSafeInteger(status.id)
    ? ` ${status.id}`
    : "";
  const from = `status${id}`;
  const number = context.slice(prefix.length);
  if (!/^[1-9][0-9]{0,3}$/.test(number)) {
    return { from, problem: "its context names no wave" };
  }
  const wave = Number(number);
  const state = status[stateKey];
  if (state !== "success") {
    const shown = typeof state === "string" && /^[a-z]{1,20}$/.test(state)
      ? `"${state}"`
      : "not a state";
    return { from, wave, problem: `its state is ${shown}, not "success"` };
  }
  if (!isDigest(status.description)) {
    return { from, wave, problem: "its description is not a set digest" };
  }
  return { from, wave, digest: status.description };
}

/**
 * What posting a hand-off's commit statuses did, for the log.
 * @param plans The plans handed over.
 * @returns `<n> commit statuses of <head12>`.
 * @example
 * ```ts
 * describeStatuses({ name: "tf", head, waves: [one] }); // "1 commit status of 0123456789ab"
 * ```
 */
export function describeStatuses(plans: RecordedPlans): string {
  const n = plans.waves.length;
  return `${n} commit status${n === 1 ? "" : "es"} of ${
    plans.head.slice(0, 12)
  }`;
}

/**
 * Posts one status per wave of `plans` to `path`.
 * @param http The forge's HTTP client.
 * @param path The statuses endpoint of the head commit.
 * @param plans The recorded plans.
 * @param targetUrl Where each status links (the job), when known.
 * @returns What was handed, for the log.
 * @throws {ForgeError} When the forge refuses a status.
 */
export async function postPlanStatuses(
  http: ForgeHttp,
  path: string,
  plans: RecordedPlans,
  targetUrl?: string,
): Promise<string> {
  for (const wave of plans.waves) {
    await http.request("POST", path, {
      body: {
        state: "success",
        context: statusContext(plans.name, wave.wave),
        description: wave.digest,
        ...(targetUrl ? { target_url: targetUrl } : {}),
      },
    });
  }
  return describeStatuses(plans);
}
